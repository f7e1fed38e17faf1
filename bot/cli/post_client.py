"""`legatus post` through the bot that serves the same SQLite file (bot/service/local_posts.py), if one does.

Imports the standard library alone (and bot.store.local_socket, which does too): with a bot running, the command
costs a Python start and one round trip, not SQLAlchemy's import. With none, the caller posts in its own process.
"""
from __future__ import annotations

import os
import socket
from dataclasses import dataclass

from bot.store.local_socket import MAX_REQUEST, NotPrivate, decode, encode, private_folder, socket_path

# The bot answers a post in milliseconds; this long means it is stuck, and the post may or may not be applied.
TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class Served:
    text: str
    outcome: str  # "ok", "refused" (some line), "failed" (nothing read)


class BotDidNotAnswer(Exception):
    """The bot took the post but gave no answer: it may have been applied (never post it again blindly)."""


def post_through_bot(db: str | os.PathLike[str] | None, author: str, text: str, campaign: str | None,
                     timeout: float = TIMEOUT_SECONDS) -> Served | None:
    """The bot's answer; None when no bot serves this file (or the post is too big to send): post in-process."""
    from bot.store.reader import sqlite_path

    path = sqlite_path(db)
    if path is None or not path.is_file():
        return None
    request = encode({"author": author, "text": text, "campaign": campaign})
    if len(request) > MAX_REQUEST:
        return None
    where = socket_path(path)
    try:
        private_folder(where, create=False)
    except (NotPrivate, OSError):
        return None  # no folder (no bot ever served here), or one not ours: never send a post there
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.settimeout(2.0)
        try:
            connection.connect(str(where))
        except OSError:
            return None  # no bot, or one that died and left its socket
        connection.settimeout(timeout)
        try:
            connection.sendall(request)
        except OSError:
            pass  # the bot may have refused and closed already: its answer, read next, says why
        try:
            answer = _read_line(connection)
        except OSError as exc:
            raise BotDidNotAnswer(
                f"the running bot did not answer ({exc.__class__.__name__}); the post may have been applied: check "
                "with `legatus state` or `legatus ledger` before posting it again") from None
    finally:
        connection.close()
    try:
        message = decode(answer)
    except ValueError as exc:
        raise BotDidNotAnswer(f"the running bot's answer was unreadable ({exc}); check with `legatus state`") from None
    if "error" in message:
        raise BotDidNotAnswer(f"the running bot refused the post: {message['error']}")
    return Served(str(message.get("text", "")), str(message.get("outcome", "failed")))


def _read_line(connection: socket.socket) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionResetError("the connection closed before the answer ended")
        chunks.append(chunk)
        if chunk.endswith(b"\n"):
            return b"".join(chunks)
