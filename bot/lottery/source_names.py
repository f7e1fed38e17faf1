"""The names of the lottery sources, alone, so that the command line can list them without loading the fetchers."""
from __future__ import annotations

ARCHIVE = "archive"
OFFICIAL = "lotto-italia"
SOURCE_NAMES: tuple[str, ...] = (ARCHIVE, OFFICIAL)
