"""Shared by the site's tests: the golden campaign's export, and a site's files read back."""
from __future__ import annotations

import json
from pathlib import Path

from tests.fixture_paths import REPO

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden"
GOLDEN_LOG = (GOLDEN / "mare-nostrum-15-turns.log").read_text(encoding="utf-8")
GOLDEN_HEAD = (GOLDEN / "mare-nostrum-15-turns.head").read_text(encoding="utf-8").strip()
GOLDEN_NAME = "Mare Nostrum golden"
DATA = REPO / "data"


def site_data(folder: Path) -> dict:
    text = (folder / "site-data.js").read_text(encoding="utf-8")
    prefix = "window.LEGATUS_SITE = "
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix):-2])


def site_log(folder: Path) -> str:
    text = (folder / "log.js").read_text(encoding="utf-8")
    prefix = "window.LEGATUS_LOG = "
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix):-2])


def every_byte(root: Path) -> bytes:
    return b"\n".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())
