"""Where a running bot takes posts from the same machine: a Unix socket named after its SQLite file.

`legatus post` is a short process; most of its time is importing SQLAlchemy to write one post. When `legatus run`
(Discord or the console) already serves the file, the command hands the post to it instead (bot/cli/post_client.py
and bot/service/local_posts.py): the post goes through the bot's own writer, and the command imports only the
standard library. Standard library only here, for that reason.

The socket must grant no more than the file does. It lives in a folder of the user's own, mode 0700
($XDG_RUNTIME_DIR/legatus, else <tmp>/legatus-<uid>), refused if anyone else owns it or can enter it; the socket
is 0600; and the server checks the peer's uid (SO_PEERCRED) on every connection: only the user the bot runs as.
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import struct
import tempfile
from pathlib import Path
from typing import Any

VERSION = 1
# A request is one JSON line; longer posts are written by the command itself (no bot reads 1 MiB in a message).
MAX_REQUEST = 1 << 20
# AF_UNIX paths are at most 108 bytes on Linux (with the final NUL); leave room.
MAX_PATH = 100


class NotPrivate(Exception):
    """The socket's folder is not the user's alone: nothing is served or sent there."""


def socket_path(db: Path) -> Path:
    """The socket of the bot serving ``db``: one per file, whatever path names it."""
    digest = hashlib.sha256(str(db.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return _folder() / f"{digest}.sock"


def _folder() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        folder = Path(runtime) / "legatus"
        if len(str(folder)) + 30 <= MAX_PATH:
            return folder
    return Path(tempfile.gettempdir()) / f"legatus-{os.getuid()}"


def private_folder(path: Path, *, create: bool) -> Path:
    """The socket's folder, made if asked; NotPrivate unless it is a real folder of this user that only they can
    enter (a folder made in /tmp by someone else first could otherwise catch the posts)."""
    folder = path.parent
    if create:
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise NotPrivate(f"{folder} is not a folder of this user's alone (mode {stat.filemode(info.st_mode)}, "
                         f"owner uid {info.st_uid})")
    return folder


def peer_uid(connection: socket.socket) -> int | None:
    """The uid of the process at the other end of a Unix socket; None where the system does not say (then nobody
    is served)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    raw = connection.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", raw)
    return int(uid)


def may_post(uid: int | None) -> bool:
    return uid is not None and uid == os.getuid()


def encode(message: dict[str, Any]) -> bytes:
    # ASCII JSON: a name with bytes that were not UTF-8 travels as it is, and the service refuses it as in-process.
    return json.dumps({"v": VERSION, **message}).encode("ascii") + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """One message; ValueError saying why it is not one."""
    try:
        message = json.loads(line.decode("ascii"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a JSON line ({exc})") from None
    if not isinstance(message, dict) or message.get("v") != VERSION:
        raise ValueError(f"not a version {VERSION} message")
    return message
