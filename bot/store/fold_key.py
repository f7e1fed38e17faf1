"""What a cached fold (a snapshot) depends on besides the log, as one digest: the engine's code, the ruleset's own
code, the rules data and the snapshot format. Kept apart from the snapshot table so that a read-only process
(``bot/store/reader.py``) can check a snapshot without importing SQLAlchemy."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"
# Bump when the body's layout changes; old snapshots are then ignored and replaced at the next post.
FORMAT = 1
_keys: dict[tuple[int, Path], str] = {}


def _hash_tree(digest: Any, folder: Path, pattern: str) -> None:
    for path in sorted(folder.rglob(pattern)):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())


def snapshot_key(ruleset: Any, data_dir: Path) -> str:
    """A digest of everything a fold depends on besides the log: the engine's code, the ruleset's own code
    (a game registered from elsewhere), the rules data and the snapshot format. About half a megabyte read
    once per process; a snapshot made before any of them changed is ignored."""
    cache = (id(ruleset), data_dir)
    if cache in _keys:
        return _keys[cache]
    digest = hashlib.sha256(f"legatus-snapshot/{FORMAT}/{sys.version_info[:2]}".encode())
    digest.update(str(getattr(getattr(ruleset, "rules", None), "digest", "")).encode())
    _hash_tree(digest, ENGINE_DIR, "*.py")
    module = sys.modules.get(type(ruleset).__module__)
    source = Path(getattr(module, "__file__", "") or ENGINE_DIR).resolve().parent
    if ENGINE_DIR not in (source, *source.parents):
        _hash_tree(digest, source, "*.py")
    if data_dir.is_dir():
        _hash_tree(digest, data_dir, "*")
    _keys[cache] = digest.hexdigest()
    return _keys[cache]
