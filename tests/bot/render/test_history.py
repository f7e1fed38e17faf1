"""The state at the close of a past turn, and the `legatus map` / `legatus chart` commands that draw it."""
from __future__ import annotations

import argparse
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from bot.render.history import TurnNotPlayed, state_at_turn
from bot.cli.render import add_commands
from bot.service.legatus import CampaignNotFound, Legatus
from tests.bot.campaign_play import play_full_campaign
from tests.conftest import LOTTO, PLAYERS


@pytest.fixture(scope="module")
def three_turns(tmp_path_factory: pytest.TempPathFactory) -> tuple[Legatus, Path]:
    db = tmp_path_factory.mktemp("history") / "three.db"
    service, _transcript = play_full_campaign(db, max_turns=3)
    return service, db


def test_the_state_now_and_at_the_last_close_are_the_same(three_turns: tuple[Legatus, Path]) -> None:
    service, _db = three_turns
    now = service.state()
    assert now["turn"] == 3 and now["phase"] == "closed"
    assert state_at_turn(service, None, None) == now
    assert state_at_turn(service, "mare-nostrum", 3) == now


def test_an_earlier_turn_is_the_state_at_its_close(three_turns: tuple[Legatus, Path]) -> None:
    service, _db = three_turns
    now = service.state()
    for turn in (1, 2):
        then = state_at_turn(service, None, turn)
        assert then["turn"] == turn and then["phase"] == "closed"
        assert then["year"] == ("290 BC", "280 BC")[turn - 1]
        assert then["history"] == now["history"][:turn]
        counts = {n: len(v["provinces"]) for n, v in then["nations"].items()}
        assert counts == now["history"][turn - 1]["provinces"]


def test_a_turn_not_closed_says_which_turns_are(three_turns: tuple[Legatus, Path]) -> None:
    service, _db = three_turns
    for turn in (4, 0, -1):
        with pytest.raises(TurnNotPlayed, match="turn -?[0-9]+ has not been closed: turns 1 to 3 have been closed"):
            state_at_turn(service, None, turn)
    with pytest.raises(CampaignNotFound, match="no campaign called 'other'"):
        state_at_turn(service, "other", 1)


def test_an_undone_close_does_not_count_the_close_after_it_does(service: Legatus) -> None:
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    assert service.post("gm", "/turn open 2023-01-03").ok
    with pytest.raises(TurnNotPlayed, match="turn 1 has not been closed: no turn has been closed yet; turn 1 is being played now"):
        state_at_turn(service, "c", 1)
    for player in ("antiochus", "ptolemy", "philip", "scipio", "hanno", "brennus"):
        assert service.post(player, "pass").ok
    assert service.post("gm", "/battle Bruttium winner Romans").ok
    assert service.post("gm", "/turn close").ok
    first_close = state_at_turn(service, "c", 1)
    assert service.post("gm", "/gm undo closed too early").ok
    with pytest.raises(TurnNotPlayed, match="no turn has been closed yet"):
        state_at_turn(service, "c", 1)
    assert service.post("gm", "/gm set stability Romans 7 a gift of the gods").ok
    assert service.post("gm", "/turn close").ok
    second_close = state_at_turn(service, "c", 1)
    assert second_close == service.state("c")
    assert second_close["nations"]["Romans"]["stability"] == 7
    assert first_close["nations"]["Romans"]["stability"] != 7


def test_the_read_only_reader_replays_the_log_once_for_a_past_turn(three_turns: tuple[Legatus, Path],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`legatus map --turn N` takes which turns have closed from the campaign's fold (its snapshot and the events
    after it), and replays the log only up to the close asked for, to the same state the service gives."""
    from bot.cli import reading
    from bot.render import history

    service, db = three_turns
    expected = {turn: state_at_turn(service, None, turn) for turn in (1, 2, 3)}
    replayed: list[int] = []
    real = history.replay

    def counted(ruleset: object, events: list[object]) -> object:
        replayed.append(len(events))
        return real(ruleset, events)  # type: ignore[arg-type]  # counting only: the real arguments pass through

    monkeypatch.setattr(history, "replay", counted)
    for turn in (1, 2, 3):
        replayed.clear()
        ruleset, state = reading.folded(db, None, turn)
        assert ruleset.public_view(state) == expected[turn]
        assert len(replayed) == 1, "one replay: up to the close, not first the whole log"
    replayed.clear()
    with pytest.raises(TurnNotPlayed, match="turn 4 has not been closed: turns 1 to 3 have been closed"):
        reading.folded(db, None, 4)
    assert replayed == [], "a turn not closed is known from the fold alone"


# --- the commands --------------------------------------------------------------------------------------------------

def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers(metavar="COMMAND"))
    args = parser.parse_args(list(argv))
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_legatus_map_writes_the_png_and_the_svg(three_turns: tuple[Legatus, Path], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _service, db = three_turns
    png, svg = tmp_path / "map.png", tmp_path / "map.svg"
    code, out, err = run(capsys, "map", "--db", str(db), "--out", str(png), "--svg", str(svg))
    assert (code, err) == (0, "")
    assert out == f"Map of turn 3 (270 BC) written to {png} and {svg}\n"
    image = Image.open(io.BytesIO(png.read_bytes()))
    assert image.format == "PNG" and image.width == 1600
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.get("width") == "1600"

    only_svg = tmp_path / "only.svg"
    code, out, _err = run(capsys, "map", "--db", str(db), "--campaign", "mare-nostrum", "--out", str(only_svg),
                          "--turn", "1", "--width", "1000")
    assert code == 0 and out == f"Map of turn 1 (290 BC) written to {only_svg}\n"
    assert "Turn 1, 290 BC" in only_svg.read_text(encoding="utf-8")
    assert ET.fromstring(only_svg.read_text(encoding="utf-8")).get("width") == "1000"


def test_legatus_map_says_what_is_wrong_in_one_line(three_turns: tuple[Legatus, Path], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    _service, db = three_turns
    out_png = str(tmp_path / "m.png")
    cases = [
        (("--turn", "7"), 2, "legatus: turn 7 has not been closed: turns 1 to 3 have been closed\n"),
        (("--campaign", "nope"), 2, "legatus: no campaign called 'nope'; campaigns here: mare-nostrum\n"),
        (("--width", "10"), 2, "legatus: --width 10: give a width between 480 and 4000 pixels\n"),
    ]
    for extra, expected_code, expected_err in cases:
        code, out, err = run(capsys, "map", "--db", str(db), "--out", out_png, *extra)
        assert (code, out, err) == (expected_code, "", expected_err)
    code, _out, err = run(capsys, "map", "--db", str(db), "--out", str(tmp_path / "m.jpg"))
    assert code == 2 and err == f"legatus: --out {tmp_path / 'm.jpg'}: the map is written as .png or .svg\n"
    code, _out, err = run(capsys, "map", "--db", str(db), "--out", str(tmp_path / "missing" / "m.png"))
    assert code == 1 and err.count("\n") == 1 and "does not exist" in err
    code, _out, err = run(capsys, "map", "--db", str(tmp_path / "empty.db"), "--out", out_png)
    assert code == 2 and err == "legatus: this database holds no campaign yet: create one with `legatus new`\n"
    assert not Path(out_png).exists()


def test_legatus_chart_writes_a_png(three_turns: tuple[Legatus, Path], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    _service, db = three_turns
    for kind in ("provinces", "stability"):
        out_png = tmp_path / f"{kind}.png"
        code, out, err = run(capsys, "chart", "--db", str(db), "--kind", kind, "--out", str(out_png), "--width", "900")
        assert (code, err) == (0, "")
        assert out == f"Chart of {kind} over 3 closed turns written to {out_png}\n"
        assert Image.open(out_png).size[0] == 900
    code, _out, err = run(capsys, "chart", "--db", str(db), "--kind", "provinces", "--out", str(tmp_path / "c.svg"))
    assert code == 2 and "charts are written as .png" in err
    # The kinds are the game's: an unknown one is refused in one line naming those it keeps.
    code, _out, err = run(capsys, "chart", "--db", str(db), "--kind", "treasury", "--out", str(tmp_path / "c.png"))
    assert (code, err) == (2, "legatus: --kind treasury: unknown chart 'treasury': choose provinces or stability\n")
    assert not (tmp_path / "c.png").exists()
