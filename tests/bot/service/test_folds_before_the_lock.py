"""Posts on a SQLite file shared by several processes hold its write lock only for their own work (the flake of
tests/bot/inputs/test_concurrency.py: eight processes' first posts each folded the campaign and imported drand's
HTTP client inside the lock, 0.4 to 0.7 s each, seconds on a loaded machine, so the last waited past SQLite's
5 s busy timeout; and every retry threw the warm folds away, so each retry was such a long hold again).

A process's first post folds the campaign (and makes the beacon source of a campaign with a drand chain) before it
takes the lock; a post that met another writer keeps its folds and folds that writer's events onto them."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from bot.service import legatus as service_module
from bot.service.legatus import Legatus, PostRequest, _Conflict
from bot.store.db import IMMEDIATE, open_engine
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset
from tests.bot.inputs.concurrent_posts import setup

DATA = Path(__file__).resolve().parents[3] / "data"


def test_a_first_post_folds_its_campaign_and_makes_its_beacon_source_before_the_write_lock(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    setup(db)
    service = Legatus(open_engine(db))
    assert service._folds == {} and service.beacons is None
    at_lock: list[tuple[bool, bool]] = []

    def begun(connection: Any) -> None:
        if connection.get_execution_options().get(IMMEDIATE):
            at_lock.append((bool(service._folds), service.beacons is not None))

    event.listen(service.engine, "begin", begun)
    assert service.post("gm", "/roll 1d6 first").changed
    assert at_lock == [(True, True)]  # one write transaction, which found both ready


def test_a_post_that_met_another_writer_keeps_its_folds_and_reads_that_writers_events(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "c.db"
    setup(db)
    mine, theirs = Legatus(open_engine(db)), Legatus(open_engine(db))
    assert mine.post("gm", "/roll 1d6 mine-1").changed
    (campaign_id,) = mine._folds
    warm = mine._folds[campaign_id]
    batch = Legatus._post_batch
    seen: list[Any] = []

    def first_meets_another_writer(self: Legatus, requests: Any) -> Any:
        if self is not mine:
            return batch(self, requests)
        seen.append(self._folds.get(campaign_id))
        if len(seen) == 1:
            assert theirs.post("gm", "/roll 1d6 theirs").changed  # the other writer came first
            raise _Conflict("database is locked")
        return batch(self, requests)

    monkeypatch.setattr(service_module.Legatus, "_post_batch", first_meets_another_writer)
    (reply,) = mine.post_many([PostRequest("gm", "/roll 1d6 mine-2", None, None)])
    assert reply.ok and reply.changed
    assert seen == [warm, warm]  # the retry started from the same fold: nothing folded again from the start
    events = [Event.from_dict(json.loads(line)) for line in mine.export("c").splitlines()]
    labels = [e.data.get("label") for e in events if "label" in e.data]
    assert labels[-3:] == ["mine-1", "theirs", "mine-2"]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    folded = replay(load_ruleset("mare-nostrum", DATA), events)
    assert folded.last_seq == mine._folds[campaign_id].last_seq == len(events)
    assert folded.head == mine._folds[campaign_id].head
