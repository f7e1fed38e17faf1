"""The running bot takes `legatus post` from its own machine (bot/store/local_socket.py says where and who may).

One JSON line in (author, text, campaign), one out (the reply as the command prints it, and how it ended). The post
goes where the transport sends its own: the Discord bot's writer queue, the console's service. A second bot on
the same file finds the socket alive and does not serve; a socket left by a killed bot is replaced.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.service.replies import Reply
from bot.store.local_socket import MAX_REQUEST, NotPrivate, decode, encode, may_post, peer_uid, private_folder, socket_path

log = logging.getLogger("legatus.local_posts")

Submit = Callable[[str, str, "str | None"], Awaitable[Reply]]


class LocalPosts:
    def __init__(self, db: Path, submit: Submit) -> None:
        self.path = socket_path(db)
        self.submit = submit
        self._server: asyncio.AbstractServer | None = None
        self._inode: int | None = None
        # The connections being answered, from their first byte: a stop waits for them (``close``), or a post read
        # while the socket closed would be applied with its answer never written.
        self._connections: set[asyncio.Task[Any]] = set()

    @classmethod
    def of_store(cls, engine: Any, submit: Submit) -> "LocalPosts | None":
        """For a bot on a SQLite file; None on a server database (its command line posts in-process)."""
        url = engine.url
        if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
            return None
        return cls(Path(url.database), submit)

    async def start(self) -> bool:
        """Serve, unless the system cannot say who connects, the folder is not private, or another live bot serves
        this file. Never stops the bot: posts then go the slow way, in the command's own process."""
        if not hasattr(socket, "AF_UNIX") or getattr(socket, "SO_PEERCRED", None) is None:
            log.info("local posts: this system cannot tell who connects to a socket; `legatus post` works alone")
            return False
        try:
            private_folder(self.path, create=True)
        except (NotPrivate, OSError) as exc:
            log.warning("local posts not served: %s", exc)
            return False
        if await asyncio.to_thread(_alive, self.path):
            log.warning("local posts: another bot serves %s already; this one does not", self.path)
            return False
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # left by a bot that died
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.path), limit=MAX_REQUEST + 2)
        os.chmod(self.path, 0o600)
        self._inode = self.path.stat().st_ino
        log.info("local posts served at %s", self.path)
        return True

    async def close(self, timeout: float = 10.0) -> None:
        """Take no more connections, then let those accepted be answered (for at most ``timeout`` seconds)."""
        if self._server is None:
            return
        self._server.close()
        await self._server.wait_closed()
        self._server = None
        with contextlib.suppress(FileNotFoundError):
            if self.path.stat().st_ino == self._inode:  # ours, not a newer bot's
                self.path.unlink()
        pending = {task for task in self._connections if not task.done()}
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)
        try:
            try:
                # Read first, whoever it is: closing on unread bytes resets the connection, and the client would
                # not get the refusal below.
                line = await reader.readuntil(b"\n")
            except (asyncio.LimitOverrunError, asyncio.IncompleteReadError) as exc:
                writer.write(encode({"error": f"the bot could not read the request: {exc}"}))
                return
            connection = writer.get_extra_info("socket")
            if connection is None or not may_post(peer_uid(connection)):
                writer.write(encode({"error": "only the user the bot runs as may post through it"}))
                return
            try:
                request = decode(line)
                author, text, campaign = request.get("author"), request.get("text"), request.get("campaign")
                if not isinstance(author, str) or not isinstance(text, str) or not isinstance(campaign, (str, type(None))):
                    raise ValueError("author and text must be strings, campaign a string or null")
            except ValueError as exc:
                writer.write(encode({"error": f"the bot could not read the request: {exc}"}))
                return
            reply = await self.submit(author, text, campaign)
            writer.write(encode({"text": reply.render(), "outcome": reply.outcome}))
        except Exception:  # one bad connection never troubles the bot
            log.exception("a local post failed")
            with contextlib.suppress(Exception):
                writer.write(encode({"error": "the bot hit an internal error; its log has the details"}))
        finally:
            with contextlib.suppress(Exception):
                await writer.drain()
                writer.close()
                await writer.wait_closed()


def _alive(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(str(path))
    except OSError:
        return False
    finally:
        probe.close()
    return True
