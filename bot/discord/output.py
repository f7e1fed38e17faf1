"""Turning a Reply into Discord messages: split under the limits, mentions off unless opted in."""
from __future__ import annotations

from typing import Any

import re

DISCORD_LIMIT = 2000
MENTION = re.compile(r"^<@!?(\d+)>$")


def split_message(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """Chunks of at most ``limit`` characters, cut at line ends where possible, never losing a character."""
    chunks: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            chunks.append(current)
            current = ""
        current += line
    if current:
        chunks.append(current)
    return [c.rstrip("\n") or "\u200b" for c in chunks] or ["\u200b"]


def user_ids(identities: list[str]) -> list[int]:
    """Discord user ids from the identities Legatus stores for players (``<@123>``)."""
    ids = []
    for identity in identities:
        match = MENTION.match(identity)
        if match:
            ids.append(int(match.group(1)))
    return ids


def turn_announcement(summary: Any, page: str | None = None) -> str:
    """The opening post of a turn: its label, then what the game says of it (order of play, events, ...), and the
    campaign's page when the site has a public address (LEGATUS_PUBLIC_URL, bot/site/links.py)."""
    link = ["", f"The campaign's page, dice checked in your browser: {page}"] if page else []
    return "\n".join([f"**{summary.turn_label}**", "", *summary.headline, *link]).rstrip()
