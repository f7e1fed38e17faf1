"""Faults of the database itself that a user can be told about plainly, on SQLite and PostgreSQL alike."""
from __future__ import annotations

DISK_FULL = ("The database's disk is full: this post was not saved and nothing was changed. Free some space where "
             "the database lives, then post again.")


def disk_full(exc: BaseException) -> bool:
    """SQLite's SQLITE_FULL ("database or disk is full"), PostgreSQL's 53100 disk_full (psycopg's DiskFull)."""
    orig = getattr(exc, "orig", exc)
    if getattr(orig, "sqlstate", None) == "53100":
        return True
    return getattr(orig, "sqlite_errorname", None) == "SQLITE_FULL" or "database or disk is full" in str(orig)
