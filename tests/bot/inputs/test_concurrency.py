"""Issue 12, item 5: 8 processes × 15 posts on one SQLite file: no internal error, no event lost or doubled, and
the log replays."""
from __future__ import annotations

import json
from pathlib import Path

from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset
from tests.bot.inputs.concurrent_posts import run, setup
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture: a SQLite file, and PostgreSQL when set)


def test_concurrent_posts_all_land_once(db_url: str) -> None:
    """On SQLite (one writer at a time, BEGIN IMMEDIATE) and on PostgreSQL (the unique (campaign, seq) constraint
    and the retry), as two or more bot processes sharing one server would."""
    db = db_url
    setup(db)
    service = Legatus(open_engine(db))
    before = len(service.export("c").splitlines())
    results = run(db, 8, 15)
    failed = [text for ok, text, _ in results if not ok]
    assert failed == [], failed[:3]
    lines = service.export("c").splitlines()
    events = [Event.from_dict(json.loads(line)) for line in lines]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    labels = [e.data.get("label") for e in events[before:] if "label" in e.data]
    assert sorted(labels) == sorted(f"w{n}p{i}" for n in range(8) for i in range(15))  # none lost, none doubled
    replay(load_ruleset("mare-nostrum", Path(__file__).resolve().parents[3] / "data"), events)


def test_direct_posts_and_bots_writing_together_lose_and_double_nothing(tmp_path: Path) -> None:
    """`legatus post` with no bot running (sqlite3, bot/service/direct_post.py) in 3 processes, and 3 processes
    posting through the service, on one SQLite file at once: each post lands once, in one unbroken chain."""
    db = tmp_path / "mixed.db"
    setup(db, randomness="lottery")
    service = Legatus(open_engine(db))
    before = len(service.export("c").splitlines())
    results = run(db, 6, 8, direct=3)
    failed = [text for ok, text, _ in results if not ok]
    assert failed == [], failed[:3]
    events = [Event.from_dict(json.loads(line)) for line in service.export("c").splitlines()]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    labels = [e.data.get("label") for e in events[before:] if "label" in e.data]
    assert sorted(labels) == sorted(f"w{n}p{i}" for n in range(6) for i in range(8))
    replay(load_ruleset("mare-nostrum", Path(__file__).resolve().parents[3] / "data"), events)  # the chain holds
