"""`legatus post` through the bot serving the same file (bot/service/local_posts.py, bot/cli/post_client.py).

With a `legatus run` of its own file running, the command hands the post over a Unix socket and imports only
the standard library; the answer and the exit code are those of a post made in the command's own process. A
socket left by a killed bot, a folder anyone else may enter and a connection from another user are never used.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli.post_client import BotDidNotAnswer, post_through_bot
from bot.service.legatus import Legatus
from bot.service.local_posts import LocalPosts, _alive
from bot.store import local_socket
from bot.store.db import open_engine
from bot.store.local_socket import socket_path
from tests.conftest import LOTTO, PLAYERS

REPO = Path(__file__).resolve().parents[3]
PROBE = """
import json, sys
from bot.cli.main import main
code = main(sys.argv[1:])
print("LOADED", json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""
HEAD = re.compile(r"Log head after this post: \d+:[0-9a-f]{64}")
HEAVY = {"sqlalchemy", "sqlmodel", "pydantic", "alembic", "discord", "aiohttp", "apscheduler", "requests"}


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A runtime folder of this test's own, short enough for a socket path."""
    folder = Path(tempfile.mkdtemp(prefix="lp-", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def campaign_db(path: Path) -> Path:
    service = Legatus(open_engine(path))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    service.engine.dispose()
    return path


def legatus(*args: str, probe: bool = False) -> tuple[int, str, set[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    command = [sys.executable, "-c", PROBE, *args] if probe else [sys.executable, "-m", "bot.cli", *args]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    if not probe:
        return done.returncode, done.stdout + done.stderr, set()
    text, _, report = done.stdout.rpartition("LOADED ")
    loaded = json.loads(report)
    return int(loaded["code"]), text + done.stderr, set(loaded["modules"])


def start_bot(db: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    bot = subprocess.Popen([sys.executable, "-m", "bot.cli", "run", "--db", str(db)], cwd=REPO, env=env, text=True,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while not _alive(socket_path(db)):  # a socket that answers (one left by a killed bot does not)
        assert bot.poll() is None and time.monotonic() < deadline, bot.stdout.read() if bot.stdout else ""
        time.sleep(0.05)
    return bot


def in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """`legatus ARGS` through its entry point in this process: what it prints and its exit code."""
    from bot.cli.main import main

    capsys.readouterr()
    code = main(list(args))
    said = capsys.readouterr()
    return code, said.out + said.err


def test_a_post_through_the_running_bot_is_the_post_made_alone_and_loads_nothing_heavy(
        tmp_path: Path, runtime: Path, capsys: pytest.CaptureFixture[str]) -> None:
    served_db = campaign_db(tmp_path / "served.db")
    alone_db = tmp_path / "alone.db"
    shutil.copy(served_db, alone_db)
    bot = start_bot(served_db)
    try:
        # A command of its own, as a user runs it: it imports no database nor network library.
        code, out, loaded = legatus("post", "--db", str(served_db), "--as", "gm", "/turn open 2023-01-03", probe=True)
        assert not loaded & HEAVY, loaded & HEAVY
        assert (code, HEAD.sub("HEAD", out)) == (0, HEAD.sub("HEAD", in_process(capsys, "post", "--db", str(alone_db),
                                                                                  "--as", "gm", "/turn open 2023-01-03")[1]))
        for author, text in (("antiochus", "pass"), ("brennus", "pass"), ("antiochus", "nonsense order"),
                             ("gm", "pass\n/turn open 1999-01-01"), ("philip", "pass")):
            served = in_process(capsys, "post", "--db", str(served_db), "--as", author, text)
            alone = in_process(capsys, "post", "--db", str(alone_db), "--as", author, text)
            # The same but for the log head: the events' times, which the head hashes, are those of each post.
            assert (served[0], HEAD.sub("HEAD", served[1])) == (alone[0], HEAD.sub("HEAD", alone[1])), (served, alone)
        assert in_process(capsys, "post", "--db", str(served_db), "--as", "brennus", "pass")[0] == 3  # not his turn
        missing = in_process(capsys, "post", "--db", str(served_db), "--as", "gm", "pass", "--campaign", "nope")
        assert missing[0] == 1 and "no campaign called 'nope'" in missing[1]
    finally:
        bot.communicate(":quit\n", timeout=60)
    assert not socket_path(served_db).exists()  # a clean stop removes its socket
    events = [Legatus(open_engine(db)).export("c").splitlines() for db in (served_db, alone_db)]
    assert [json.loads(e)["kind"] for e in events[0]] == [json.loads(e)["kind"] for e in events[1]]
    assert Legatus(open_engine(served_db)).state("c") == Legatus(open_engine(alone_db)).state("c")


def test_a_socket_left_by_a_killed_bot_is_not_used_and_is_replaced(tmp_path: Path, runtime: Path) -> None:
    db = campaign_db(tmp_path / "c.db")
    bot = start_bot(db)
    bot.send_signal(signal.SIGKILL)
    bot.wait(timeout=30)
    assert socket_path(db).exists()  # left behind
    assert post_through_bot(db, "gm", "/turn open 2023-01-03", None) is None  # nobody answers: post alone
    code, out, _ = legatus("post", "--db", str(db), "--as", "gm", "/turn open 2023-01-03")
    assert code == 0 and "Turn 1" in out, out
    again = start_bot(db)  # replaces the dead socket and serves
    try:
        served = post_through_bot(db, "antiochus", "pass", None)
        assert served is not None and served.outcome == "ok" and "Seleucids" in served.text
    finally:
        again.communicate(":quit\n", timeout=60)


def test_a_second_bot_on_the_same_file_does_not_take_the_socket(tmp_path: Path, runtime: Path) -> None:
    db = campaign_db(tmp_path / "c.db")
    bot = start_bot(db)
    try:
        service = Legatus(open_engine(db))

        async def second() -> bool:
            return await LocalPosts(db, lambda *a: asyncio.to_thread(service.post, *a)).start()

        assert asyncio.run(second()) is False
        served = post_through_bot(db, "gm", "/turn open 2023-01-03", None)
        assert served is not None and served.outcome == "ok"
    finally:
        bot.communicate(":quit\n", timeout=60)


def serving(db: Path, check: object = None) -> tuple[asyncio.AbstractEventLoop, LocalPosts, Legatus]:
    """A server in a thread's event loop of its own, posting through a service on ``db``."""
    import threading

    service = Legatus(open_engine(db))
    loop = asyncio.new_event_loop()
    local = LocalPosts(db, lambda *a: asyncio.to_thread(service.post, *a))
    threading.Thread(target=loop.run_forever, daemon=True).start()
    assert asyncio.run_coroutine_threadsafe(local.start(), loop).result(30)
    return loop, local, service


def stop(loop: asyncio.AbstractEventLoop, local: LocalPosts) -> None:
    asyncio.run_coroutine_threadsafe(local.close(), loop).result(30)
    loop.call_soon_threadsafe(loop.stop)


def test_posts_from_many_clients_at_once_are_each_applied_once(tmp_path: Path, runtime: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    db = campaign_db(tmp_path / "c.db")
    loop, local, service = serving(db)
    try:
        assert service.post("gm", "/turn open 2023-01-03", "c").ok
        texts = [f"hello {k}" for k in range(24)]  # table talk: read, answered, nothing applied, each recorded
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda t: post_through_bot(db, "brennus", t, "c"), texts))
        assert all(a is not None and a.outcome in ("ok", "refused") for a in answers)
        with ThreadPoolExecutor(6) as pool:
            passes = list(pool.map(lambda who: post_through_bot(db, who, "pass", "c"),
                                   ["antiochus", "antiochus", "antiochus", "antiochus"]))
        assert sorted(p.outcome for p in passes if p is not None) == ["ok", "refused", "refused", "refused"]
        log = service.export("c")
        assert log.count('"kind":"order"') == 1  # the Seleucids passed once, whoever came first
    finally:
        stop(loop, local)


def test_another_users_connection_is_refused_and_nothing_is_posted(tmp_path: Path, runtime: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.service.local_posts as server

    assert local_socket.may_post(os.getuid()) and not local_socket.may_post(os.getuid() + 1)
    assert not local_socket.may_post(None)
    db = campaign_db(tmp_path / "c.db")
    monkeypatch.setattr(server, "peer_uid", lambda connection: os.getuid() + 1)
    loop, local, service = serving(db)
    try:
        with pytest.raises(BotDidNotAnswer, match="only the user the bot runs as may post"):
            post_through_bot(db, "gm", "/turn open 2023-01-03", "c")
        assert service.state("c")["turn"] == 0
    finally:
        stop(loop, local)


def test_a_folder_others_may_enter_is_neither_served_nor_used(tmp_path: Path, runtime: Path) -> None:
    db = campaign_db(tmp_path / "c.db")
    folder = socket_path(db).parent
    folder.mkdir(mode=0o700)
    folder.chmod(0o755)  # as if made by another program, or tampered with
    service = Legatus(open_engine(db))

    async def start() -> bool:
        return await LocalPosts(db, lambda *a: asyncio.to_thread(service.post, *a)).start()

    assert asyncio.run(start()) is False
    assert not socket_path(db).exists()
    assert post_through_bot(db, "gm", "/turn open 2023-01-03", "c") is None  # the command posts alone


def test_a_bot_that_takes_the_post_and_never_answers_is_reported_not_retried(tmp_path: Path, runtime: Path) -> None:
    import socket as sockets
    import threading

    db = campaign_db(tmp_path / "c.db")
    where = socket_path(db)
    where.parent.mkdir(mode=0o700)
    listener = sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
    listener.bind(str(where))
    listener.listen()
    taken: list[bytes] = []

    def stuck() -> None:  # takes the post, then says nothing
        connection, _ = listener.accept()
        taken.append(connection.recv(65536))
        threading.Event().wait(5)
        connection.close()

    threading.Thread(target=stuck, daemon=True).start()
    try:
        with pytest.raises(BotDidNotAnswer, match="did not answer .*may have been applied: check with `legatus state`"):
            post_through_bot(db, "gm", "/turn open 2023-01-03", "c", timeout=0.5)
    finally:
        listener.close()
    assert taken and b"/turn open" in taken[0]
    assert Legatus(open_engine(db)).state("c")["turn"] == 0  # the command did not post it again by itself
