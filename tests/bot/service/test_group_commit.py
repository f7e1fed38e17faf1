"""Group commit: posts applied together in one transaction (Legatus.post_many, bot/service/post_queue.py), each
isolated in its SAVEPOINT. One failing post among many loses or half-applies nothing of the others; a retried
transaction doubles nothing; the log still replays to the same state."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from bot.service import legatus as service_module
from bot.service.legatus import INTERNAL_ERROR, Legatus, PostRequest
from bot.service.post_queue import PostQueue
from bot.schedule.clock import FixedClock
from bot.store.campaigns import EventRow, PostRow
from bot.store.db import after_outer_commit, open_engine, writer
from bot.store.schedule_tables import save_settings, settings_for
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture: a SQLite file, and PostgreSQL when set)
from tests.conftest import LOTTO, PLAYERS

DATA = Path(__file__).resolve().parents[3] / "data"
ORDER = ["antiochus", "ptolemy", "philip", "scipio", "hanno", "brennus"]  # the order of play on 2023-01-03


@pytest.fixture
def three(db_url: str) -> Legatus:
    """Three campaigns at turn 1, the Seleucids (antiochus) to play in each: on a SQLite file, and on PostgreSQL
    when a server is given (tests/bot/store/databases.py)."""
    service = Legatus(open_engine(db_url), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    for name in ("a", "b", "c"):
        service.create_campaign(name, "mare-nostrum", "gm", dict(PLAYERS))
        assert service.post("gm", "/turn open 2023-01-03", name).ok
    return service


def rows(service: Legatus, campaign: str) -> tuple[list[Event], list[PostRow]]:
    with Session(service.engine) as session:
        campaign_id = service._campaign(session, campaign).id
        events = session.exec(select(EventRow).where(EventRow.campaign_id == campaign_id).order_by(EventRow.seq)).all()
        posts = session.exec(select(PostRow).where(PostRow.campaign_id == campaign_id).order_by(PostRow.id)).all()
        return [Event.from_dict(json.loads(e.body)) for e in events], list(posts)


def replays_to_the_state(service: Legatus, campaign: str) -> None:
    """The committed log, folded by a fresh process, gives the state the running service holds."""
    events, _ = rows(service, campaign)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    ruleset = load_ruleset("mare-nostrum", DATA)
    fresh = Legatus(service.engine, clock=service.clock)
    assert ruleset.public_view(replay(ruleset, events).state) == fresh.state(campaign) == service.state(campaign)


@pytest.fixture
def breaks_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """Posts whose text is in the set fail inside the service after their events were applied and a setting was
    written in the transaction: an internal error half-way through, as a bug would make."""
    texts: set[str] = set()
    original = Legatus._read

    def read(self: Legatus, posting: Any, text: str, reply: Any) -> None:
        original(self, posting, text.replace(" boom", ""), reply)
        if text in texts:
            save_settings(self.engine, posting.campaign.id, session=posting.session, player_hours=99)
            raise RuntimeError("a bug half-way through a post")

    monkeypatch.setattr(Legatus, "_read", read)
    yield texts


def test_one_failing_post_among_many_loses_nothing_of_the_others(three: Legatus, breaks_on: set[str]) -> None:
    breaks_on.add("pass boom")
    before = {name: rows(three, name) for name in ("a", "b", "c")}
    requests = [
        PostRequest("antiochus", "pass", "a"),
        PostRequest("antiochus", "pass boom", "b"),  # fails after applying its pass and writing a setting
        PostRequest("antiochus", "pass", "c"),
        PostRequest("ptolemy", "pass", "a"),  # sees the pass before it, in the same transaction
        PostRequest("ptolemy", "pass", "b"),  # refused: the failed pass of antiochus left nothing behind
        PostRequest("nobody", "pass", "nowhere"),  # no such campaign
        PostRequest("philip", "pass", "a"),
    ]
    replies = three.post_many(requests)
    applied = [r.ok and r.changed for r in replies]
    assert applied == [True, False, True, True, False, False, True], [r.render() for r in replies]
    assert replies[1].render() == INTERNAL_ERROR and not replies[1].answers
    assert "not your turn: the Seleucids (antiochus) are playing now" in replies[4].render()
    assert "no campaign called 'nowhere'" in replies[5].render()
    assert [three.state(n)["to_play"] for n in ("a", "b", "c")] == ["Romans", "Seleucids", "Ptolemaics"]
    for name, passes in (("a", 3), ("b", 0), ("c", 1)):
        events, posts = rows(three, name)
        old_events, old_posts = before[name]
        new = events[len(old_events):]
        assert [e.kind for e in new].count("order") == passes, name
        # Every post answered is recorded once (the refused one too); the failed one not at all.
        assert [p.text for p in posts[len(old_posts):]] == {"a": ["pass"] * 3, "b": ["pass"], "c": ["pass"]}[name]
        replays_to_the_state(three, name)
    with Session(three.engine) as session:  # the failed post's setting went with it
        assert settings_for(session, three._campaign(session, "b").id).player_hours != 99


def test_a_post_after_a_failed_one_of_its_campaign_reads_the_state_before_it(three: Legatus, breaks_on: set[str]) -> None:
    breaks_on.add("pass boom")
    replies = three.post_many([PostRequest("antiochus", "pass boom", "a"), PostRequest("antiochus", "pass", "a"),
                               PostRequest("ptolemy", "pass", "a")])
    assert [r.ok and r.changed for r in replies] == [False, True, True]
    assert replies[0].render() == INTERNAL_ERROR
    assert three.state("a")["to_play"] == "Macedonians"
    replays_to_the_state(three, "a")


def test_a_transaction_that_meets_another_writer_is_applied_once_on_retry(three: Legatus,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch's rows are written, then the database says it is busy: nothing was committed, the posts are read
    again on the log and written once."""
    original = service_module.insert_rows
    failures = [1]

    def busy_once(session: Any, events: Any, posts: Any) -> None:
        original(session, events, posts)
        if failures:
            failures.pop()
            raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(service_module, "insert_rows", busy_once)
    before = {name: rows(three, name) for name in ("a", "b")}
    replies = three.post_many([PostRequest(p, "pass", n) for p in ORDER[:3] for n in ("a", "b")])
    assert all(r.ok and r.changed for r in replies) and not failures
    for name in ("a", "b"):
        events, posts = rows(three, name)
        assert len(posts) - len(before[name][1]) == 3
        assert [e.data.get("order", {}).get("kind") for e in events[len(before[name][0]):]].count("pass") == 3
        assert three.state(name)["to_play"] == "Romans"
        replays_to_the_state(three, name)


def busy_writer(posts: PostQueue, gate: threading.Event) -> Future[Any]:
    """Hold the writer thread until ``gate`` is set, and return only once it is held: a writer that had not yet taken
    the holding call would take it in one round with whatever was queued meanwhile (a race a loaded machine lost)."""
    holding = threading.Event()

    def hold() -> bool:
        holding.set()
        return gate.wait(10)

    held = posts.call(hold)
    assert holding.wait(10), "the writer never took the holding call"
    return held


def test_the_queue_applies_posts_waiting_together_in_one_transaction_in_their_order(three: Legatus) -> None:
    posts = PostQueue(three)
    gate = threading.Event()
    held = busy_writer(posts, gate)  # the writer is busy: the posts below queue up meanwhile
    futures: list[Future[Any]] = [posts.submit(player, "pass", name) for player in ORDER for name in ("a", "b", "c")]
    rounds = posts.rounds
    gate.set()
    assert held.result(10) is True
    replies = [f.result(30) for f in futures]
    posts.close()
    assert all(r.ok and r.changed for r in replies), [r.render() for r in replies if not r.ok]
    assert posts.rounds == rounds + 1 and posts.largest == len(futures)  # one transaction for the 18 posts
    for name in ("a", "b", "c"):
        assert three.state(name)["phase"] == "battles"  # every nation passed, in the order of play
        replays_to_the_state(three, name)


def test_bookkeeping_writes_queued_between_posts_share_one_call_and_leave_the_posts_one_round(three: Legatus) -> None:
    posts = PostQueue(three)
    gate = threading.Event()
    held = busy_writer(posts, gate)
    calls: list[list[int]] = []

    def record(items: list[int]) -> list[int]:
        calls.append(list(items))
        return [i * 10 for i in items]

    def broken(items: list[int]) -> list[int]:
        raise ValueError("a bug in a bookkeeping write")

    futures: list[Future[Any]] = []
    marks: list[Future[Any]] = []
    failing: list[Future[Any]] = []
    for k, player in enumerate(ORDER):
        futures.append(posts.submit(player, "pass", "a"))
        marks.append(posts.call_many(record, k))
        failing.append(posts.call_many(broken, k))
    rounds = posts.rounds
    gate.set()
    assert held.result(10) is True
    replies = [f.result(30) for f in futures]
    assert [m.result(10) for m in marks] == [k * 10 for k in range(len(ORDER))]
    for f in failing:  # each waiter is told of its function's failure; the posts and the other writes stand
        with pytest.raises(ValueError, match="a bug in a bookkeeping write"):
            f.result(10)
    posts.close()
    assert all(r.ok and r.changed for r in replies), [r.render() for r in replies if not r.ok]
    assert calls == [list(range(len(ORDER)))]  # one call, the items in their order
    assert posts.rounds == rounds + 1 and posts.largest == len(ORDER)  # the writes did not cut the posts' round
    assert three.state("a")["phase"] == "battles"


def test_heads_ups_claimed_together_are_each_claimed_once_and_only_if_on(three: Legatus) -> None:
    from bot.service.heads_up import HeadsUp, claim_heads_ups, heads_ups_sent
    from bot.store.player_settings import HEADS_UP, save_setting
    from bot.store.posted import find

    with Session(three.engine) as session:
        campaign_id = three._campaign(session, "a").id
        save_setting(session, campaign_id, "philip", HEADS_UP, "off")
        session.commit()
    first = HeadsUp(campaign_id, 1, "Turn 1", "Seleucids", "Ptolemaics", "ptolemy")
    off = HeadsUp(campaign_id, 1, "Turn 1", "Ptolemaics", "Macedonians", "philip")
    assert claim_heads_ups(three.engine, [first, off, first]) == [True, False, False]
    assert claim_heads_ups(three.engine, [first]) == [False]
    heads_ups_sent(three.engine, [(first, "111", "222")])
    with Session(three.engine) as session:
        row = find(session, first.key)
        assert row is not None and (row.message_id, row.channel_id) == ("111", "222")
        assert find(session, off.key) is None


def test_a_deadline_moved_in_a_rolled_back_post_is_never_announced(three: Legatus) -> None:
    """after_outer_commit: told once the outer transaction commits; never for a savepoint rolled back, nor when the
    whole transaction is."""
    told: list[str] = []
    with Session(writer(three.engine)) as session:
        with session.begin_nested():
            after_outer_commit(session, lambda: told.append("kept"))
        try:
            with session.begin_nested():
                after_outer_commit(session, lambda: told.append("rolled back"))
                raise RuntimeError
        except RuntimeError:
            pass
        with session.begin_nested():  # a later savepoint released: the post is still not committed
            pass
        assert told == []
        session.commit()
    assert told == ["kept"]
    with Session(writer(three.engine)) as session:
        with session.begin_nested():
            after_outer_commit(session, lambda: told.append("outer rolled back"))
        session.rollback()
    assert told == ["kept"]


def _deadlines_after_passes(db: Path, together: bool) -> tuple[list[tuple[Any, ...]], list[str]]:
    """A live campaign at its first turn; the first three nations pass, in one transaction or one post each. The
    deadline rows and the scheduler's deadline jobs afterwards."""
    import asyncio

    from bot.schedule import scheduler as S
    from bot.store.schedule_tables import DeadlineRow
    from tests.bot.schedule.scheduler_drive import START, fake_fetch

    async def main() -> tuple[list[tuple[Any, ...]], list[str]]:
        clock = FixedClock(START)
        service = Legatus(open_engine(db), clock=clock)
        service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=fake_fetch, run=False)
        try:
            assert service.post("gm", "/turn open").ok
            await S.run_due(scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=timezone.utc), clock)
            order = service.state()["order_of_play"]
            requests = [PostRequest(PLAYERS[nation], "pass") for nation in order[:3]]
            replies = service.post_many(requests) if together else [service.post(r.author, r.text) for r in requests]
            assert all(r.ok and r.changed for r in replies), [r.render() for r in replies]
            assert service.state()["to_play"] == order[3]
            with Session(service.engine) as session:
                rows = [(d.id, d.seat, d.turn, d.state, d.due_at, d.remind_at) for d in session.exec(select(DeadlineRow))]
            jobs = sorted(j.id for j in scheduler.get_jobs() if j.id.startswith("deadline-"))  # type: ignore[attr-defined]
            return rows, jobs
        finally:
            scheduler.shutdown(wait=False)  # type: ignore[attr-defined]
            S.install(None)

    return asyncio.run(main())


def test_deadlines_moved_by_posts_together_are_those_moved_one_by_one(tmp_path: Path) -> None:
    one_by_one = _deadlines_after_passes(tmp_path / "single.db", together=False)
    together = _deadlines_after_passes(tmp_path / "together.db", together=True)
    assert together == one_by_one
    rows, jobs = together
    live = [r for r in rows if r[3] not in ("cancelled", "done")]
    assert len(live) == 1 and jobs == [f"deadline-{live[0][0]}"]  # only the nation now playing has a running one
