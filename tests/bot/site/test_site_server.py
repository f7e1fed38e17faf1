"""`legatus run --web`: the live site serves its files and nothing else, and follows the campaigns' logs."""
from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
import requests

from bot.service.data_dir import DATA_DIR
from bot.site.links import folder_of
from bot.site.server import MAX_URL, LiveSite, Refused, WebThread, parse_address, resolve
from tests.bot.site.site_files import site_data
from tests.bot.site.site_games import NAME, mediterranean_empires_on_quicknet


@pytest.fixture
def site_root(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "camp").mkdir(parents=True)
    (root / "index.html").write_text("index")
    (root / "camp" / "index.html").write_text("camp")
    (tmp_path / "secret.txt").write_text("operator's file")
    (root / ".hidden").write_text("no")
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    return root


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/camp/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/camp/%2e%2e/%2e%2e/secret.txt",
    "/..%5csecret.txt", "/camp\\..\\..\\secret.txt", "/index.html%00.png", "/.hidden", "/link.txt", "/nothing.html",
])
def test_a_path_out_of_the_site_or_to_no_file_is_refused(site_root: Path, path: str) -> None:
    """Attacker with a browser: every spelling of a way out of the site's folder is a plain 404."""
    with pytest.raises(Refused) as refused:
        resolve(site_root, path)
    assert (refused.value.status, refused.value.reason) == (404, "no such page")


def test_the_site_s_own_files_are_found(site_root: Path) -> None:
    assert resolve(site_root, "/") == (site_root / "index.html").resolve()
    assert resolve(site_root, "/camp/") == (site_root / "camp" / "index.html").resolve()
    assert resolve(site_root, "/camp/index.html?x=1") == (site_root / "camp" / "index.html").resolve()
    with pytest.raises(Refused) as refused:
        resolve(site_root, "/" + "a" * MAX_URL)
    assert refused.value.status == 414


@pytest.mark.parametrize("text", ["8080", "localhost", "localhost:0", "localhost:65536", "host:port", ":80"])
def test_a_bad_address_is_quoted(text: str) -> None:
    with pytest.raises(ValueError) as bad:
        parse_address(text)
    assert str(bad.value) == f"--web '{text}': give HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:8080"


def test_addresses_are_read() -> None:
    assert parse_address("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert parse_address("[::1]:443") == ("::1", 443)


def _raw(port: int, request: bytes) -> bytes:
    """What the server answers to bytes a client library would have cleaned up first."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


@pytest.fixture
def live(tmp_path: Path):  # type: ignore[no-untyped-def]
    service = mediterranean_empires_on_quicknet(tmp_path / "me.db")
    web = WebThread(LiveSite(service, DATA_DIR, tmp_path / "web"), "127.0.0.1", 0, poll=0.1)
    web.start()
    try:
        yield service, web
    finally:
        web.stop()
    assert not (tmp_path / "web").exists()  # the live site's files go with the server


def test_the_live_site_serves_pages_and_refuses_everything_else(live) -> None:  # type: ignore[no-untyped-def]
    service, web = live
    base = f"http://127.0.0.1:{web.port}"
    folder = folder_of(NAME)
    index = requests.get(base + "/", timeout=5)
    assert index.status_code == 200 and f'href="{folder}/index.html"' in index.text
    assert index.headers["Content-Security-Policy"].startswith("default-src 'none'; script-src 'self'")
    page = requests.get(f"{base}/{folder}", timeout=5, allow_redirects=False)
    assert (page.status_code, page.headers["Location"]) == (302, f"/{folder}/")
    assert requests.get(f"{base}/{folder}/", timeout=5).status_code == 200
    log = requests.get(f"{base}/{folder}/campaign.log", timeout=5)
    assert log.text == service.export(NAME) and log.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert requests.get(f"{base}/assets/vendor/noble.js", timeout=5).headers["Content-Type"].startswith("text/javascript")
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        refused = requests.request(method, f"{base}/{folder}/campaign.log", data=b"x", timeout=5)
        assert (refused.status_code, refused.text) == (405, f"405: {method} is not served: this site is read-only\n")
    body = requests.get(base + "/", data=b"x" * 10, timeout=5)
    assert (body.status_code, body.text) == (413, "413: a request to this site carries no body\n")
    assert requests.get(base + "/" + "a" * 2000, timeout=5).status_code == 414
    for path in (b"/../../../etc/passwd", b"/%2e%2e/%2e%2e/etc/passwd", b"/assets/..%2f..%2f..%2fetc/passwd"):
        answer = _raw(web.port, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 404") and b"root:" not in answer, answer[:200]
    huge = _raw(web.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\nConnection: close\r\n\r\n")
    assert huge.split(b"\r\n")[0].endswith(b" 400 Bad Request") and b"Legatus campaigns" not in huge, huge[:200]


def test_the_live_site_follows_the_log(live) -> None:  # type: ignore[no-untyped-def]
    service, web = live
    base = f"http://127.0.0.1:{web.port}/{folder_of(NAME)}/site-data.js"
    assert '"last_seq": 9' in requests.get(base, timeout=5).text
    assert service.post("ann", "draw", NAME).ok  # Player A's next stratagem marker: one event more
    deadline = time.monotonic() + 20
    while '"last_seq": 10' not in requests.get(base, timeout=5).text:
        assert time.monotonic() < deadline, "the live site was not written again"
        time.sleep(0.1)
    assert site_data(web.site.current / folder_of(NAME))["last_seq"] == 10
    assert [p.name for p in web.site.base.iterdir()] == [web.site.current.name]  # the old version is gone
    assert web.site.refresh() is False  # nothing changed since: nothing written


def test_run_refuses_a_bad_web_address_before_opening_the_store(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli.main import main

    assert main(["run", "--db", str(tmp_path / "new.db"), "--web", "localhost"]) == 2
    assert capsys.readouterr().err == ("legatus: --web 'localhost': give HOST:PORT with a port from 1 to 65535, "
                                       "e.g. 127.0.0.1:8080\n")
    assert not (tmp_path / "new.db").exists()
