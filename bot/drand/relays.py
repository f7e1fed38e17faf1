"""Which drand HTTP relays to ask: the public League of Entropy relays, or the list in LEGATUS_DRAND_RELAYS.

Relays are interchangeable mirrors: none is trusted, since every beacon is checked against the pinned chain
key, so the list only decides where to look and in which order.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from urllib.parse import urlsplit

ENV = "LEGATUS_DRAND_RELAYS"
DEFAULT_RELAYS: tuple[str, ...] = (
    "https://api.drand.sh",
    "https://api2.drand.sh",
    "https://api3.drand.sh",
    "https://drand.cloudflare.com",
)
EXAMPLE = "https://api.drand.sh,https://drand.cloudflare.com"


class RelayConfigError(ValueError):
    """A relay list that cannot be used; the message quotes the bad entry and shows a good one."""


def parse_relays(text: str, origin: str = ENV) -> tuple[str, ...]:
    """Relay base URLs from a comma- or space-separated list; trailing slashes dropped, duplicates once."""
    relays: list[str] = []
    for entry in (e for e in re.split(r"[\s,]+", text.strip()) if e):
        parts = urlsplit(entry)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise RelayConfigError(
                f"{origin}: {entry!r} is not a relay address; give http(s) base URLs separated by commas, "
                f"e.g. {EXAMPLE}"
            )
        url = entry.rstrip("/")
        if url not in relays:
            relays.append(url)
    if not relays:
        raise RelayConfigError(f"{origin} lists no relay; give http(s) base URLs separated by commas, e.g. {EXAMPLE}")
    return tuple(relays)


def relays_from_env(environ: Mapping[str, str] = os.environ) -> tuple[str, ...]:
    """The relays of LEGATUS_DRAND_RELAYS when it is set and not blank, else the public ones."""
    text = environ.get(ENV, "")
    if not text.strip():
        return DEFAULT_RELAYS
    return parse_relays(text)
