"""Issue 12, item 2: `legatus post` refuses text that is not UTF-8, exits 3 when lines are refused, and quotes
at most ~80 characters of what was typed."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.quote import quote
from tests.conftest import LOTTO, PLAYERS


def legatus(*args: str | bytes, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, input=stdin, env=env, timeout=120)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("post") / "camp.db"
    players = [arg for nation, user in PLAYERS.items() for arg in ("--player", f"{nation}={user}")]
    assert legatus("new", "--db", str(path), *players).returncode == 0
    assert legatus("lotto", "import", "--db", str(path), str(LOTTO / "draws-2023-01.txt")).returncode == 0
    assert legatus("post", "--db", str(path), "--as", "gm", "/turn open 2023-01-03").returncode == 0
    return str(path)


def test_quote_cuts_long_text() -> None:
    assert quote("Latum") == "Latum"
    cut = quote("x" * 1_000_000)
    assert len(cut) == 80 and cut.endswith("…")


@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_non_utf8_stdin_is_refused_with_a_message(db: str, strict: list[str]) -> None:
    done = legatus("post", "--db", db, "--as", "antiochus", *strict, "-", stdin=b"raise fleet in \xff\xfe levantine")
    assert done.returncode == 2
    err = done.stderr.decode()
    assert "not UTF-8" in err and "byte 0xff" in err and "internal error" not in err + done.stdout.decode()


def test_non_utf8_argument_is_refused_with_a_message(db: str) -> None:
    done = legatus("post", "--db", db, "--as", "antiochus", b"raise fleet in \xff levantine")
    assert done.returncode == 2
    assert "not UTF-8" in done.stderr.decode()


def test_refused_lines_exit_3_and_help_says_so(db: str) -> None:
    done = legatus("post", "--db", db, "--as", "scipio", "build temple in Latum")
    assert done.returncode == 3, done.stdout + done.stderr
    assert "did you mean Latium" in done.stdout.decode()
    helptext = legatus("post", "--help").stdout.decode()
    assert "3" in helptext and "refused" in helptext


def test_a_huge_unknown_name_is_quoted_short(db: str) -> None:
    name = "Z" * 1_000_000
    done = legatus("post", "--db", db, "--as", "scipio", "-", stdin=f"build temple in {name}".encode())
    out = done.stdout.decode()
    assert done.returncode == 3
    assert len(out) < 1000 and "…" in out, out[:300]
