"""What a short `legatus` command loads and locks: only what it needs, and no write lock for a command that reads.

Each command runs through the real entry point in a process of its own, which then reports the modules it
loaded. The read-only ones run while another connection holds the database's write lock (as the bot does
mid-post): they must neither wait for it nor need it.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import LOTTO, PLAYERS

REPO = Path(__file__).resolve().parents[3]
# Never on the path of a command that reads or posts: the network clients, Discord, the scheduler, alembic
# (the schema is already at its newest revision), and the imaging library (except for the map and the charts).
HEAVY = {"alembic", "aiohttp", "apscheduler", "discord", "requests", "urllib3", "PIL"}
PROBE = """
import json, sys
from bot.cli.main import main
code = main(sys.argv[1:])
print("LOADED", json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from bot.service.legatus import Legatus
    from bot.store.db import open_engine

    path = tmp_path_factory.mktemp("startup") / "camp.db"
    service = Legatus(open_engine(path))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("mare-nostrum", "mare-nostrum", "gm", dict(PLAYERS)).changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    service.engine.dispose()
    return path


def run(db: Path, *args: str, locked: bool) -> tuple[int, set[str], str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    command = [sys.executable, "-c", PROBE, args[0], "--db", str(db), *args[1:]]
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        if locked:
            holder.execute("BEGIN IMMEDIATE")
        done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    finally:
        if locked:
            holder.execute("ROLLBACK")
        holder.close()
    assert "LOADED " in done.stdout, done.stderr
    report = json.loads(done.stdout.rsplit("LOADED ", 1)[1])
    return report["code"], set(report["modules"]), done.stderr


# A SQLite store at the newest schema is read with Python's own sqlite3 (bot/store/reader.py): no ORM either.
ORM = {"sqlalchemy", "sqlmodel", "pydantic"}


@pytest.mark.parametrize("args", [("state",), ("state", "--json"), ("ledger",), ("export", "--out", "{tmp}/x.log")])
def test_a_reading_command_loads_nothing_heavy_and_takes_no_write_lock(db: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    code, modules, stderr = run(db, *(a.format(tmp=tmp_path) for a in args), locked=True)
    assert code == 0, stderr
    assert modules & HEAVY == set()
    if args[0] in ("state", "ledger"):
        assert modules & ORM == set()


def test_the_map_loads_only_the_imaging_library_and_takes_no_write_lock(db: Path, tmp_path: Path) -> None:
    code, modules, stderr = run(db, "map", "--out", str(tmp_path / "map.png"), locked=True)
    assert code == 0, stderr
    assert (tmp_path / "map.png").stat().st_size > 0
    assert modules & (HEAVY | ORM) == {"PIL"}


@pytest.mark.parametrize("text", ["what a nice day", "build fortification in Syria"])
def test_a_post_with_no_bot_running_loads_nothing_heavy_nor_the_orm(db: Path, text: str) -> None:
    """Written by the command itself over sqlite3 (bot/service/direct_post.py): table talk, and an order applied."""
    code, modules, stderr = run(db, "post", "--as", "antiochus", text, locked=False)
    assert code == 0, stderr
    assert modules & (HEAVY | ORM) == set()
    with sqlite3.connect(db) as connection:
        (answer,) = connection.execute("SELECT answer FROM post WHERE text = ? ORDER BY id DESC", (text,)).fetchone()
    assert answer.startswith("✓ line 1") if text.startswith("build") else "No order found" in answer


def test_a_post_only_the_service_can_make_still_answers_from_the_command_line(db: Path) -> None:
    code, modules, stderr = run(db, "post", "--as", "gm", "/gm extend Seleucids 12", locked=False)
    assert code in (0, 3), stderr
    assert "sqlalchemy" in modules  # the service took it (deadlines are its tables)
    with sqlite3.connect(db) as connection:
        (answer,) = connection.execute("SELECT answer FROM post ORDER BY id DESC").fetchone()
    assert "gm extend" in answer and "internal error" not in answer


def test_an_area_map_over_the_coast_loads_neither_the_grid_nor_the_diagram(tmp_path: Path) -> None:
    """A fresh `legatus map` of Mediterranean Empires (drawn over its coastline) imports only what that drawing
    needs: not the grid's layout, not the diagram's (nor the statistics module it takes), nor argparse's parsers
    of the other commands (bot/cli/one_command.py)."""
    db = tmp_path / "me.db"
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env["LEGATUS_CACHE_DIR"] = str(tmp_path / "cache")
    made = subprocess.run([sys.executable, "-m", "bot.cli", "new", "--db", str(db), "--ruleset", "mediterranean-empires",
                           "--player", "Player A=ann", "--player", "Player B=bob"],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert made.returncode == 0, made.stderr
    probe = PROBE.replace('m.split(".")[0] for m in sys.modules', "m for m in sys.modules")
    done = subprocess.run([sys.executable, "-c", probe, "map", "--db", str(db), "--out", str(tmp_path / "me.png")],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    report = json.loads(done.stdout.rsplit("LOADED ", 1)[1])
    assert report["code"] == 0, done.stderr
    modules = set(report["modules"])
    assert {"bot.render.coast_layout", "bot.render.map_png", "bot.render.png_file"} <= modules
    assert modules & {"bot.render.grid_layout", "bot.render.diagram", "statistics", "bot.render.map_svg"} == set()
