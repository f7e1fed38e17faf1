"""The campaign page in a real browser: every check passes on an honest log, and a tampered one says which check
failed and where. A screenshot of each page is saved in the test's tmp dir (light, dark, phone width)."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.site.build import _js, write_site
from bot.site.links import folder_of
from engine import canonical
from engine.events import Event
from engine.ledger import GENESIS, event_hash
from tests.bot.drand.drand_fakes import RECORDED_BEACONS
from tests.bot.site.browser import launch, needs_chromium, open_page
from tests.bot.site.site_files import DATA, GOLDEN_HEAD, GOLDEN_LOG, GOLDEN_NAME
from tests.bot.site.site_games import NAME as ME_NAME, mediterranean_empires_on_quicknet

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("sites")
    service = mediterranean_empires_on_quicknet(base / "me.db")
    me_log = service.export(ME_NAME)
    out = base / "site"
    write_site(out, [(GOLDEN_NAME, GOLDEN_LOG), (ME_NAME, me_log)], DATA)
    return {"out": out, "me_log": me_log}


def _url(out: Path, name: str) -> str:
    return (out / folder_of(name) / "index.html").as_uri()


def _checks(page: Any) -> dict[str, tuple[str, list[str]]]:
    """Each check's state and its problems, as the page shows them."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#verify-checks > li')].map(li =>
        [li.id.replace('check-', ''), [li.dataset.state, [...li.querySelectorAll('.problem')].map(p => p.textContent)]]))""")


def test_the_golden_campaign_passes_every_check(browser: Any, sites: dict[str, Any], tmp_path: Path) -> None:
    page = open_page(browser, _url(sites["out"], GOLDEN_NAME))
    assert page.text_content("#verify-status") == "✓ Every check passed in this browser."
    checks = _checks(page)
    assert {k: v[0] for k, v in checks.items()} == {"chain": "pass", "beacons": "pass", "dice": "pass", "time": "pass",
                                                   "named": "info"}
    assert page.text_content("#check-chain .verdict") == f" — passed: 396 events, head {GOLDEN_HEAD[:20]}…"
    assert page.text_content("#check-dice .verdict") == " — passed: 71 rolls derived again"
    assert "71 lottery bindings of a historical campaign" in page.text_content("#check-time")
    cells = page.eval_on_selector_all("td.rollcheck", "cells => cells.map(c => c.dataset.state)")
    assert cells.count("pass") == 71 and set(cells) == {"pass"}
    assert page.errors == []
    page.screenshot(path=str(tmp_path / "golden-light.png"), full_page=True)


def test_the_mediterranean_empires_game_passes_with_its_beacons_verified(browser: Any, sites: dict[str, Any],
                                                                        tmp_path: Path) -> None:
    page = open_page(browser, _url(sites["out"], ME_NAME))
    assert page.text_content("#verify-status") == "✓ Every check passed in this browser."
    assert page.text_content("#check-beacons .verdict") == \
        " — passed: 2 of 2 beacons verified against quicknet's pinned key"
    assert page.text_content("#check-dice .verdict") == " — passed: 2 rolls derived again"
    assert page.text_content("#check-time .verdict") == " — passed: 2 bindings held to their draw or round time"
    assert page.errors == []
    page.screenshot(path=str(tmp_path / "mediterranean-light.png"), full_page=True)
    page.context.close()
    dark = open_page(browser, _url(sites["out"], ME_NAME), dark=True)
    assert dark.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(21, 20, 15)"
    dark.screenshot(path=str(tmp_path / "mediterranean-dark.png"), full_page=True)


def test_the_page_reads_on_a_phone_and_by_keyboard(browser: Any, sites: dict[str, Any], tmp_path: Path) -> None:
    page = open_page(browser, _url(sites["out"], GOLDEN_NAME), width=390, height=844)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling of the page
    page.screenshot(path=str(tmp_path / "golden-phone.png"), full_page=False)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the content"
    alts = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.alt)")
    assert alts and all(a.strip() for a in alts)
    assert page.get_attribute("#map-img", "src") == "maps/15-turn-15.svg"
    page.focus("#turn-slider")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#map-img", "src") == "maps/13-turn-13.svg"  # loaded on demand, when picked
    assert page.text_content("#map-caption") == "Turn 13 (170 BC)"
    assert page.get_attribute("#turn-slider", "aria-valuetext") == "Turn 13 (170 BC)"
    page.wait_for_function("document.getElementById('map-img').complete")
    assert page.evaluate("document.getElementById('map-img').naturalWidth") == 1200
    page.fill("#anchor-input", GOLDEN_HEAD)
    page.keyboard.press("Enter")
    assert page.text_content("#anchor-result") == "✓ the log holds event #396 with that hash"
    page.fill("#anchor-input", "396:" + "0" * 64)
    page.keyboard.press("Enter")
    assert page.text_content("#anchor-result").startswith("✗ event #396 has hash 85979d5cca2b3a7c…: the log was rewritten")
    index = open_page_plain(browser, (sites["out"] / "index.html").as_uri())
    index.screenshot(path=str(tmp_path / "index.png"), full_page=True)
    assert index.text_content("h1") == "Legatus campaigns"


def open_page_plain(browser: Any, url: str) -> Any:
    page = browser.new_page()
    page.goto(url)
    return page


def _tampered(sites: dict[str, Any], name: str, log_text: str, tmp_path: Path) -> Path:
    """The site as it was, with the log the page checks swapped for ``log_text``: a host that serves a changed log
    beside the honest page (or the honest log beside a page it changed: the same mismatch)."""
    out = tmp_path / "site"
    import shutil

    shutil.copytree(sites["out"], out)
    (out / folder_of(name) / "log.js").write_text("window.LEGATUS_LOG = " + _js(log_text) + ";\n", encoding="utf-8")
    return out


def _events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def _lines(events: list[dict[str, Any]], *, rehash: bool) -> str:
    head = GENESIS
    out = []
    for raw in events:
        if rehash:
            raw = {**raw, "hash": event_hash(head, Event.from_dict(raw))}
        head = raw["hash"]
        out.append(canonical.dumps(raw))
    return "\n".join(out) + "\n"


def _change_a_die(events: list[dict[str, Any]]) -> int:
    """The Palermo number of 2023-01-07 that settled roll #11 (the siege of Gallia Cisalpina, 58: it falls) made 61
    (it holds); the seq of the event changed."""
    draw = next(e for e in events if e["kind"] == "draw.recorded" and e["data"]["date"] == "2023-01-07")
    assert draw["data"]["numbers"]["PA"][0] == 58
    draw["data"]["numbers"]["PA"][0] = 61
    return int(draw["seq"])


def test_a_changed_die_breaks_the_chain_at_its_event(browser: Any, sites: dict[str, Any], tmp_path: Path) -> None:
    """Operator with the database: the first draw's Bari numbers changed, hashes left as they were."""
    events = _events(GOLDEN_LOG)
    _change_a_die(events)
    out = _tampered(sites, GOLDEN_NAME, _lines(events, rehash=False), tmp_path)
    page = open_page(browser, _url(out, GOLDEN_NAME))
    assert page.text_content("#verify-status") == "✗ 2 checks failed: see below where."
    checks = _checks(page)
    assert checks["chain"][0] == "fail" and len(checks["chain"][1]) == 1
    assert checks["chain"][1][0].startswith("event #44 (draw.recorded): does not match the hash chain: this event (or "
                                            "the one before it) was changed or inserted; its content hashes to ")
    assert checks["dice"] == ["fail", ["roll #11, turn 2 (siege): the ledger shows 58, but its public value gives 61"]]
    assert page.get_attribute("#roll-11 td.rollcheck", "data-state") == "fail"
    page.screenshot(path=str(tmp_path / "tampered-die.png"), full_page=True)


def test_a_rehashed_change_is_caught_by_the_head_and_the_dice(browser: Any, sites: dict[str, Any], tmp_path: Path) -> None:
    """Operator who re-hashes the whole log after the change: the chain holds, but not its head, nor the dice."""
    events = _events(GOLDEN_LOG)
    _change_a_die(events)
    out = _tampered(sites, GOLDEN_NAME, _lines(events, rehash=True), tmp_path)
    page = open_page(browser, _url(out, GOLDEN_NAME))
    checks = _checks(page)
    assert checks["chain"][0] == "fail" and len(checks["chain"][1]) == 1
    assert checks["chain"][1][0].startswith("head: the log ends at 396:")
    assert checks["chain"][1][0].endswith(f"but this site published {GOLDEN_HEAD[:20]}…: the log was cut or rewritten after it")
    assert checks["dice"] == ["fail", ["roll #11, turn 2 (siege): the ledger shows 58, but its public value gives 61"]]
    page.screenshot(path=str(tmp_path / "tampered-rehashed.png"), full_page=True)


def test_a_forged_beacon_is_named_with_its_round(browser: Any, sites: dict[str, Any], tmp_path: Path) -> None:
    """Operator who records a beacon of its choice (round 123's real signature as round 657413's), with its
    randomness and every hash made to match."""
    events = _events(sites["me_log"])
    beacon = next(e for e in events if e["kind"] == "beacon.recorded")
    assert beacon["data"]["round"] == 657413
    forged = RECORDED_BEACONS[123]
    beacon["data"]["signature"], beacon["data"]["randomness"] = forged["signature"], forged["randomness"]
    out = _tampered(sites, ME_NAME, _lines(events, rehash=True), tmp_path)
    page = open_page(browser, _url(out, ME_NAME))
    checks = _checks(page)
    assert checks["beacons"] == ["fail", [f"event #{beacon['seq']} (round 657413): the signature of round 657413 does "
                                          "not verify under quicknet's public key"]]
    assert checks["dice"][0] == "fail" and checks["dice"][1][0].startswith("roll #1, turn 1 (t1.draw.A1.pick): the "
                                                                          "ledger shows 1200124312, but its public value gives ")
    assert page.text_content("#verify-status") == "✗ 3 checks failed: see below where."
    page.screenshot(path=str(tmp_path / "tampered-beacon.png"), full_page=True)


@pytest.mark.parametrize("value", [
    {"f": 1.0, "g": 0.1, "h": 1e16, "i": 1.5e-5, "j": -0.0, "k": 123456789012345678901234567890, "l": 2.5e300},
    {"é": "ñ\u2028\x00\x1f\"\\/", "Z": [True, False, None], "a": {"b": "😀", "\ud7ff": "\ue000"}, "😀": 1, "\uffff": 2},
])
def test_the_page_writes_canonical_json_as_the_engine_does(browser: Any, sites: dict[str, Any], value: Any) -> None:
    """The chain is only as good as the page's copy of engine/canonical.py: floats, big ints, escapes, key order."""
    page = open_page(browser, _url(sites["out"], ME_NAME))
    text = json.dumps(value, ensure_ascii=False)
    assert page.evaluate("line => window.legatusCanonical(line)", text) == canonical.dumps(value)


def test_a_campaign_drawn_from_another_chain_is_not_passed(browser: Any, tmp_path: Path) -> None:
    """Operator with the environment: beacons of a chain whose key it holds (the recorded commit-reveal campaign was
    played on the tests' own chain) verify under that key, never under quicknet's, which the page pins."""
    log = (Path(__file__).resolve().parents[2] / "data" / "golden" / "mare-nostrum-commit-reveal-v1.log").read_text(
        encoding="utf-8")
    write_site(tmp_path / "site", [("cr", log)], DATA)
    page = open_page(browser, _url(tmp_path / "site", "cr"))
    checks = _checks(page)
    assert checks["beacons"][0] == "fail"
    assert checks["beacons"][1][0] == ("event #1: the log names the drand chain 'legatus test chain', not quicknet: "
                                       "its beacons are checked against quicknet's pinned key")
    assert checks["beacons"][1][1:] == [f"event #{seq} (round {r}): the signature of round {r} does not verify under "
                                        "quicknet's public key" for seq, r in ((8, 31782938), (16, 31782948), (19, 31782958))]
    assert checks["time"][1] == ["event #1: 4 drand bindings are on a chain that is not quicknet: their round times "
                                 "cannot be checked against quicknet's clock"]
    # Its numbers came from the seed (commit_reveal_rule 1): left to legatus verify, in words, not passed.
    assert page.text_content("#check-dice .verdict") == " — passed: 1 roll derived again, 4 left to legatus verify"
    page.screenshot(path=str(tmp_path / "test-chain.png"), full_page=True)


@pytest.mark.parametrize("day", ["2023-01-05", "2023-03-25", "2023-03-26", "2023-07-01", "2023-10-28", "2023-10-29"])
def test_the_page_holds_a_draw_at_20_00_in_rome_as_the_engine_does(browser: Any, sites: dict[str, Any], day: str) -> None:
    """Summer and winter time, and the days the clocks change: the binding check's moment of a lottery draw."""
    import datetime as dt

    from engine.lotto import held_at

    page = open_page(browser, _url(sites["out"], ME_NAME))
    expected = held_at(dt.date.fromisoformat(day)).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert page.evaluate("day => window.legatusDrawHeldAt(day)", day) == expected


def test_a_roll_bound_after_its_round_is_named(browser: Any, sites: dict[str, Any], tmp_path: Path) -> None:
    """Operator who writes the binding of roll #1 once round 657413 was out (its time moved after the round's, the
    round it knew moved with it), every hash made to match."""
    events = _events(sites["me_log"])
    binding = events[3]  # after the two set-up orders
    assert binding["draws"] == ["drand:657413"]
    binding["at"], binding["known_round"] = "2023-09-15T11:00:05+00:00", 657413
    out = _tampered(sites, ME_NAME, _lines(events, rehash=True), tmp_path)
    page = open_page(browser, _url(out, ME_NAME))
    checks = _checks(page)
    assert checks["time"] == ["fail", ["roll #1, turn 1 (t1.draw.A1.pick): event #4 was made when round 657413 was "
                                       "already known, not before drand round 657413"]]
    del binding["known_round"]
    out = _tampered(sites, ME_NAME, _lines(events, rehash=True), tmp_path / "again")
    checks = _checks(open_page(browser, _url(out, ME_NAME)))
    assert checks["time"] == ["fail", ["roll #1, turn 1 (t1.draw.A1.pick): bound by event #4 at 2023-09-15T11:00:05Z, "
                                       "not 6 s before drand round 657413 (2023-09-15T11:00:03Z)"]]
