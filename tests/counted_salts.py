"""The salts a test gives the service in place of its random ones (``service.salt``), so that every run is the same
game: the bot's seals (a deck key above all, which orders every hidden deck) and sealed orders take these."""
from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable


def counted_salts(tag: str) -> Callable[[], str]:
    """128-bit salts, as the bot's: the digests of ``"<tag> 0"``, ``"<tag> 1"``, … in turn."""
    count = itertools.count()
    return lambda: hashlib.sha256(f"{tag} {next(count)}".encode()).hexdigest()[:32]
