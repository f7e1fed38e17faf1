"""N processes posting to one SQLite file at once: the load of issue 12's concurrency item (test and bench).

Each worker opens its own engine (as a separate `legatus post` would) and posts GM rolls, which append an
event each whatever the turn; it returns, per post, whether it was applied and how long it took.
"""
from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

from bot.schedule.clock import FixedClock


def setup(db: Path | str, randomness: str = "commit-reveal") -> None:
    from bot.service.legatus import Legatus
    from bot.store.db import open_engine
    from bot.store.draws import import_archive
    from sqlmodel import Session
    from tests.conftest import LOTTO, PLAYERS

    service = Legatus(open_engine(db))
    # Commit-reveal: every roll gets its number at once, so no post waits for lottery slots running out.
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), randomness=randomness).changed
    with Session(service.engine) as session:
        import_archive(session, (LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "jan")
    assert service.post("gm", "/turn open 2023-01-03").ok


def worker(args: tuple[str, int, int]) -> list[tuple[bool, str, float]]:
    from bot.service.legatus import Legatus
    from bot.store.db import open_engine

    db, number, posts = args
    service = Legatus(open_engine(db))
    results = []
    for i in range(posts):
        started = time.perf_counter()
        reply = service.post("gm", f"/roll 1d6 w{number}p{i}")
        results.append((reply.ok and reply.changed, reply.render(), time.perf_counter() - started))
    return results


def direct_worker(args: tuple[str, int, int]) -> list[tuple[bool, str, float]]:
    """As ``worker``, but as `legatus post` with no bot running: bot/service/direct_post.py, over sqlite3 (the
    service only for a post it leaves to it)."""
    from bot.service.direct_post import post_directly

    db, number, posts = args
    results = []
    for i in range(posts):
        started = time.perf_counter()
        text = f"/roll 1d6 w{number}p{i}"
        reply = post_directly(db, "gm", text)
        if reply is None:
            results.append((False, f"left to the service: {text}", time.perf_counter() - started))
            continue
        results.append((reply.ok and reply.changed, reply.render(), time.perf_counter() - started))
    return results


def run(db: Path | str, processes: int, posts: int, direct: int = 0) -> list[tuple[bool, str, float]]:
    """``direct`` of the ``processes`` write as `legatus post` with no bot (``direct_worker``), the others as bots."""
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        chunks = pool.map(_either, [(str(db), n, posts, n < direct) for n in range(processes)])
    return [r for chunk in chunks for r in chunk]


def _either(args: tuple[str, int, int, bool]) -> list[tuple[bool, str, float]]:
    db, number, posts, direct = args
    return (direct_worker if direct else worker)((db, number, posts))


__all__ = ["FixedClock", "run", "setup"]
