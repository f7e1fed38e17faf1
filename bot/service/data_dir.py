"""Where the rules data lives (maps, tables, scenarios): $LEGATUS_DATA, else the repository's ``data/``. A light
module, so that read-only commands know it without loading the service."""
from __future__ import annotations

import os
from pathlib import Path

DATA_DIR = Path(os.environ.get("LEGATUS_DATA", Path(__file__).resolve().parents[2] / "data"))
