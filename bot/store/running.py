"""Who holds a SQLite store: a lock file beside it, kept fresh by a running bot, checked by `legatus restore`.

``legatus run`` (Discord or the console) writes ``<db>.running`` with its pid and host and touches it every
HEARTBEAT_SECONDS; a clean stop removes it. A file untouched for STALE_SECONDS is a bot that died (kill -9, a
power cut): it holds nothing. Replacing the store under a live bot would lose every post it writes after.
"""
from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

HEARTBEAT_SECONDS = 10.0
STALE_SECONDS = 60.0


def lock_path(db: Path) -> Path:
    return Path(f"{db}.running")


def holder(db: Path, now: float | None = None) -> str | None:
    """'pid N on HOST, heartbeat Ss ago' for a bot holding ``db``, or None if none does (or its heartbeat is stale)."""
    lock = lock_path(db)
    try:
        age = (time.time() if now is None else now) - lock.stat().st_mtime
        text = lock.read_text(encoding="utf-8", errors="replace").strip()
    except FileNotFoundError:
        return None
    if age > STALE_SECONDS:
        return None
    return f"{text[:80] or 'a bot'}, heartbeat {max(age, 0):.0f}s ago"


@contextlib.contextmanager
def running(db: Path | None) -> Iterator[None]:
    """Hold ``db`` (a SQLite file; None: nothing to hold, e.g. PostgreSQL) while the body runs."""
    if db is None:
        yield
        return
    lock = lock_path(db)
    lock.write_text(f"pid {os.getpid()} on {socket.gethostname()}\n", encoding="utf-8")
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(HEARTBEAT_SECONDS):
            with contextlib.suppress(OSError):
                os.utime(lock)

    thread = threading.Thread(target=beat, name="legatus-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=1)
        with contextlib.suppress(FileNotFoundError):
            lock.unlink()
