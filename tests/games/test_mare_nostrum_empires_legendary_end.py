"""A whole 5-player game of Mare Nostrum: Empires through the service and the console (every move but the script's
left to the deadlines' defaults) that ends with a legendary good still face down behind a screen: the Egyptians
take Judaea and build Jerusalem, the Babylonians march in and pillage it in round 2's Military phase and take a
legendary good, dealt face down; the Romans then win on the three titles. Before the end the export never names the
good; the end reveals it (card and holder), and `legatus verify` of the export derives it again with no finding
but the test chain's."""
from __future__ import annotations

import contextlib
import io
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.cli.main import main
from bot.schedule.scheduler import timeout_line
from engine.events import Event
from engine.log import replay
from engine.mare_nostrum_empires.ruleset import MareNostrumEmpires
from engine.tabletop import shuffle
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from tests.games.mare_nostrum_empires_players import MneTable, ok, private, say, table

PLAYERS = {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat", "Egyptians": "dan", "Babylonians": "eve"}
# (round, phase, empire): the lines it plays on its turn; every other prompt takes the deadline's default.
PLAYS = {(1, "purchase", "Romans"): ["buy legion in Rome with taxes",
                                     "buy influence in Gallia Cisalpina with gladiators, marble, wine"],
         (1, "purchase", "Egyptians"): ["buy influence in Judaea with wheat, papyrus, sheep"],
         (1, "military", "Babylonians"): ["march 1 Mesopotamia to Syria"],
         (2, "purchase", "Romans"): ["buy caravan in Gallia Cisalpina with taxes"],
         (2, "purchase", "Egyptians"): ["buy legendary city in Judaea with taxes"],
         (2, "military", "Babylonians"): ["march 1 Syria to Judaea", "pillage legendary in Judaea take legendary"]}


def _events(export: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in export.splitlines()]


def _play_to_the_end(t: MneTable) -> str:
    """The game to its end; returns the export as it stood once the Babylonians' good was dealt (their military
    turn not yet over)."""
    service = t.service
    assert service.create_campaign("mne", "mare-nostrum-empires", "gm", PLAYERS).changed
    played: set[tuple[int, str, str | None]] = set()
    before_the_end = ""
    for _ in range(300):
        ruleset, state = service.folded("mne")
        if state.phase == "over":
            return before_the_end
        if not before_the_end and state.board.screens["Babylonians"].legendary:
            before_the_end = service.export()
            assert private(t.console, "eve")["legendary"] == [state.table.holdings["Babylonians"].cards[0].card]
            for other in ("ann", "bob", "cat", "dan"):
                assert private(t.console, other)["legendary"] == []
        prompts = ruleset.prompts(state)
        if not prompts:  # a roll waits for its beacon
            t.clock.advance(timedelta(seconds=30))
            say(t.console, "ann> /status")
            continue
        key = (state.round, state.phase, state.turns.current if state.turns is not None else None)
        if key in PLAYS and key not in played:
            played.add(key)
            for line in PLAYS[key]:
                ok(t.console, f"{PLAYERS[str(key[2])]}> {line}")
            continue
        line = timeout_line(service, "mne", prompts[0].seat)
        assert line is not None and service.post("gm", line, "mne").ok, line
    raise AssertionError(f"the game did not end: {service.status()}")


def test_a_legendary_good_held_at_the_end_is_revealed_and_verified(tmp_path: Path) -> None:
    with table(tmp_path / "mne.db") as t:
        service = t.service
        before = _play_to_the_end(t)
        summary = service.summary()
        assert summary.over and summary.winner == "Romans", service.status()
        assert "Game over: the Romans hold the three titles" in service.status()
        ruleset, state = service.folded("mne")
        assert isinstance(ruleset, MareNostrumEmpires) and state.table is not None
        held = state.table.holdings["Babylonians"].cards
        assert [(h.id, h.deck) for h in held] == [("legendary.1", "legendary")]
        good = held[0].card
        assert good is not None and state.board.screens["Babylonians"].legendary == ["legendary.1"]

        # Before the end: sealed to the Babylonians, its content nowhere in the export.
        early = _events(before)
        sealed = next(e for e in early if e["kind"] == "secret.sealed" and e["data"]["key"] == "legendary.1")
        assert (sealed["data"]["seat"], sealed["data"]["face"]) == ("Babylonians", "legendary")
        assert not any(e["kind"] == "secret.revealed" and e["data"]["seq"] == sealed["seq"] for e in early)
        assert '"draw":"legendary.1"' not in before.replace(" ", "")
        assert not any(e["kind"] == "secret.revealed" and "deck key" in json.dumps(e["data"]) for e in early)

        # The end reveals it, card and holder, in public.
        export = service.export()
        events = _events(export)
        shown = [e for e in events if e["kind"] == "secret.revealed" and e["data"]["seq"] == sealed["seq"]]
        assert len(shown) == 1 and shown[0]["data"]["content"] == {"card": good, "deck": "legendary",
                                                                    "draw": "legendary.1"}
        over = next(e["seq"] for e in events if e["kind"] == "order" and e["data"]["order"] == {
            "kind": "name", "empire": "Romans", "title": "politics"} and e["seq"] > sealed["seq"])
        assert shown[0]["seq"] > over
        assert service.state()["screens"]["Babylonians"]["legendary_cards"] == [f"legendary.1 ({good})"]

        # Anyone with the export derives it again: the public fold knows it, and the revealed deck key with the
        # shuffle's public value puts it on top of the deck.
        folded = replay(ruleset, [Event.from_dict(e) for e in events]).state
        assert folded.table is not None and folded.table.key_revealed
        public = folded.table.holdings["Babylonians"].cards[0]
        assert (public.card, public.revealed) == (good, True)
        assert all(h.revealed for hold in folded.table.holdings.values() for h in hold.cards)
        deck = folded.table.decks["legendary"]
        first = deck.shuffles[0]
        values = next(b.values for b in folded.book.bindings if b.id == first.roll)
        assert values is not None and folded.table.key is not None
        cards = sorted(r for r in ruleset.rules.resources for _ in range(ruleset.rules.reserve_limits["legendary_goods"]))
        assert shuffle.permute(cards, shuffle.shuffle_key(first.label, values, folded.table.key),
                               f"{first.label}.0")[0] == good

        result, _ = service.verify()
        assert_verified_but_for_the_test_chain(result)
        log = tmp_path / "mne.log"
        log.write_text(export, encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["verify", str(log)])
        said = out.getvalue()
        mismatches = [line for line in said.splitlines() if line.startswith("MISMATCH")]
        assert code == 1 and mismatches and all("test chain: not verifiable" in line for line in mismatches), said
        assert "sealed content(s) revealed and replayed" in said, said
