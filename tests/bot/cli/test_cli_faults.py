"""Faults an operator meets at the command line: each gives one clear line and a non-zero exit, and changes nothing.

The attacker here is only bad luck and typos: a mistyped --db, a URI where a path belongs, a folder that does not
exist, a reader that closes the pipe. Each was an internal error, an empty database made out of a typo, or a
failed post reported as a success.
"""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.cli.test_cli import campaign, legatus  # noqa: F401  (the fixture is used by name)

READERS = (
    ("state", "--db", "typo.db"),
    ("ledger", "--db", "typo.db"),
    ("export", "--db", "typo.db", "--out", "x.log"),
    ("map", "--db", "typo.db", "--out", "x.png"),
    ("chart", "--db", "typo.db", "--kind", "provinces", "--out", "c.png"),
    ("lotto", "list", "--db", "typo.db"),
    ("post", "--db", "typo.db", "--as", "gm", "/status"),
    ("backup", "--db", "typo.db", "--out", "copy.db"),
)


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0] if c[0] != "lotto" else "lotto list")
def test_a_command_on_a_mistyped_database_says_so_and_creates_nothing(tmp_path: Path, command: tuple[str, ...]) -> None:
    before = _files(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *command], capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "legatus: there is no database at typo.db: check --db (or $DATABASE_URL); "
        "`legatus new --db typo.db` creates a campaign there"]
    assert "Traceback" not in done.stderr
    assert _files(tmp_path) == before  # no typo.db, no -wal, no -shm


def test_a_uri_given_as_a_database_path_is_refused_and_no_file_of_that_name_is_made(tmp_path: Path) -> None:
    before = _files(tmp_path)
    done = subprocess.run([sys.executable, "-m", "bot.cli", "state", "--db", "file:x.db?mode=ro"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "legatus: --db 'file:x.db?mode=ro' is a URI, not a file path: give the SQLite file as a path "
        "(e.g. --db campaign.db), or another database as DATABASE_URL")
    assert _files(tmp_path) == before


def test_new_still_creates_its_database(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot.cli", "new", "--db", "fresh.db", "--ruleset", "mare-nostrum",
                           "--player", "Romans=alice"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "fresh.db").is_file()


def test_an_export_into_a_missing_folder_says_which_folder(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "missing" / "dir" / "x.log"
    done = legatus("export", "--db", str(campaign), "--out", str(out))
    assert done.returncode == 2
    assert done.stderr.strip() == (f"legatus: cannot write {out}: there is no folder {out.parent}; "
                                   "create it first or give another --out")
    assert not out.parent.exists()


def test_a_post_whose_reader_closed_the_pipe_keeps_its_exit_code(campaign: Path) -> None:  # noqa: F811
    """`legatus post ... | head -c0`: the post was refused, so the exit status says 3, not 0."""
    shell = (f"set -o pipefail; {sys.executable} -m bot.cli post --db {campaign} --as scipio "
             f"'build temple in Latum' | head -c0")
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != "DATABASE_URL"})
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_the_lock_file_beside_a_database_is_ignored_by_git() -> None:
    ignored = subprocess.run(["git", "check-ignore", "-q", "legatus.db.locks"],
                             cwd=Path(__file__).resolve().parents[3], timeout=30)
    assert ignored.returncode == 0


def test_a_post_holding_a_nul_byte_is_refused_in_one_line_and_stored_nowhere(
        campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    from bot.cli.main import main

    assert main(["post", "--db", str(campaign), "--as", "gm", "/turn open 2023-01-03"]) == 0
    capsys.readouterr()
    code = main(["post", "--db", str(campaign), "--as", "antiochus", "pass\x00"])
    said = capsys.readouterr()
    assert code == 1 and said.out.strip() == ("The post holds a NUL character (\\x00) on line 1, which no text may "
                                              "hold; nothing was changed. Remove it and post again."), said
    with sqlite3.connect(campaign) as db:
        assert db.execute("SELECT count(*) FROM post WHERE instr(text, char(0)) > 0").fetchone() == (0,)
