"""Shared test fixtures: the real lottery results (copied into tests/data/lotto), and a campaign service on a real SQLite file."""
from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Generator
from datetime import datetime, timezone
from pathlib import Path

# The tests start many Python processes (the CLI, the bot, scheduler runs killed and restarted). Without a bytecode
# cache each of them compiles Legatus again (~0.2 s of CPU apiece), as they do where PYTHONDONTWRITEBYTECODE is set
# to keep the source tree clean: so the cache goes to a folder outside the tree, for this process and its children.
_PYCACHE = str(Path(tempfile.gettempdir()) / "legatus-test-pycache")
os.environ.setdefault("PYTHONPYCACHEPREFIX", _PYCACHE)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
sys.dont_write_bytecode = False

# Bots started by the tests serve `legatus post` on a socket in the user's runtime folder (bot/store/local_socket.py):
# a folder of this test run's own, so that a bot killed by a test leaves nothing in the user's, and two runs never
# meet. Short, for the socket paths' length limit.
os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="lgt-", dir="/tmp" if os.path.isdir("/tmp") else None)
atexit.register(shutil.rmtree, os.environ["XDG_RUNTIME_DIR"], True)
# A bot with no server key keeps its own key for secrets at rest in the user's state folder (bot/store/rest_key.py):
# this run's own too, so that no test writes a key into the user's, nor finds one there.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="lgs-")
os.environ.pop("STATE_DIRECTORY", None)
atexit.register(shutil.rmtree, os.environ["XDG_STATE_HOME"], True)
# Area maps keep what they work out from the map file in the user's cache folder (bot/render/coast_cache.py):
# this run's own, so that every run starts cold and no test reads what another run wrote.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="lgc-")
os.environ.pop("LEGATUS_CACHE_DIR", None)
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

import pytest  # noqa: E402

from bot.schedule.clock import FixedClock  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402

from tests.fixture_paths import LOTTO, REPO  # noqa: F401,E402  (re-exported: test modules import LOTTO from here)

# Players of the test campaigns, one per nation.
PLAYERS = {
    "Carthaginians": "hanno",
    "Gauls": "brennus",
    "Macedonians": "philip",
    "Ptolemaics": "ptolemy",
    "Romans": "scipio",
    "Seleucids": "antiochus",
}


@pytest.fixture(autouse=True)
def server_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commit-reveal seeds are HMAC(server key, nonce): every test runs with a test key (none is in a database)."""
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "legatus test server key")


@pytest.fixture(autouse=True)
def no_public_drand_relays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never reach the internet: a bot built from the environment asks a closed port on 127.0.0.1 for
    beacons (connection refused at once) unless a test points it at its own fake relay."""
    import os

    if "LEGATUS_DRAND_RELAYS" not in os.environ:
        monkeypatch.setenv("LEGATUS_DRAND_RELAYS", "http://127.0.0.1:9")


@pytest.fixture(autouse=True)
def no_public_lottery_sites(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nor the lottery's sites: a bot whose scheduler fetches a draw (the fetch falls due by the wall clock, whatever
    a test's own clock says) asks a closed port on 127.0.0.1 unless the test serves its own site."""
    closed = "http://127.0.0.1:9"
    for name, path in (("LEGATUS_LOTTO_ARCHIVE_URLS", "/storico01-oggi.zip"), ("LEGATUS_LOTTO_DRAW_URL", "/draw.json"),
                       ("LEGATUS_LOTTO_CALENDAR_URL", "/calendar.json")):
        if name not in os.environ:
            monkeypatch.setenv(name, closed + path)


@pytest.fixture
def lotto_dir() -> Path:
    return LOTTO


@pytest.fixture
def service(tmp_path: Path) -> Legatus:
    from tests.fresh_db import migrated_engine

    clock = FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc))
    return Legatus(migrated_engine(tmp_path / "campaign.db"), clock=clock)


@pytest.fixture(scope="session")
def played_campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A whole scripted campaign on the real draws, played once per test session: (database, exported log)."""
    import sys

    sys.path.insert(0, str(REPO / "tests" / "bot"))
    from tests.bot.campaign_play import play_full_campaign

    folder = tmp_path_factory.mktemp("played")
    service, transcript = play_full_campaign(folder / "campaign.db")
    refused = transcript.refused()
    assert refused == [], "\n\n".join(p[2] for p in refused[:3])
    log = folder / "campaign.log"
    log.write_text(service.export(), encoding="utf-8")
    return folder / "campaign.db", log


@pytest.hookimpl(wrapper=True, optionalhook=True)  # optional: without xdist (-p no:xdist) it is never called
def pytest_xdist_auto_num_workers(config: pytest.Config) -> Generator[None, int, int]:
    """``-n auto`` is one worker more than the cores: many tests spend much of their time waiting (on the fake
    Discord's rate-limit windows, on bot and CLI processes), and a third worker on 2 cores fills those waits (the
    suite in 46-49 s with 3 workers, 61 s with 2, 51 s with 4). PYTEST_XDIST_AUTO_NUM_WORKERS still sets it."""
    cores = yield
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return cores
    return cores + 1


# Scheduling only (no test depends on another, nor on the order): the longest tests, with their rough seconds on
# a 2-core machine, start first, spread over the workers. pytest-xdist hands each worker a contiguous share of
# the collection (--dist worksteal, then idle workers take from the tail of a busy one's): collected in file order
# they started last, on whichever worker had them, and the run waited for that worker alone (e.g. the whole
# Mediterranean Empires game, 10 s, started 39 s into a 63 s run on 3 workers). Node-id prefixes.
LONGEST_FIRST = {
    "tests/bot/discord/test_mediterranean_empires_on_discord.py::": 10.0,
    "tests/bot/discord/test_sharded_processes.py::test_a_standby_process": 9.5,
    "tests/bot/discord/test_sharded_processes.py::test_one_process_runs_every_shard": 9.0,
    "tests/bot/discord/test_sharded_processes.py::test_two_shards": 5.0,
    "tests/bot/schedule/test_scheduler.py::test_killed_anywhere": 5.0,
    "tests/bot/discord/test_status_board.py::test_the_status_board_is_pinned": 4.0,
    "tests/bot/inputs/test_concurrency.py::test_concurrent_posts_all_land_once": 3.0,
    "tests/bot/cli/test_cli.py::test_a_turn_through_the_command_line": 2.5,
    "tests/bot/cli/test_local_posts.py::test_a_socket_left_by_a_killed_bot": 2.0,
    "tests/bot/discord/test_sharded_processes.py::test_a_bot_with_too_many_guilds": 1.5,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers < 2:
        return
    slow = []
    for prefix, seconds in LONGEST_FIRST.items():
        slow += [(seconds, item) for item in items if item.nodeid.startswith(prefix)]
    if not slow:
        return
    # Longest first, each to the worker's share with the least of them so far; each share begins with its own.
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for seconds, item in sorted(slow, key=lambda s: -s[0]):
        k = load.index(min(load))
        heads[k].append(item)
        load[k] += seconds
    taken = {id(item) for _, item in slow}
    rest = [item for item in items if id(item) not in taken]
    share, start, ordered = len(items) // workers, 0, []
    for k in range(workers):
        fill = len(rest) - start if k == workers - 1 else max(share - len(heads[k]), 0)
        ordered += heads[k] + rest[start:start + fill]
        start += fill
    assert len(ordered) == len(items)
    items[:] = ordered
