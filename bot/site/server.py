"""`legatus run --web HOST:PORT`: the campaign site served live while the bot runs, written again as events land.

The server serves the files of the site and nothing else: GET and HEAD only (no write of any kind), no request
body, no path outside the site's folder (``..``, encoded or not, a backslash, a NUL, a link out of it), a URL of
at most ``MAX_URL`` characters. The pages are the ones `legatus site` writes, from the public exports alone
(bot/site/build.py); every answer forbids the page to reach any other address (Content-Security-Policy).

It runs in a thread of its own with its own event loop, beside the Discord bot or the offline console, and reads
the store through its own service: it never touches the bot's writer. Every ``POLL_SECONDS`` it reads each
campaign's last event number (one query) and writes the site again, into a new folder, when one changed; requests
switch to the new folder at once, and the old one is removed.
"""
from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from aiohttp import web

from bot.site.build import write_site
from bot.site.source import exports_of, revision

log = logging.getLogger("legatus.site")

POLL_SECONDS = 2.0
MAX_URL = 1024
TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml", ".png": "image/png", ".log": "text/plain; charset=utf-8",
}
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


def parse_address(text: str) -> tuple[str, int]:
    """HOST:PORT as typed after --web; ValueError quoting it and saying what would be right."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"--web '{text[:80]}': give HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:8080")
    return host, int(port)


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def resolve(root: Path, raw_path: str) -> Path:
    """The file under ``root`` a request path names; Refused for anything else."""
    if len(raw_path) > MAX_URL:
        raise Refused(414, f"the address is longer than {MAX_URL} characters")
    path = unquote(raw_path.split("?", 1)[0])
    parts = [p for p in path.split("/") if p]
    if any(p in (".", "..") or "\\" in p or "\x00" in p or p.startswith(".") for p in parts):
        raise Refused(404, "no such page")
    target = root.joinpath(*parts) if parts else root
    if target.is_dir():
        target = target / "index.html"
    real_root = root.resolve()
    real = target.resolve()
    if real_root != real and real_root not in real.parents:
        raise Refused(404, "no such page")
    if not real.is_file():
        raise Refused(404, "no such page")
    return real


def make_app(root: Callable[[], Path | None]) -> web.Application:
    """The site's web application; ``root()``: the folder of the site being served now (None: not written yet)."""

    @web.middleware
    async def guard(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return _refusal(405, f"{request.method[:16]} is not served: this site is read-only", {"Allow": "GET, HEAD"})
        if (request.content_length or 0) > 0 or "Transfer-Encoding" in request.headers:
            return _refusal(413, "a request to this site carries no body")
        return await handler(request)

    async def serve(request: web.Request) -> web.StreamResponse:
        folder = root()
        if folder is None:
            return _refusal(503, "the site is being written; try again in a moment", {"Retry-After": "2"})
        raw = request.raw_path
        try:
            path = resolve(folder, raw)
        except Refused as exc:
            return _refusal(exc.status, exc.reason)
        if path.name == "index.html" and not raw.split("?", 1)[0].endswith(("/", "index.html")):
            raise web.HTTPFound(raw.split("?", 1)[0] + "/", headers=HEADERS)  # relative links need the slash
        kind = TYPES.get(path.suffix.lower(), "text/plain; charset=utf-8")
        return web.FileResponse(path, headers={**HEADERS, "Content-Type": kind})

    app = web.Application(middlewares=[guard], client_max_size=1024)
    app.router.add_route("*", "/{tail:.*}", serve)
    return app


def _refusal(status: int, reason: str, extra: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=status, text=f"{status}: {reason}\n", headers={**HEADERS, **(extra or {})},
                        content_type="text/plain")


class LiveSite:
    """The site of a store, written again whenever a campaign's log grows (``refresh``), each version in a new
    folder under ``base`` so that a request never sees one half written."""

    def __init__(self, service: Any, data_dir: Path, base: Path | None = None) -> None:
        self.service = service
        self.data_dir = data_dir
        self.base = base if base is not None else Path(tempfile.mkdtemp(prefix="legatus-web-"))
        self.current: Path | None = None
        self.seen: tuple[tuple[str, int], ...] | None = None
        self.version = 0

    def refresh(self) -> bool:
        """Write the site again if a campaign changed since the last time; True when it did."""
        now = revision(self.service)
        if now == self.seen and self.current is not None:
            return False
        self.version += 1
        folder = self.base / f"v{self.version}"
        write_site(folder, exports_of(self.service), self.data_dir)
        old, self.current, self.seen = self.current, folder, now
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return True

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


class WebThread:
    """The live site's server in a thread of its own (its own event loop), started and stopped by ``legatus run``."""

    def __init__(self, site: LiveSite, host: str, port: int, poll: float = POLL_SECONDS) -> None:
        self.site, self.host, self.port, self.poll = site, host, port, poll
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self._main, name="legatus-web", daemon=True)
        self._stop: asyncio.Event | None = None

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(60):
            raise OSError(f"the site's server on {self.host}:{self.port} did not start within 60 s")
        if self.failure is not None:
            raise self.failure

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._serve())
        finally:
            self.loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        runner = web.AppRunner(make_app(lambda: self.site.current), access_log=None)
        try:
            await asyncio.to_thread(self.site.refresh)
            await runner.setup()
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
            sockets = getattr(site._server, "sockets", None) or []  # the port the system gave for port 0
            if sockets:
                self.port = int(sockets[0].getsockname()[1])
        except BaseException as exc:  # noqa: BLE001 (handed to start(), which raises it in the caller)
            self.failure = exc
            self.ready.set()
            await runner.cleanup()
            return
        self.ready.set()
        try:
            while not self._stop.is_set():
                try:
                    await asyncio.wait_for(self._stop.wait(), self.poll)
                except asyncio.TimeoutError:
                    try:
                        await asyncio.to_thread(self.site.refresh)
                    except Exception:  # noqa: BLE001 (the site keeps its last version; the operator's log says why)
                        log.warning("the live site could not be written again", exc_info=True)
        finally:
            await runner.cleanup()

    def stop(self) -> None:
        if self._stop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(10)
        self.site.close()


def start_web(service: Any, address: str, data_dir: Path) -> WebThread:
    """Serve the live site of ``service``'s store at ``address`` (HOST:PORT); ValueError for a bad address,
    OSError when the address cannot be served (taken, not this machine's)."""
    host, port = parse_address(address)
    web_thread = WebThread(LiveSite(service, data_dir), host, port)
    try:
        web_thread.start()
    except BaseException:
        web_thread.site.close()
        raise
    return web_thread
