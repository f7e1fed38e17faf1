"""`legatus post` with no bot serving the file: the post read and written by this process over Python's own sqlite3
(``bot/store/sqlite_post_store.py``), without importing SQLAlchemy, the service's store or alembic.

The same reading as every transport's (``bot/service/post_reading.py``), in one write transaction: the same events,
post record, sealed contents and snapshot as ``Legatus.post`` writes. Whatever it does not do itself gives ``None``
before anything is committed, and the caller posts through the service instead: a post that needs the deadline
tables (the GM's deadline tools, /status), settings, a typed draw or a reveal (``NeedsFullStore``), a database the
light path cannot use (another server, an older schema, busy, read-only), an unknown campaign, or an unexpected
failure (the service then answers it, logs it and says so without a traceback). So the answer a user sees never
depends on which path wrote it.
"""
from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.schedule.clock import Clock
from bot.service.data_dir import DATA_DIR
from bot.service.post_reading import PostReading, PostRequest, _Batch
from bot.service.replies import Reply
from bot.store.post_store import NeedsFullStore
from bot.store.sqlite_post_store import open_post_store
from engine.log import Folded
from engine.ruleset import Ruleset

log = logging.getLogger("legatus")


class DirectPoster(PostReading):
    """The reading of posts with the caches of one short process, and no SQLAlchemy engine behind it."""

    walks_cold_logs = False  # a walk of the whole chain per process would grow with the campaign (log_damage.py)

    def __init__(self, data_dir: Path = DATA_DIR, clock: Clock | None = None,
                 salt: Callable[[], str] | None = None) -> None:
        from bot.service.plugins import load_plugins

        load_plugins()
        self.data_dir = data_dir
        self.clock = clock or Clock()
        self._folds: dict[int, Folded] = {}
        self._rulesets: dict[str, Ruleset] = {}
        self._draws: dict[str, tuple[Any, str]] = {}
        self._summaries: dict[int, tuple[Any, Any]] = {}
        self.beacons: Callable[[int], Any] | None = None
        self.salt: Callable[[], str] = salt or (lambda: secrets.token_hex(16))

    @property
    def engine(self) -> Any:
        """What the service's deadline and settings commands write through: not here."""
        raise NeedsFullStore("this post needs the service's store")


def post_directly(db: str | os.PathLike[str] | None, author: str, text: str, campaign: str | None = None, *,
                  poster: DirectPoster | None = None) -> Reply | None:
    """The post applied and committed, and its answer; None when the service must take it (nothing was written)."""
    try:
        text.encode("utf-8"), author.encode("utf-8")
    except UnicodeEncodeError:
        return None  # the service says which character is wrong
    if "\x00" in text or "\x00" in author:
        return None  # SQLite would keep it: refused by the service, as on PostgreSQL
    store = open_post_store(db)
    if store is None:
        return None
    try:
        record = store.campaign(campaign)
        reading = poster or DirectPoster()
        reply = Reply()
        posting, _, post_row = reading._apply_post(store, PostRequest(author, text, campaign), record, _Batch(), reply)
        store.append(record.id, posting.new_events, post_row)
        store.commit()
    except NeedsFullStore:
        return None
    except Exception:  # the service answers it: the same words, its log, no traceback for the user
        log.debug("the direct post gave way to the service", exc_info=True)
        return None
    finally:
        store.close()
    reply.changed = bool(posting.new_events)
    reply.ping = reading._to_ping(posting) if posting.new_events else []
    return reply
