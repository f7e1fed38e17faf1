"""What a cached fold (a snapshot) depends on besides the log, as one digest: the engine's code, the ruleset's own
code, the rules data and the snapshot format. Kept apart from the snapshot table so that a read-only process
(``bot/store/reader.py``) can check a snapshot without importing SQLAlchemy."""
from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from bot.store.at_rest import open_snapshot, seal_snapshot
from engine.log import Folded
from engine.ruleset import rules_digest

log = logging.getLogger("legatus.snapshots")
ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"
# Bump when the body's layout changes; old snapshots are then ignored and replaced at the next post.
# 2: the pickle encrypted and authenticated at rest (bot/store/at_rest.py).
FORMAT = 2
# How far the log may run ahead of a sound snapshot before a post rewrites it (bot/store/snapshots.py).
EVERY = 64
_keys: dict[tuple[int, Path], str] = {}


def _hash_tree(digest: Any, folder: Path, suffix: str) -> None:
    """Every file under ``folder`` whose name ends in ``suffix`` ("" for all), outside ``__pycache__``: its path
    relative to ``folder``, then its bytes, in the order of the paths' parts (as ``sorted(folder.rglob(...))``
    gave them, so the digest is the one it was). os.walk, not Path.rglob: a fifth of the time."""
    found: list[tuple[str, ...]] = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        parts = Path(top).relative_to(folder).parts
        found.extend((*parts, name) for name in files if name.endswith(suffix))
    for parts in sorted(found):
        path = os.path.join(folder, *parts)
        if os.path.isfile(path):
            digest.update(os.sep.join(parts).encode())
            with open(path, "rb") as file:
                digest.update(file.read())


def snapshot_key(ruleset: Any, data_dir: Path) -> str:
    """A digest of everything a fold depends on besides the log: the engine's code, the ruleset's own code
    (a game registered from elsewhere), the rules data and the snapshot format. About half a megabyte read
    once per process; a snapshot made before any of them changed is ignored."""
    cache = (id(ruleset), data_dir)
    if cache in _keys:
        return _keys[cache]
    digest = hashlib.sha256(f"legatus-snapshot/{FORMAT}/{sys.version_info[:2]}".encode())
    digest.update(rules_digest(ruleset).encode())
    _hash_tree(digest, ENGINE_DIR, ".py")
    module = sys.modules.get(type(ruleset).__module__)
    source = Path(getattr(module, "__file__", "") or ENGINE_DIR).resolve().parent
    if ENGINE_DIR not in (source, *source.parents):
        _hash_tree(digest, source, ".py")
    if data_dir.is_dir():
        _hash_tree(digest, data_dir, "")
    _keys[cache] = digest.hexdigest()
    return _keys[cache]


def sound_fold(seq: int, head: str, stored_key: str, body: bytes, key: str, event_at_seq: str | None,
               campaign_id: int) -> Folded | None:
    """The fold a stored snapshot holds, if it is sound: made by this code and rules (``key``), ending at an event
    the log holds with the same hash (``event_at_seq``: that event's stored body), and readable; else None."""
    if stored_key != key:
        return None
    try:
        if event_at_seq is None or json.loads(event_at_seq).get("hash") != head:
            return None  # the log does not hold the event the snapshot ends at: another log, or a restored one
        plain = open_snapshot(campaign_id, seq, head, stored_key, body)
        if plain is None:  # not written by this bot for this place: never unpickled
            log.warning("the snapshot of campaign %s is not one this bot sealed; folding the whole log", campaign_id)
            return None
        folded = pickle.loads(plain)
    except Exception:  # a cache that cannot be read is no cache: the log is folded instead
        log.warning("the snapshot of campaign %s is unreadable; folding the whole log", campaign_id, exc_info=True)
        return None
    if not isinstance(folded, Folded) or folded.last_seq != seq or folded.head != head:
        return None
    return folded


def snapshot_body(campaign_id: int, key: str, folded: Folded) -> bytes | None:
    """What the snapshot table keeps of a fold: its pickle, encrypted and authenticated; None when it cannot be
    cached (a game keeping a lock or a file in its state, or no key at rest): the post goes on without."""
    try:
        body = pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        log.warning("the fold of campaign %s cannot be snapshotted; the next process folds the log", campaign_id,
                    exc_info=True)
        return None
    return seal_snapshot(campaign_id, folded.last_seq, folded.head, key, body)
