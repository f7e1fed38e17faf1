"""A fake operator site on 127.0.0.1 for the lottery fetcher tests, serving the real fixtures in the
published formats: the archive zip of ``storico01-oggi.txt`` and the official site's JSON answers."""
from __future__ import annotations

import datetime as dt
import io
import json
import threading
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bot.schedule.clock import ROME
from engine.lotto import Draw, parse_archive
from tests.fixture_paths import LOTTO

FIXTURES = LOTTO
JAN_2023 = FIXTURES / "draws-2023-01.txt"
SEP_2026 = FIXTURES / "draws-2026-09.txt"

ARCHIVE_PATH = "/STORICO_ESTRAZIONI_LOTTO/storico01-oggi.zip"
DRAW_PATH = "/gdl/estrazioni-e-vincite/estrazioni-del-lotto.json"
CALENDAR_PATH = "/gdl/estrazioni-e-vincite/calendario-estrazioni-del-lotto.json"


def archive_lines(*paths: Path) -> list[str]:
    """The fixture lines as the official file has them: no comments."""
    lines: list[str] = []
    for path in paths:
        lines += [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    return lines


def fixture_draws(*paths: Path) -> dict[dt.date, Draw]:
    parsed = parse_archive("\n".join(archive_lines(*paths)))
    assert not parsed.errors
    return {d.date: d for d in parsed.draws}


def archive_zip(lines: Iterable[str], member: str = "storico01-oggi.txt", tmp: Path | None = None) -> bytes:
    """A zip as the operator publishes it; written to ``tmp`` when given, so a test can look at it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, "".join(line + "\n" for line in lines))
    data = buffer.getvalue()
    if tmp is not None:
        (tmp / "storico01-oggi.zip").write_bytes(data)
    return data


def json_answer(draw: Draw) -> bytes:
    """The single-draw answer in the site's shape: esito, data (ms at midnight Rome), estrazione."""
    midnight = dt.datetime.combine(draw.date, dt.time(0), tzinfo=ROME)
    body = {
        "esito": "OK",
        "data": int(midnight.timestamp() * 1000),
        "estrazione": [{"ruota": wheel, "numeri": list(nums)} for wheel, nums in draw.numbers.items()],
    }
    return json.dumps(body, separators=(",", ":")).encode()


def with_numbers(draw: Draw, **wheels: tuple[int, int, int, int, int]) -> Draw:
    return Draw(draw.date, {**draw.numbers, **wheels})


def moved(draw: Draw, day: dt.date) -> Draw:
    return Draw(day, dict(draw.numbers))


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json;charset=UTF-8"
    delay: float = 0.0
    content_length: int | None = None  # a length other than the body's makes a truncated download


@dataclass
class Request:
    method: str
    path: str
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


Route = Reply | list[Reply] | Callable[[Request], Reply]


@dataclass
class FakeSite:
    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    port: int = 0

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def hits(self, path: str) -> list[Request]:
        return [r for r in self.requests if r.path == path]

    def reply(self, request: Request) -> Reply:
        route = self.routes.get(request.path)
        if route is None:
            return Reply(404, b"<html><body>Not Found</body></html>", "text/html")
        if isinstance(route, list):
            # Successive answers; the last one repeats.
            return route.pop(0) if len(route) > 1 else route[0]
        return route(request) if callable(route) else route

    def serve_official(self, draws: Mapping[dt.date, Draw], calendar: Mapping[tuple[int, int], list[int]] | None = None,
                       answers: Mapping[dt.date, Reply] | None = None) -> None:
        """The site's JSON endpoints over ``draws``; the calendar lists the days it has (or ``calendar``)."""
        def calendar_reply(request: Request) -> Reply:
            key = (request.json["anno"], request.json["mese"])
            days = calendar[key] if calendar and key in calendar else sorted(
                d.day for d in draws if (d.year, d.month) == key)
            return Reply(body=json.dumps(days).encode())

        def draw_reply(request: Request) -> Reply:
            day = dt.datetime.strptime(request.json["data"], "%Y%m%d").date()
            if answers and day in answers:
                return answers[day]
            if day in draws:
                return Reply(body=json_answer(draws[day]))
            return Reply(body=b'{"esito":"KO","messaggio":"Errore nel recupero dell\'estrazione"}')

        self.routes[CALENDAR_PATH] = calendar_reply
        self.routes[DRAW_PATH] = draw_reply


def _handler(site: FakeSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = Request(self.command, self.path, self.rfile.read(length))
            site.requests.append(request)
            reply = site.reply(request)
            if reply.delay:
                time.sleep(reply.delay)
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(reply.content_length or len(reply.body)))
                if reply.content_length:
                    self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(reply.body)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to answer
            if reply.content_length:
                self.close_connection = True

        do_GET = _serve
        do_POST = _serve

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def running_site() -> Iterator[FakeSite]:
    site = FakeSite()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    server.daemon_threads = True
    site.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
