"""Issue 24: closing the offline console on a drand campaign whose relays never answer printed the scheduler's
CancelledError traceback from pump_beacons (3 of 3 times), and the process then waited for the relay's timeout before
it exited. A real console process (`legatus run`, no token) on a pipe, a relay that takes connections and never
answers, and the console closed while the beacons job waits on it."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.games.mediterranean_empires_players import USERS, standard_set_up

REPO = Path(__file__).resolve().parents[3]
RELAY_TIMEOUT = 60  # seconds a request to the relay may take: far longer than the stop's bound (DRAIN_SECONDS)


class SilentRelay:
    """Takes every connection and never answers; ``asked`` is set at the first one."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        self.asked = threading.Event()
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.held.append(conn)
            self.asked.set()

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def relay() -> Iterator[SilentRelay]:
    silent = SilentRelay()
    yield silent
    silent.close()


def test_closing_the_console_while_the_beacons_job_waits_on_a_silent_relay_exits_0_without_a_traceback(
    tmp_path: Path, relay: SilentRelay,
) -> None:
    db = tmp_path / "sea.db"
    service = Legatus(open_engine(db))
    assert service.create_campaign("sea", "mediterranean-empires", "gm", dict(USERS)).changed  # drand, the default
    standard_set_up(service, "sea")
    assert "Waiting for the roll" in service.post("ann", "draw").render()  # bound to a round ~10 s ahead
    service.engine.dispose()
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env.update(LEGATUS_DRAND_RELAYS=relay.url, LEGATUS_DRAND_TIMEOUT=str(RELAY_TIMEOUT))
    console = subprocess.Popen([sys.executable, "-m", "bot.cli", "run", "--db", str(db)], cwd=REPO, env=env, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        # The round comes; the job asks the relay, which holds it for RELAY_TIMEOUT: the console is closed now.
        assert relay.asked.wait(60), "the beacons job never asked the relay"
        out, _ = console.communicate(input="", timeout=RELAY_TIMEOUT - 15)
    finally:
        if console.poll() is None:
            console.kill()
            console.communicate()
    assert console.returncode == 0, out
    assert "Traceback" not in out and "CancelledError" not in out, out
