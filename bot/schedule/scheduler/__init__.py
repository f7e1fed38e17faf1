"""Deadlines, reminders and lottery fetches on a persistent apscheduler, safe across crashes and restarts.

The ``deadline`` table is the truth (bot/store/schedule_tables.py); a job only says when to look at a deadline
again. At start-up ``reconcile`` makes the jobs match the rows, and the rows match the campaigns' states (a crash
between a post's commit and its observer leaves a seat without a deadline; a post made with no scheduler
running leaves a stale one), so nothing depends on a job surviving. That is why the deadlines' jobs are kept in
memory (``MEMORY``), rebuilt from the table by ``reconcile`` at start and by the sweep once a minute (a deadline
another process made): every pass of a burst moves a deadline, and a row written to and deleted from apscheduler's
table for each was half the bot's time in a burst of posts. The other jobs (the lottery fetch and its retries, a
turn's results, resends of claimed messages) stay in the persistent job store: nothing else remembers them.

Jobs are module-level functions taking only ids, so the pickled job store survives refactors; they reach
the running app through a module-level registry (``install``), set at start-up. A job stored by a Legatus from
before this package was split names its function here (``bot.schedule.scheduler:fetch_lotto``): every job is
re-exported below, so such a row still runs.

The modules: ``app`` (the running app, the claims and the cross-process locks), ``deadline_jobs`` (reminders and
timeouts), ``message_jobs`` (results, notes, the lottery fetch, resends), ``reconciliation`` (the deadline table
and the jobs kept to the campaigns, at start-up and by the sweep), ``lifecycle`` (start, lease, standby, stop).

Times: every job is decided by the service's clock (``App.clock``: a test's or a replay's may lag the real one),
while a running apscheduler fires by the real clock; so a job is added at its delay from the service's now
(``bot.schedule.job_store.run_date``). Taken as is, a due time behind the real clock fired at once, and the job,
early by the service's clock, put itself back at that past moment (apscheduler then dropped it as still running).
A scheduler driven by hand (``run=False``, ``run_due``) keeps the service's times as they are.

The sessions that read then write while posts go on (the DeadlineKeeper, the start-up sync, recording a sent
message) take SQLite's write lock at their start (``writer``): a deferred read that turns into a write fails at
once when another writer came first. No job is added while such a session is open: the job store writes
through its own connection and would wait for the lock this session holds.

Idempotency: claim, then send, then record (at-least-once, never lost). A job first inserts its key in
``posted`` (bot/store/posted.py) with ``message_id`` NULL ("sending") in the same transaction that marks the
deadline reminded or done; it then sends, then fills ``message_id``. A key with a message id means skip; a
key still "sending" at start-up means the process died mid-send, and the job runs again and resends under
the same key. We chose this over record-then-post-without-resume because a lost timeout or reminder silently
stalls a months-long game, while a duplicate is harmless; and the duplicate window (between Discord
accepting the message and our commit) is closed in practice by sending the key as a Discord nonce, which
Discord enforces for a few minutes. Game-state actions (the timeout's /gm pass) are made idempotent by the
state itself: a seat is passed only while it is still the one to act in the deadline's turn.
"""
from __future__ import annotations

from collections.abc import Callable

# Test seam for the crash test: called with "claimed", "sent", "recorded" around every post (``app._checkpoint``).
crash_hook: Callable[[str], None] | None = None

# The transports, the other jobs (bot/schedule/beacon_pump.py) and the tests name these from here.
from bot.schedule.job_store import JOB_DEFAULTS, MEMORY, lease_name, make_scheduler  # noqa: E402
from bot.schedule.posting import NotPosted, Poster, RecordingPoster, Sent  # noqa: E402
from bot.schedule.scheduler.app import (  # noqa: E402
    App, LOCKED_RETRY, LOTTO_JOB, _add, _campaign_locked, _exclusive, _send, current_app, install, installed,
    work_lock,
)
from bot.schedule.scheduler.deadline_jobs import (  # noqa: E402
    _key, act_on_deadline, deadline_job_id, remind, timeout_line,
)
from bot.schedule.scheduler.lifecycle import (  # noqa: E402
    DRAIN_SECONDS, STOP_SIGNALS, release_lease, start_scheduler, stop_scheduler,
)
from bot.schedule.scheduler.message_jobs import (  # noqa: E402
    fetch_lotto, open_turn_thread, post_results, resume_unsent, schedule_next_fetch, schedule_turn_thread, tell_gm,
)
from bot.schedule.scheduler.reconciliation import (  # noqa: E402
    SWEEP_JOB, SWEEP_SECONDS, DeadlineKeeper, reconcile, run_due, sweep, sync_deadlines,
)
from bot.service.deadlines import acting_of  # noqa: E402
from bot.store.db import writer  # noqa: E402
from bot.store.posted import claim  # noqa: E402

__all__ = [
    "App", "DRAIN_SECONDS", "DeadlineKeeper", "JOB_DEFAULTS", "LOCKED_RETRY", "LOTTO_JOB", "MEMORY", "NotPosted",
    "Poster", "RecordingPoster", "STOP_SIGNALS", "SWEEP_JOB", "SWEEP_SECONDS", "Sent", "_add", "_campaign_locked",
    "_exclusive", "_key", "_send", "act_on_deadline", "acting_of", "claim", "crash_hook", "current_app",
    "deadline_job_id", "fetch_lotto", "install", "installed", "lease_name", "make_scheduler", "open_turn_thread",
    "post_results", "reconcile", "release_lease", "remind", "resume_unsent", "run_due", "schedule_next_fetch",
    "schedule_turn_thread", "start_scheduler", "stop_scheduler", "sweep", "sync_deadlines", "tell_gm", "timeout_line",
    "work_lock", "writer",
]
