"""Refusals never read a hidden hand to anyone but its owner (issue 22, hole 6).

The bot's own fold knows every sealed marker and card, so it refuses an order the hand cannot pay for at once; the
reason names the hand ("holds 1 Military Advantage marker(s), not 2"). Told to the GM who gave the order for the
seat (``/order <seat> ...``, also what the scheduler posts on a timeout), or posted in the channel where the owner
typed the order, that reason reads the hand to others. The attack: a non-owner triggers the refusal and reads it.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable
from contextlib import redirect_stdout
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.console.offline import Console
from bot.schedule.clock import FixedClock
from bot.service.hidden_refusals import public_reason
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.events import Rejection
from tests.bot.drand.drand_fakes import FakeRelay, beacon_source, serving
from tests.games.mediterranean_empires_players import MAJOR, SIDE, USERS, Table, decide, table
from tests.games.test_mediterranean_empires_secrecy import _stratagem_phase

# The exact words: the same whatever the holding, so that they tell no count and no kind.
HIDDEN = ("refused: this order cannot be carried out; why would tell what {seat} keeps hidden, "
          "so only {seat}'s player is told")
OWNER_TOLD = "An order given for {seat} by someone else was refused; the reason, for you alone:"


def _at_operations(t: Table) -> str:
    """Turn 1's Operations Phase, a seat to act with no force out (the first table's draws: Player A holds one
    Military Advantage marker); returns that seat."""
    _stratagem_phase(t, "first table")
    return _play_until(t, lambda: t.state.phase.startswith("operations") and t.state.force is None
                       and t.state.action is None, 300, "no Operations Phase reached")


def _play_until(t: Table, reached: "Callable[[], bool]", tries: int, never: str) -> str:
    """Play the scripted players until ``reached`` with a prompt out; returns that prompt's seat."""
    ruleset = t.service.ruleset_of(None)
    for _ in range(tries):
        prompts = ruleset.prompts(t.state)
        if prompts and reached():
            return prompts[0].seat
        if not prompts:
            t.say("gm", "/status")
            continue
        t.say(*decide(ruleset, t.state, prompts[0], t.plan))
    raise AssertionError(never)


def _activation(t: Table, seat: str, markers: int) -> str:
    power = MAJOR[SIDE[seat]][0]
    area = sorted(u.area for u in t.state.units.values() if u.power == power and u.kind != "fleet")[0]
    return f"activate {power} in {area} with {markers} military advantage"


def test_a_gms_order_for_a_seat_is_refused_without_the_hidden_count(tmp_path: Path) -> None:
    """Attacker: the GM with Discord, who gives ``/order "Player A" activate ... with 2 military advantage`` to learn
    from the refusal how many Military Advantage markers Player A holds."""
    with table(tmp_path / "me.db") as t:
        seat = _at_operations(t)
        held = t.service.ruleset_of(None).private_view(t.state, seat)["markers"].count("Military Advantage")
        assert held == 1, "the first table's draws give Player A one Military Advantage marker"
        before = len(t.events())
        order = _activation(t, seat, 2)
        answer = t.say("gm", f'/order "{seat}" {order}')
        assert answer.splitlines()[0].endswith(HIDDEN.format(seat=seat)), answer
        assert not re.search(r"\bholds?\b|1 Military|stratagem marker", answer), answer
        assert len(t.events()) == before, "refused: nothing in the log"
        # The seat's player is told the reason, for a transport to deliver to them alone.
        reply = t.service.post("gm", f'/order "{seat}" {order}')
        assert reply.owner_notes == {USERS[seat]: [
            f"{OWNER_TOLD.format(seat=seat)}\n\u201c/order \"{seat}\" {order}\u201d: activate: power France, area "
            f"Albi, markers 2, king True: refused: {seat} holds 1 Military Advantage stratagem marker(s), not 2"]}, \
            reply.owner_notes
        assert "holds" not in reply.render() and "holds" not in reply.render(for_author=False)
        # The owner, ordering it themselves, is told the precise reason (the console is private to its user).
        own = t.say(USERS[seat], order)
        assert f"refused: {seat} holds 1 Military Advantage stratagem marker(s), not 2" in own, own


def test_the_owners_own_refusal_names_the_hand_to_the_owner_alone(tmp_path: Path) -> None:
    """Attacker: the other player, reading the channel where Player A typed an order its hand cannot pay for."""
    with table(tmp_path / "me.db") as t:
        seat = _at_operations(t)
        reply = t.service.post(USERS[seat], _activation(t, seat, 2))
        precise = f"{seat} holds 1 Military Advantage stratagem marker(s), not 2"
        assert precise in reply.render(), "its author sees why"
        channel = reply.render(for_author=False)
        assert precise not in channel and "holds" not in channel, channel
        assert "refused (the reason goes to its author privately)" in channel, channel
        assert reply.sealed, "a transport shows the whole answer to its author alone"


def test_a_gms_play_of_a_marker_for_a_seat_is_refused_without_naming_its_hand(tmp_path: Path) -> None:
    """Attacker: the GM with Discord, playing ``/order "<seat>" play Gold`` for a seat in the Joint Recruitment Phase
    to learn from the refusal that its hand holds no Gold."""
    with table(tmp_path / "me.db") as t:
        ruleset = t.service.ruleset_of(None)
        seat = _drive(t, lambda: t.state.phase == "recruitment" and bool(ruleset.prompts(t.state))
                      and t.state.action is None)
        held = ruleset.private_view(t.state, seat)["markers"]
        marker = next(m for m in ("Gold", "Piracy", "Trade Concession") if m not in held)
        answer = t.say("gm", f'/order "{seat}" play {marker}')
        assert answer.splitlines()[0].endswith(HIDDEN.format(seat=seat)), answer
        assert "holds no" not in answer, answer
        own = t.say(USERS[seat], f"play {marker}")
        assert f"refused: {seat} holds no {marker} stratagem marker to play" in own, own


def test_a_gms_sealed_bid_for_a_seat_is_refused_without_its_count(tmp_path: Path) -> None:
    """Attacker: the GM with Discord, sealing an initiative bid for a seat (``/order "<seat>" 2``) above what it holds
    to learn from the refusal how many Military Advantage and Ambush markers it holds."""
    with table(tmp_path / "me.db") as t:
        ruleset = t.service.ruleset_of(None)
        seat = _drive(t, lambda: any(p.mode == "bid" for p in ruleset.prompts(t.state)) and all(
            m in ruleset.prompts(t.state)[0].choices for m in ("0", "1", "2")) and _initiative(t, ruleset) < 2)
        held = _initiative(t, ruleset)
        answer = t.say("gm", f'/order "{seat}" {held + 1}')
        assert answer.splitlines()[0].endswith(HIDDEN.format(seat=seat)), answer
        assert "you hold" not in answer, answer
        own = t.say(USERS[seat], str(held + 1))
        assert f"you hold {held} Military Advantage/Ambush marker(s): bid 0 to {held}" in own, own


def _initiative(t: Table, ruleset: object) -> int:
    seat = ruleset.prompts(t.state)[0].seat  # type: ignore[attr-defined]
    markers = ruleset.private_view(t.state, seat)["markers"]  # type: ignore[attr-defined]
    return sum(1 for m in markers if m in ("Military Advantage", "Ambush"))


def _drive(t: Table, reached: "Callable[[], bool]") -> str:
    """Play the scripted players until ``reached``; returns the seat of the first prompt then."""
    from tests.games.mediterranean_empires_players import post_standing_orders

    post_standing_orders(t)
    return _play_until(t, reached, 3000, "the moment was never reached")


def test_a_gms_bid_for_a_seat_of_blind_auction_is_refused_without_its_cards(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: the GM with Discord, bidding ``/order North bid 7`` for North to read North's sealed hand in the
    refusal ("bid one of 2, 5, 9")."""
    monkeypatch.setenv("LEGATUS_RULESETS", "blind-auction=tests.games.blind_auction:load")
    clock = FixedClock(datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc))
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "auction.db"), clock=clock)
        service.beacons = beacon_source(relay, clock)  # the tests' own chain, opted into as a test chain
        console = Console(service)
        assert service.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"}).changed
        assert "✓" in _say(console, "ann> hand 9 5 2") and "✓" in _say(console, "bob> hand 3 5 8")
        answer = _say(console, "gm> /order North bid 7")
        assert answer.splitlines()[0].endswith(HIDDEN.format(seat="North")), answer
        assert not re.search(r"[259]", answer.replace("/order North bid 7", "")), answer
        own = _say(console, "ann> bid 7")
        assert "7 is not a card you still hold: bid one of 2, 5, 9" in own, own


def _say(console: Console, line: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        console.handle(line)
    return out.getvalue()


def test_a_fact_the_bot_records_is_refused_in_public_without_the_hand() -> None:
    """Attacker: every member reading the channel, should a game refuse one of the bot's own facts (a beacon, a
    reveal) with a reason that reads a hand: those refusals are said in public (bot/service/public_values.py)."""
    refused = Rejection("Player B holds no Diplomacy stratagem marker to play", hidden_of="Player B")
    assert public_reason(refused) == HIDDEN.format(seat="Player B")[len("refused: "):]
    assert public_reason(Rejection("the beacon's signature does not verify")) == "the beacon's signature does not verify"
