"""Market Day, a game with a hidden deck, on the commit-reveal source, through the service and the console: the deck
key sealed with the campaign, the shuffles bound to commit-reveal labels mixed with a drand round, every card sealed;
at the end the deck key, every card and the seed are revealed and verify derives every shuffle and card again.

And what commit-reveal promises for hidden cards against whoever runs the bot (docs/randomness.md 5b): the operator
holds the seed (the server key and the database) and the deck key (the private store), so once the shuffle's round
is out it reads every hand before any player sees one; it cannot foresee the order before the round, nor choose it
(the key was sealed, and the seed committed, before the round existed)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from bot.console.offline import Console
from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service import legatus as legatus_service
from bot.service.legatus import Legatus
from bot.store import campaign_secret
from bot.store.campaigns import find_campaign
from bot.store.db import open_engine
from bot.store.session_post_store import SessionPostStore
from engine import commit_reveal
from engine.rulesets import load_ruleset
from engine.tabletop import shuffle
from engine.verify import verify
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, assert_verified_but_for_the_test_chain, serving
from tests.games.market_day.state import DECKS
from tests.games.test_market_day_shell import PLAYERS, PLUGIN, START, held, say
from tests.log_tools import events_of, rechained

SEATS = ("North", "South", "East")
GOODS = sorted(c for card, n in DECKS["goods"]["cards"].items() for c in [card] * n)


@pytest.fixture(params=[commit_reveal.RULE_AT_ONCE, commit_reveal.RULE_SEED], ids=["rule2", "rule1"])
def table(request: pytest.FixtureRequest, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Legatus, Console, int]]:
    """A Market Day campaign on commit-reveal, of the newest rule (numbers from the round alone, checked at once)
    or of rule 1 (numbers from the seed mixed with the round, checkable once the seed is revealed)."""
    monkeypatch.setenv("LEGATUS_RULESETS", PLUGIN)
    monkeypatch.setattr(legatus_service, "RULE_OF_NEW_CAMPAIGNS", request.param)
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "market.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                       test_chain=True, clock=lambda: clock.now().timestamp())
        assert service.create_campaign("market", "market-day", "gm", PLAYERS, randomness="commit-reveal").changed
        yield service, Console(service), request.param


def dealt(pile: list[str]) -> dict[str, list[str]]:
    """Each seat's three goods from a pile (top first): two from the top, the third from the bottom."""
    pile, out = list(pile), {}
    for seat in SEATS:
        out[seat] = [pile.pop(0), pile.pop(0), pile.pop()]
    return out


def private_store(service: Legatus) -> tuple[dict[int, dict[str, Any]], bytes]:
    """What whoever runs the bot holds beside the public log: every sealed content, and the seed's key (the server
    key and the nonce in the database)."""
    with Session(service.engine) as session:
        row = find_campaign(session, "market")
        assert row is not None and row.id is not None
        seed = campaign_secret.seed_of(session, row.id)
        sealed = SessionPostStore(session).sealed_after(row.id)
    assert seed is not None
    return sealed, commit_reveal.key(seed)


def goods_binding(service: Legatus) -> dict[str, Any]:
    return next(r for r in service.state()["chance"]["rolls"] if r["purpose"] == "shuffle of the goods deck")


def test_a_whole_game_on_commit_reveal_then_every_card_derived_again_once_the_seed_is_revealed(table) -> None:  # type: ignore[no-untyped-def]
    service, console, rule = table
    clock = service.clock
    first = events_of(service)
    assert [(e.seq, e.kind, e.data.get("key")) for e in first] == [(1, "campaign.created", None),
                                                                    (2, "secret.sealed", "deck-key")]
    assert first[0].data.get("commit_reveal_rule", 1) == rule
    clock.advance(timedelta(seconds=30))
    say(console, "ann> /status")  # the round is out: its numbers are recorded, the goods dealt and sealed
    binding = goods_binding(service)
    assert binding["label"].startswith("goods.shuffle1@drand:") and binding["values"] is not None
    hands = {seat: [card for _, card in held(console, who)] for seat, who in PLAYERS.items()}

    for who in PLAYERS.values():
        say(console, f"{who}> done")
    say(console, "cat> bid 2")
    say(console, "ann> pass")
    say(console, "bob> pass")
    say(console, "ann> vote no")
    say(console, "cat> vote no")
    assert service.summary().over, service.status()

    before, _ = service.verify()
    ruleset = load_ruleset("market-day", service.data_dir)
    if rule == commit_reveal.RULE_SEED:  # the two shuffles' numbers wait for the seed: nothing is verified yet
        assert (before.awaiting_reveal, before.numbers_checked, before.verified) == (2, 0, False)
    else:  # each number is its round's, checked as it is recorded: no seed needed
        assert (before.awaiting_reveal, before.numbers_checked) == (0, 2)
    assert "✓" in say(console, "gm> /campaign reveal")
    result, _ = service.verify()
    assert_verified_but_for_the_test_chain(result)
    assert result.awaiting_reveal == 0 and result.numbers_checked == 2
    assert any("10 sealed content(s) revealed and replayed as the bot's fold ran them; 10 of the 10" in n
               for n in result.notes), result.notes

    # Anyone, from the export alone: the seed (rule 1) and the deck key are in it now; the order and every card follow.
    events = events_of(service)
    revealed = {e.data["seq"]: e.data for e in events if e.kind == "secret.revealed"}
    key = revealed[2]["salt"]
    values = binding["values"]
    if rule == commit_reveal.RULE_SEED:
        seed = next(e.data["seed"] for e in events if e.kind == "seed.revealed")
        beacons = {str(e.data["round"]): str(e.data["randomness"]) for e in events if e.kind == "beacon.recorded"}
        assert commit_reveal.label_values(commit_reveal.key(seed), binding["label"], 2, 1, 2**31, beacons) == values
    pile = shuffle.permute(GOODS, shuffle.shuffle_key(binding["label"], values, key), f"{binding['label']}.0")
    assert dealt(pile) == hands
    cards = {e.data["key"]: revealed[e.seq]["content"]["card"] for e in events
             if e.kind == "secret.sealed" and e.data["key"] != "deck-key"}
    assert [cards[f"goods.{n}"] for n in range(1, 10)] == [c for seat in SEATS for c in hands[seat]]
    assert_verified_but_for_the_test_chain(verify(ruleset, events, {}))  # the export alone, with no database


def test_the_operator_cannot_foresee_the_deal_but_reads_every_hand_once_its_round_is_out(table) -> None:  # type: ignore[no-untyped-def]
    service, console, rule = table
    sealed, seed_key = private_store(service)
    deck_key = sealed[2]["salt"]  # the deck key, sealed with the campaign: event 2
    binding = goods_binding(service)
    assert binding["values"] is None  # bound to a round still to come
    round_no = int(binding["label"].rsplit(":", 1)[1])
    chain = events_of(service)[0].data["drand_chain"]
    key_sealed_at = datetime.fromisoformat(events_of(service)[1].at)
    round_public_at = datetime.fromtimestamp(int(chain["genesis"]) + (round_no - 1) * int(chain["period"]), timezone.utc)
    assert round_public_at > key_sealed_at  # the key (and the seed) were fixed before the value existed
    # Not foreseen: with the seed and the key, the numbers still wait for the round's randomness.
    assert commit_reveal.label_values(seed_key, binding["label"], 2, 1, 2**31, {}) is None

    service.clock.advance(timedelta(seconds=30))
    say(console, "ann> /status")
    hands = {seat: [card for _, card in held(console, who)] for seat, who in PLAYERS.items()}
    events = events_of(service)
    assert not any(e.kind in ("secret.revealed", "seed.revealed") for e in events)  # nothing revealed to anyone
    # Read: the operator's key and the public numbers (rule 2) or its seed with the round (rule 1) give every hand.
    beacons = {str(e.data["round"]): str(e.data["randomness"]) for e in events if e.kind == "beacon.recorded"}
    values = (commit_reveal.label_values(seed_key, binding["label"], 2, 1, 2**31, beacons)
              if rule == commit_reveal.RULE_SEED else goods_binding(service)["values"])
    assert values == goods_binding(service)["values"]
    pile = shuffle.permute(GOODS, shuffle.shuffle_key(binding["label"], values, deck_key), f"{binding['label']}.0")
    assert dealt(pile) == hands
    assert sum(c.endswith("star") for h in hands.values() for c in h) >= 1  # a bottom the operator has read


def test_numbers_the_operator_chose_for_the_shuffle_are_caught_by_verify(table) -> None:  # type: ignore[no-untyped-def]
    """The operator rewrites the goods shuffle's numbers in the log (to deal itself a star, say) and re-chains it:
    under rule 2 verify recomputes them from the round at once; under rule 1 from the seed once it is revealed."""
    service, console, rule = table
    service.clock.advance(timedelta(seconds=30))
    say(console, "ann> /status")
    for who in PLAYERS.values():
        say(console, f"{who}> done")
    for line in ("cat> pass", "ann> pass", "bob> pass", "ann> vote no", "cat> vote no", "gm> /campaign reveal"):
        say(console, line)
    events = events_of(service)
    index = next(i for i, e in enumerate(events) if e.kind == "random.recorded")
    label = goods_binding(service)["label"]
    numbers = {**events[index].data["numbers"], label: [7, 7]}
    events[index] = replace(events[index], data={**events[index].data, "numbers": numbers})
    result = verify(load_ruleset("market-day", service.data_dir), rechained(events), {})
    expected = "the revealed seed gives" if rule == commit_reveal.RULE_SEED else f"drand round {label.rsplit(':', 1)[1]} gives"
    assert any(expected in f.detail for f in result.findings), [str(f) for f in result.findings]
