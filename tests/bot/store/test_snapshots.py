"""The snapshot cache of a campaign's fold: used when sound, ignored when not, and never different from the log."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import Session

import bot.service.post_reading as legatus_module  # where the service folds a whole log
from bot.service.legatus import Legatus
from bot.store import fold_key, snapshots
from bot.store.snapshots import SnapshotRow
from engine import canonical
from tests.bot.store.databases import log_state
from tests.conftest import LOTTO


def play(service: Legatus) -> None:
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("ostia", "mare-nostrum", "gm", {"Seleucids": "antiochus", "Ptolemaics": "ptolemy"}).changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    assert service.post("antiochus", "build fortification in Syria\nraise fleet in levantine").ok
    # An undo refolds from the effective events the snapshot must carry.
    assert service.post("gm", "/gm undo wrong sea").ok
    assert service.post("antiochus", "pass").ok


def fresh(service: Legatus) -> Legatus:
    """What a new process sees: the same store, nothing folded in memory."""
    return Legatus(service.engine, data_dir=service.data_dir, clock=service.clock)


def snapshot(service: Legatus) -> SnapshotRow:
    with Session(service.engine) as session:
        row = session.get(SnapshotRow, 1)
        assert row is not None
        session.expunge(row)
        return row


def full_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the folds of a whole log the service makes from now on."""
    calls: list[int] = []
    real = legatus_module.replay

    def counting(ruleset: Any, events: Any) -> Any:
        calls.append(1)
        return real(ruleset, events)

    monkeypatch.setattr(legatus_module, "replay", counting)
    return calls


def same_as_the_log(service: Legatus) -> None:
    state = service.state("ostia")
    assert canonical.dumps(state) == canonical.dumps(log_state(service.export("ostia")))


def test_a_post_leaves_a_snapshot_of_its_fold(service: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 1)  # every post rewrites it
    play(service)
    row = snapshot(service)
    last = service.export("ostia").splitlines()[-1]
    assert row.seq == len(service.export("ostia").splitlines())
    assert f'"hash":"{row.head}"' in last


def test_the_snapshot_is_rewritten_only_when_the_log_is_far_ahead(service: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 4)
    play(service)
    first = snapshot(service)
    posts = ["build suburbs in Aegyptus", "pass"]
    seen = []
    for text_ in posts:
        assert service.post("ptolemy", text_).ok
        seen.append(snapshot(service).seq)
    logged = len(service.export("ostia").splitlines())
    # Never more than EVERY events behind the log, and not rewritten by every post.
    assert all(0 <= logged - seq for seq in seen) and logged - snapshot(service).seq < 4
    assert len({first.seq, *seen}) < 1 + len(posts)
    same_as_the_log(fresh(service))


def test_a_fresh_process_folds_only_the_events_after_the_snapshot(service: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    play(service)
    old = snapshot(service)
    assert service.post("ptolemy", "build suburbs in Aegyptus").ok
    assert service.post("ptolemy", "pass").ok
    assert service.post("gm", "/gm pass Macedonians").ok
    with Session(service.engine) as session:
        # Back to the snapshot of three posts ago: still sound, only behind the log.
        session.execute(text("UPDATE snapshot SET seq = :s, head = :h, body = :b WHERE campaign_id = 1"),
                        {"s": old.seq, "h": old.head, "b": old.body})
        session.commit()
    replays = full_replays(monkeypatch)
    reader = fresh(service)
    same_as_the_log(reader)
    assert replays == []
    # The fold from the snapshot goes on exactly like the one from the log.
    assert reader.post("gm", "/gm pass Romans").ok
    assert reader.state("ostia")["to_play"] == "Carthaginians"
    same_as_the_log(reader)


@pytest.mark.parametrize("damage", [
    "UPDATE snapshot SET body = X'00010203'",  # not a pickle at all
    "UPDATE snapshot SET body = substr(body, 1, length(body) / 2)",  # cut short
    "UPDATE snapshot SET head = 'f00d'",  # names an event that is not in this log
    "UPDATE snapshot SET seq = seq - 1",  # claims to end one event earlier than it does
    "UPDATE snapshot SET key = 'other rules'",  # made by other engine code or other rules data
])
def test_an_unsound_snapshot_is_ignored_and_the_log_folded(
    service: Legatus, monkeypatch: pytest.MonkeyPatch, damage: str,
) -> None:
    play(service)
    with Session(service.engine) as session:
        session.execute(text(damage))
        session.commit()
    replays = full_replays(monkeypatch)
    reader = fresh(service)
    same_as_the_log(reader)
    assert replays == [1]
    # The next post replaces the unsound snapshot with a sound one.
    assert reader.post("ptolemy", "build suburbs in Aegyptus").ok
    replays.clear()
    same_as_the_log(fresh(service))
    assert replays == []


def test_a_snapshot_of_another_pickled_object_is_ignored(service: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    import pickle

    play(service)
    with Session(service.engine) as session:
        session.execute(text("UPDATE snapshot SET body = :b"), {"b": pickle.dumps({"not": "a fold"})})
        session.commit()
    replays = full_replays(monkeypatch)
    same_as_the_log(fresh(service))
    assert replays == [1]


def test_the_key_changes_with_the_rules_data(service: Legatus, tmp_path: Path) -> None:
    import shutil

    from bot.store import fold_key
    from engine.rulesets import load_ruleset

    data = tmp_path / "data"
    shutil.copytree(service.data_dir, data)
    rules = load_ruleset("mare-nostrum", service.data_dir)
    before = snapshots.snapshot_key(rules, data)
    assert before == snapshots.snapshot_key(rules, data)
    (data / "rulesets" / "mare-nostrum.toml").write_text(
        (data / "rulesets" / "mare-nostrum.toml").read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    fold_key._keys.clear()
    assert snapshots.snapshot_key(rules, data) != before


def test_reading_the_state_writes_nothing(service: Legatus) -> None:
    play(service)
    with Session(service.engine) as session:
        session.execute(text("DELETE FROM snapshot"))
        session.commit()
    fresh(service).state("ostia")
    with Session(service.engine) as session:
        assert session.execute(text("SELECT count(*) FROM snapshot")).scalar() == 0


def test_a_fold_that_cannot_be_pickled_still_posts(service: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    play(service)

    def refuse(*_: Any, **__: Any) -> bytes:
        raise TypeError("cannot pickle '_thread.lock' object")

    monkeypatch.setattr(fold_key.pickle, "dumps", refuse)  # where both writers pickle the fold
    before = snapshot(service)
    assert service.post("ptolemy", "build suburbs in Aegyptus").ok
    # The post is in the log; the old snapshot stays, behind it, and a fresh process folds the rest.
    assert snapshot(service).seq == before.seq < len(service.export("ostia").splitlines())
    monkeypatch.undo()
    same_as_the_log(fresh(service))
