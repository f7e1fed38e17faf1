"""Quoting what a user typed back to them, cut short: a megabyte of garbage must not come back as a megabyte."""
from __future__ import annotations

# Enough to recognise what one typed; an answer quoting a whole post would drown the channel.
QUOTE_LIMIT = 80


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as typed, or its first ``limit`` characters and "…" (one line: line breaks are shown as spaces)."""
    flat = " ".join(str(text).splitlines()) if "\n" in str(text) or "\r" in str(text) else str(text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
