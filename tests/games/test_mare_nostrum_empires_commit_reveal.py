"""Mare Nostrum: Empires on the commit-reveal source, through the service and the console (as the drand game is in
test_mare_nostrum_empires_shell.py): a whole 3-player game to a victory, the seed revealed, the export verified by
`legatus verify`; and a legendary good dealt face down on that source, which the operator holding the database
cannot read (sealed contents are encrypted at rest), nor the GM, another player or anyone with the export."""
from __future__ import annotations

import contextlib
import io
import json
from datetime import timedelta
from pathlib import Path

from bot.cli.main import main
from bot.schedule.scheduler import timeout_line
from engine import canonical
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from tests.games.mare_nostrum_empires_players import ok, play_game, private, say, table

PLAYERS4 = {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat", "Egyptians": "dan"}


def test_a_whole_game_on_commit_reveal_then_the_seed_revealed_and_the_export_verified(tmp_path: Path) -> None:
    with table(tmp_path / "mne.db") as t:
        play_game(t, randomness="commit-reveal")
        service = t.service
        summary = service.summary()
        assert summary.over and summary.winner == "Romans", service.status()
        created = json.loads(service.export().splitlines()[0])
        assert created["data"]["randomness"] == "commit-reveal" and len(created["data"]["commitment"]) == 64
        row = next(r for r in service.state()["chance"]["rolls"] if r["purpose"] == "shuffle of the row deck")
        assert "@drand:" in row["label"] and row["values"] is not None
        assert "✓" in say(t.console, "gm> /campaign reveal")
        result, _ = service.verify()
        assert_verified_but_for_the_test_chain(result)
        assert result.awaiting_reveal == 0
        log = tmp_path / "mne.log"
        log.write_text(service.export(), encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["verify", str(log)])
        said = out.getvalue()
        mismatches = [line for line in said.splitlines() if line.startswith("MISMATCH")]
        # The tests' drand chain is never verifiable: its lines are the only findings.
        assert code == 1 and mismatches and all("test chain: not verifiable" in line for line in mismatches), said
        assert "sealed content(s) revealed and replayed" in said, said


def test_a_legendary_good_dealt_on_commit_reveal_is_named_by_its_holder_alone(tmp_path: Path) -> None:
    """The Egyptians build Jerusalem in round 1 (everything else left to the deadlines' defaults); round 2's
    Production deals them a legendary good face down."""
    db = tmp_path / "mne.db"
    with table(db) as t:
        service = t.service
        assert service.create_campaign("mne", "mare-nostrum-empires", "gm", PLAYERS4, randomness="commit-reveal").changed
        built = False
        for _ in range(120):
            ruleset, state = service.folded("mne")
            if state.board.screens["Egyptians"].legendary:
                break
            prompts = ruleset.prompts(state)
            if not prompts:  # a roll waits for its round
                t.clock.advance(timedelta(seconds=30))
                say(t.console, "ann> /status")
                continue
            if state.turns is not None and state.turns.current == "Egyptians" and state.phase == "purchase" and not built:
                ok(t.console, "dan> buy influence in Judaea with wheat, papyrus, sheep")
                ok(t.console, "dan> buy legendary city in Judaea with taxes")
                built = True
            line = timeout_line(service, "mne", prompts[0].seat)
            assert line is not None and service.post("gm", line, "mne").ok
        card = state.board.screens["Egyptians"].legendary[0]
        assert state.table is not None
        good = next(h.card for h in state.table.holdings["Egyptians"].cards if h.id == card)
        assert good is not None
        assert private(t.console, "dan")["legendary_cards"] == {card: good}
        for who in ("ann", "bob", "cat"):
            assert private(t.console, who)["legendary"] == []
        assert "you (gm) hold no seat in this campaign" in say(t.console, "gm> /private")
        assert service.state()["screens"]["Egyptians"]["legendary"] == 1
        sealed = next(json.loads(line) for line in service.export().splitlines()
                      if json.loads(line)["kind"] == "secret.sealed" and json.loads(line)["data"]["key"] == card)
        assert sealed["data"]["face"] == "legendary" and good not in json.dumps(sealed["data"])
        # The operator with the database: the sealed content is encrypted at rest, nowhere in the file in clear.
        content = canonical.dumps({"card": good, "deck": "legendary", "draw": card})
        assert content.encode() not in db.read_bytes()
        assert f'"card":"{good}"'.encode() not in db.read_bytes() and b'"draw":"legendary.' not in db.read_bytes()
        # Mid-game, with the card still sealed, the log verifies (but for the test chain).
        result, _ = service.verify()
        assert_verified_but_for_the_test_chain(result)

        # Left to the deadlines, the Egyptians end their purchases without spending it: it goes back, shown.
        for _ in range(60):
            ruleset, state = service.folded("mne")
            if not state.board.screens["Egyptians"].legendary:
                break
            line = timeout_line(service, "mne", ruleset.prompts(state)[0].seat)
            assert line is not None and service.post("gm", line, "mne").ok
        assert state.table is not None and state.table.decks["legendary"].discard == [good]
        events = [json.loads(line) for line in service.export().splitlines()]
        shown = next(e for e in events if e["kind"] == "secret.revealed" and e["data"]["seq"] == sealed["seq"])
        assert shown["data"]["content"] == {"card": good, "deck": "legendary", "draw": card}
        result, _ = service.verify()
        assert_verified_but_for_the_test_chain(result)
