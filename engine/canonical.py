"""Canonical JSON: the one way Legatus writes state and events, so the same log gives the same bytes."""
from __future__ import annotations

import hashlib
import json
from typing import Any


def dumps(value: Any, *, indent: int | None = None) -> str:
    if indent is None:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=indent)


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()
