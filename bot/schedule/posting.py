"""What the scheduler posts through: a transport's ``Poster`` (Discord's, bot/discord/poster.py), or the
``RecordingPoster`` of the console and the tests."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol


class NotPosted(Exception):
    """Raised by a poster that has nowhere to put a message yet (a forum campaign before its turn post opens):
    the claim stays unsent and the message is tried again, never recorded as sent."""


class Poster(Protocol):
    """Sends a message to a campaign's channel. ``key`` identifies the message: a sink that can (Discord, via
    the nonce) uses it to drop a resend of what it already accepted. ``turn``: the game turn the message belongs
    to (a transport with a thread per turn puts it there); None: the current one. ``since``: an earlier attempt
    claimed this message then and may have sent it (killed before its record): a sink that can looks for it there
    first. Returns the message id, if any; raises NotPosted when the message cannot go out yet."""

    async def post(self, campaign_id: int, text: str, *, ping: list[str] = [], key: str,  # noqa: B006
                   files: Sequence[tuple[str, bytes]] = (), turn: int | None = None,
                   since: datetime | None = None) -> str | None: ...


@dataclass
class Sent:
    campaign_id: int
    text: str
    ping: list[str]
    key: str
    files: list[tuple[str, bytes]] = field(default_factory=list)


@dataclass
class RecordingPoster:
    """Keeps what would be posted: for tests and the console (``echo=print``)."""

    sent: list[Sent] = field(default_factory=list)
    echo: Callable[[str], None] | None = None
    # Behave like Discord's enforced nonce: a key already accepted is not posted again.
    honour_keys: bool = False

    async def post(self, campaign_id: int, text: str, *, ping: list[str] = [], key: str,  # noqa: B006
                   files: Sequence[tuple[str, bytes]] = (), turn: int | None = None,
                   since: datetime | None = None) -> str | None:
        if self.honour_keys:
            for i, sent in enumerate(self.sent):
                if sent.key == key:
                    return str(i + 1)  # Discord answers a repeated nonce with the message it already has
        self.sent.append(Sent(campaign_id, text, list(ping), key, list(files)))
        if self.echo is not None:
            attached = f" [{', '.join(name for name, _ in files)}]" if files else ""
            self.echo(f"[campaign {campaign_id}] {text}{attached}")
        return str(len(self.sent))
