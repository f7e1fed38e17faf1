"""A whole game of Mediterranean Empires offline (issue 24): the players' own set-up (3.1-3.2), seven game turns on
the lottery's stored draws (tests/data/lotto, historical clock), played through the console by the scripted players,
written down as a transcript and played again from it with `legatus console --script`; its export replays and
`legatus verify` checks every roll against the draws. Seal salts are fixed (a random pick key would draw other
markers, and the game would go another way), so the game is the same every run."""
from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.service.legatus as legatus_module
from bot.cli.main import main
from bot.console.offline import Console
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine import canonical
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset
from tests.conftest import LOTTO
from tests.games import mediterranean_empires_players as players
from tests.games.mediterranean_empires_set_up import OWN_SET_UP

DRAWS = (LOTTO / "draws-2023-01.txt", LOTTO / "draws-2023-02-to-12.txt")
DATA = Path(__file__).resolve().parents[2] / "data"


def fixed_salts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shell's salts (the pick key's among them) from a counter: the same markers, so the same game."""
    salts = itertools.count(1)
    real = legatus_module.secrets_module.token_hex
    # Only the seals' 128-bit salts: the store's keys (other lengths, made when the store first needs them) stay random.
    monkeypatch.setattr(legatus_module.secrets_module, "token_hex",
                        lambda n=16: f"{next(salts):0{2 * n}x}" if n == 16 else real(n))


def events_of(text: str) -> list[Event]:
    return [Event.from_dict(json.loads(line)) for line in text.splitlines()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[players.Table, Path]]:
    """The game played by the scripted players, each post through the console; its transcript as a script file."""
    tmp = tmp_path_factory.mktemp("offline")
    with pytest.MonkeyPatch.context() as monkeypatch:
        clock = FixedClock(players.START)
        service = Legatus(open_engine(tmp / "played.db"), clock=clock)
        for path in DRAWS:
            service.import_draws(path.read_text(encoding="utf-8"), path.name)
        created = service.create_campaign("middle-sea", "mediterranean-empires", "gm", dict(players.USERS),
                                          randomness="lottery", clock="historical")
        assert created.changed, created.render()
        state = replay(service.ruleset_of(None), events_of(service.export())).state
        t = players.Table(service, Console(service), clock, state)
        service.observers.append(lambda change: setattr(t, "state", change.state))
        fixed_salts(monkeypatch)  # from the first post on: the replay below counts from there too
        for seat, lines in OWN_SET_UP.items():
            for line in lines:
                answer = t.say(players.USERS[seat], line)
                assert "✓" in answer, answer
        players.play_game(t)
    script = tmp / "game.script"
    script.write_text("".join(f"{who}: {text}\n" for who, text, _ in t.transcript), encoding="utf-8")
    yield t, script


def test_seven_game_turns_with_the_players_own_set_up_end_in_the_victory_count(played: tuple[players.Table, Path]) -> None:
    t, _ = played
    st = t.state
    assert t.refused() == []
    # 4.0: Player A ahead by 2 VP is a draw.
    assert (st.phase, st.turn, st.vp, st.winner) == ("over", 7, {"A": 3, "B": 1}, "draw")
    events = t.events()
    placements = [e for e in events if e.kind == "order" and e.data.get("order", {}).get("order") == "place"]
    assert len(placements) == sum(map(len, OWN_SET_UP.values()))
    assert all(e.seq < next(d.seq for d in events if d.kind == "draw.recorded") for e in placements)
    # Every roll came from a stored draw. A die an order asks for as a draw is recorded may take another wheel of
    # that draw: it is settled at once (it once waited forever for a draw already recorded).
    book = st.book
    assert book.source == "lottery" and all(b.values is not None for b in book.bindings)
    assert (min(book.draws), max(book.draws)) == ("2023-01-03", "2023-10-17") and len(book.draws) == 139
    said = "\n".join(answer for _, _, answer in t.transcript)
    for seen in ("Player A places 2 field armies of France in Provence County.", "The set-up is complete",
                 "draws a stratagem marker", "attempts alliance with", "recruits", "OP roll",
                 "Lottery draw of 2023-10-17 recorded."):
        assert seen in said, seen


def test_the_transcript_plays_again_in_the_console_and_its_export_verifies(
    played: tuple[players.Table, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, script = played
    db = str(tmp_path / "again.db")
    assert main(["new", "--db", db, "--name", "middle-sea", "--ruleset", "mediterranean-empires",
                 "--randomness", "lottery", "--clock", "historical",
                 "--player", "Player A=ann", "--player", "Player B=bob"]) == 0
    for path in DRAWS:
        assert main(["lotto", "import", "--db", db, str(path)]) == 0
    capsys.readouterr()
    fixed_salts(monkeypatch)
    assert main(["console", "--db", db, "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert "✗" not in out and "The game ends: Player A 3 VP, Player B 1 VP: a draw." in out
    log = tmp_path / "game.log"
    assert main(["export", "--db", db, "--out", str(log)]) == 0
    capsys.readouterr()
    code = main(["verify", str(log), *[a for p in DRAWS for a in ("--draws", str(p))]])
    verdict = capsys.readouterr().out
    assert code == 0, verdict
    ruleset = load_ruleset("mediterranean-empires", DATA)
    again = replay(ruleset, events_of(log.read_text(encoding="utf-8"))).state
    assert canonical.dumps(ruleset.public_view(again)) == canonical.dumps(ruleset.public_view(t.state))
