"""Issue 12, item 3: `verify`, `replay` and the database commands on bad files: one clear line, non-zero exit."""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import LOTTO, PLAYERS

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "mare-nostrum-15-turns.log"
DRAWS = str(LOTTO / "draws-2023-01.txt")


@pytest.fixture(autouse=True)
def keep_logging() -> Iterator[None]:
    """main() sets up logging on the captured stderr: take that handler away again after each test."""
    handlers = list(logging.root.handlers)
    yield
    logging.root.handlers[:] = handlers


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "internal error" not in out + err
    assert "Traceback" not in out + err
    return code, out + err


def tampered(tmp_path: Path, line: int, change: dict[str, object]) -> str:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    event = json.loads(lines[line])
    event["data"].update(change)
    lines[line] = json.dumps(event)
    path = tmp_path / "tampered.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", [["replay"], ["verify", "--draws", DRAWS]])
def test_a_binary_log_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    path = tmp_path / "b.log"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00binary")
    code, text = run(capsys, command[0], str(path), *command[1:])
    assert code != 0 and "not UTF-8" in text and "b.log" in text


@pytest.mark.parametrize("command", [["replay"], ["verify", "--draws", DRAWS]])
def test_an_empty_log_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    path = tmp_path / "e.log"
    path.write_text("", encoding="utf-8")
    code, text = run(capsys, command[0], str(path), *command[1:])
    assert code != 0 and "holds no event" in text


def test_binary_draws_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.txt"
    path.write_bytes(b"\xff\xfe\x00\x01")
    code, text = run(capsys, "verify", str(GOLDEN), "--draws", str(path))
    assert code != 0 and "not UTF-8" in text


@pytest.mark.parametrize("line,change", [(0, {"gm": []}), (0, {"players": []}), (10, {"nation": "tampered"})])
def test_a_tampered_event_fails_on_the_hash_chain(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  line: int, change: dict[str, object]) -> None:
    path = tampered(tmp_path, line, change)
    code, text = run(capsys, "verify", path, "--draws", DRAWS)
    assert code == 1 and "hash chain" in text and f"#{line + 1}" in text
    code, text = run(capsys, "replay", path)
    assert code == 1 and "hash chain" in text


def test_a_corrupt_database_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "corrupt.db"
    db.write_bytes(bytes(range(256)) * 40)
    code, text = run(capsys, "state", "--db", str(db))
    assert code == 1 and "corrupt.db" in text and "not a Legatus database" in text
    assert len(text.strip().splitlines()) == 1


def test_a_read_only_database_fails_the_post(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.db"
    players = [arg for nation, user in PLAYERS.items() for arg in ("--player", f"{nation}={user}")]
    assert main(["new", "--db", str(db), *players]) == 0
    before = sqlite3.connect(db).execute("SELECT count(*) FROM post").fetchone()
    capsys.readouterr()
    read_only = f"sqlite:///file:{db}?mode=ro&uri=true"  # root ignores file modes: SQLite's own read-only mode
    code, text = run(capsys, "post", "--db", read_only, "--as", "gm", "/turn open 2023-01-03")
    assert code == 1 and "read-only" in text
    assert sqlite3.connect(db).execute("SELECT count(*) FROM post").fetchone() == before
