"""Issue 23, graceful stop of the offline console (`legatus run` with no DISCORD_TOKEN, bot/console/offline.py).

SIGTERM or SIGINT while `legatus post` commands are being served: each one taken is applied and answered, none is
left without an answer (BotDidNotAnswer), the scheduler is stopped, and the process exits 0 at once although its
terminal (here a pipe nobody writes to) still waits for a line.
"""
from __future__ import annotations

import json
import signal
import subprocess
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.cli.post_client import BotDidNotAnswer, Served, post_through_bot
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.cli.test_local_posts import campaign_db, runtime, start_bot  # noqa: F401  (runtime: a fixture)

POSTS = 6


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_signal_lets_the_posts_being_served_finish_and_exits_0(sig: int, tmp_path: Path,
                                                                     runtime: Path) -> None:  # noqa: F811
    db = campaign_db(tmp_path / "camp.db")
    bot = start_bot(db)
    try:
        opened = post_through_bot(db, "gm", "/turn open 2023-01-03", "c")
        assert opened is not None and opened.outcome == "ok", opened
        before = _rolls(db)
        with ThreadPoolExecutor(POSTS) as pool:
            # Six posts at once (the GM's rolls, each applied in whatever order they come); the stop comes as soon
            # as the first is answered, the others still being served.
            futures = [pool.submit(post_through_bot, db, "gm", f"/roll 1d6 levy {i}", "c") for i in range(POSTS)]
            while not any(f.done() for f in futures):
                time.sleep(0.005)
            bot.send_signal(sig)
            served = [_outcome(f) for f in futures]
        # A stop held by the unread terminal never ends: communicate's timeout fails the test then.
        out, _ = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
    assert bot.returncode == 0, out
    assert "stopping: no new line or job is taken" in out and "Traceback" not in out, out
    # Nothing to wait for but the posts: the stop ended within its bound (the process says when it reached it), the
    # unread terminal holding nothing; a wall-clock bound here failed on a loaded machine.
    assert "cut by the stop" not in out, out
    # Each post the console took was applied and answered. One it no longer took was neither: its socket was closed
    # (post_through_bot gives None, and `legatus post` writes it itself), or its connection was still in the
    # socket's queue, never accepted, when the socket closed (reset: `legatus post` says it may have been applied
    # and to check; it was not).
    answered = [s for s in served if s is not None and not isinstance(s, str)]
    assert answered and all(s.outcome == "ok" for s in answered), served
    assert all("ConnectionResetError" in s for s in served if isinstance(s, str)), served
    assert _rolls(db) - before == len(answered)


def _outcome(future: Future[Served | None]) -> Served | str | None:
    """The bot's answer, None when no bot took the connection, or why it did not answer."""
    try:
        return future.result(timeout=60)
    except BotDidNotAnswer as exc:
        return str(exc)


def _rolls(db: Path) -> int:
    """The GM rolls in the campaign's stored log."""
    return sum(json.loads(line)["kind"] == "roll.requested" for line in Legatus(open_engine(db)).export("c").splitlines())
