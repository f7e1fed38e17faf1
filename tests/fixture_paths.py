"""Where the tests' recorded data lives, inside the repository, so a fresh clone runs the suite on its own.

`data/lotto/` holds byte-for-byte copies of the real lottery archive files (the project's shared fixtures); no
environment variable or directory beside the repository is needed. Every test module, fake and script that reads
them takes the path from here, so a module moved to another folder keeps finding them.
"""
from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
LOTTO = TESTS / "data" / "lotto"
