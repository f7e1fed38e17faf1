"""Named locks a bot process holds while it lives: released when it lets go, or by the system when it dies.

Several bot processes may share one database (shards, or an old and a new process during a deploy). A job that
claims work (a reminder, a timeout, a result post) holds the work's lock until it is done, so another process never
takes a claim that is still being worked on for an abandoned one; and a process that died (kill -9, a lost machine)
holds nothing any more, so its claims are taken over. No lease to renew, no clock to trust:

- PostgreSQL: session advisory locks (``pg_try_advisory_lock``) on one connection the process keeps for them; the
  server drops them when that connection ends, which the death of the process ends.
- SQLite (one machine by nature): POSIX record locks (``fcntl.lockf``) on one byte per name of ``<db>.locks``;
  the kernel drops them when the process exits.
- An in-memory database is one process's own: the in-process table below is enough.

Within the process a name is held once (record and advisory locks are per process or per session, so two
coroutines of one process would both "get" them); ``try_acquire`` never waits.
"""
from __future__ import annotations

import hashlib
import logging
import os
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

log = logging.getLogger("legatus.locks")


def lock_key(name: str) -> int:
    """A stable signed 64-bit number for ``name`` (PostgreSQL's advisory lock key space)."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big", signed=True)


class ProcessLocks:
    """The named locks of one database, for this process."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._held: set[str] = set()
        self._mutex = threading.Lock()
        self._connection: Connection | None = None
        self._schema = ""
        self._fd: int | None = None
        self.kind = "memory"
        if engine.dialect.name == "postgresql":
            self.kind = "postgresql"
        elif engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            self.kind = "file"
            self.path = Path(f"{Path(str(engine.url.database)).resolve()}.locks")

    def held(self) -> set[str]:
        with self._mutex:
            return set(self._held)

    def try_acquire(self, name: str) -> bool:
        """Take ``name`` if no process (this one included) holds it; never waits."""
        with self._mutex:
            if name in self._held:
                return False
            if not self._take(name):
                return False
            self._held.add(name)
            return True

    def release(self, name: str) -> None:
        with self._mutex:
            if name not in self._held:
                return
            self._held.discard(name)
            self._give(name)

    def close(self) -> None:
        """Let go of everything (a clean stop); a dead process needs no such call."""
        with self._mutex:
            for name in list(self._held):
                self._give(name)
            self._held.clear()
            if self._connection is not None:
                try:
                    self._connection.close()
                except DBAPIError:
                    pass
                self._connection = None
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    # --- the two system mechanisms --------------------------------------------------------------------------------

    def _take(self, name: str) -> bool:
        if self.kind == "postgresql":
            return bool(self._pg("SELECT pg_try_advisory_lock(:key)", name))
        if self.kind == "file":
            import fcntl

            try:
                fcntl.lockf(self._file(), fcntl.LOCK_EX | fcntl.LOCK_NB, 1, self._offset(name), os.SEEK_SET)
            except OSError:  # EACCES or EAGAIN: another process holds that byte
                return False
        return True

    def _give(self, name: str) -> None:
        if self.kind == "postgresql":
            try:
                self._pg("SELECT pg_advisory_unlock(:key)", name)
            except DBAPIError:  # the connection is gone, and the lock with it
                log.warning("lock %s: its connection was lost; the server has released it", name)
        elif self.kind == "file" and self._fd is not None:
            import fcntl

            fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, self._offset(name), os.SEEK_SET)

    def _pg(self, sql: str, name: str) -> Any:
        if self._connection is None or self._connection.closed or self._connection.invalidated:
            if self._held:
                # A new session holds none of the old one's locks: say so rather than pretend.
                log.warning("the lock connection was lost; locks %s are no longer held", sorted(self._held))
                self._held.clear()
            # Autocommit: advisory session locks live outside transactions, and an idle-in-transaction connection
            # would hold back the server's vacuum for as long as the bot runs.
            self._connection = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            # Advisory locks are the whole database's: two stores in two schemas of one database must not share them.
            self._schema = str(self._connection.execute(text("SELECT current_schema()")).scalar() or "")
        return self._connection.execute(text(sql), {"key": lock_key(f"{self._schema}/{name}")}).scalar()

    def _file(self) -> int:
        if self._fd is None:
            # One descriptor for the life of the process: closing any descriptor of the file would drop every
            # record lock the process holds on it (POSIX).
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        return self._fd

    @staticmethod
    def _offset(name: str) -> int:
        return lock_key(name) % (2**31 - 1)


_registry: dict[str, ProcessLocks] = {}
_registry_mutex = threading.Lock()


def process_locks(engine: Engine) -> ProcessLocks:
    """The one ProcessLocks of this process for ``engine``'s database (shared by every caller)."""
    url = engine.url.render_as_string(hide_password=False)
    with _registry_mutex:
        locks = _registry.get(url)
        if locks is None:
            locks = _registry[url] = ProcessLocks(engine)
        return locks
