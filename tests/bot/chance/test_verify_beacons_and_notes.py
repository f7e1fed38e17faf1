"""Hole: "a recorded drand beacon is taken on trust, and the record's notes are never shown". Verify checks every
``beacon.recorded`` signature offline against quicknet's pinned key (a campaign marked as on a test chain: against
that chain, and it never passes) and that randomness = SHA-256(signature); the CLI and the in-bot /verify print the
notes (historical, voids, GM-typed draws)."""
from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.service.legatus import Legatus
from engine.chance import drand
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import RECORDED, TEST_SECRET, assert_verified_but_for_the_test_chain, sign
from tests.games.test_blind_auction_shell import play_a_tie, table  # noqa: F401  (the drand game through the service)
from tests.log_tools import rechained


def _auction(table) -> tuple[Legatus, list[Event]]:  # type: ignore[no-untyped-def]
    service, console, clock = table
    assert service.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"}).changed
    play_a_tie(console, clock)
    events = [Event.from_dict(json.loads(line)) for line in service.export().splitlines()]
    assert any(e.kind == "beacon.recorded" for e in events)
    return service, events


def _forged(events: list[Event], signature: str) -> list[Event]:
    n = next(i for i, e in enumerate(events) if e.kind == "beacon.recorded")
    data = {**events[n].data, "signature": signature, "randomness": drand.randomness(signature)}
    return rechained([*events[:n], replace(events[n], data=data), *events[n + 1:]])


def test_recorded_beacons_are_checked_against_the_campaigns_chain(table) -> None:  # type: ignore[no-untyped-def]
    service, events = _auction(table)
    ruleset = load_ruleset("blind-auction", service.data_dir)
    good = verify(ruleset, events, {})
    assert_verified_but_for_the_test_chain(good)  # the tests' chain: its beacons are checked for consistency only
    assert good.beacons_checked == 1
    round_no = int(next(e for e in events if e.kind == "beacon.recorded").data["round"])
    # Signed with another key: a well-formed beacon of the same round, not the chain's. The dice it gives differ.
    forged = verify(ruleset, _forged(events, sign(round_no, TEST_SECRET + 1)), {})
    assert any(f.purpose == f"drand round {round_no}" and "signature" in f.detail for f in forged.findings), \
        [str(f) for f in forged.findings]
    # The randomness is not SHA-256 of the signature.
    n = next(i for i, e in enumerate(events) if e.kind == "beacon.recorded")
    data = {**events[n].data, "randomness": "ab" * 32}
    bent = verify(ruleset, rechained([*events[:n], replace(events[n], data=data), *events[n + 1:]]), {})
    assert any("SHA-256" in f.detail for f in bent.findings), [str(f) for f in bent.findings]
    # In-bot /verify checks them too.
    result, _ = service.verify("auction")
    assert_verified_but_for_the_test_chain(result)
    assert result.beacons_checked == 1


def test_a_log_without_a_chain_is_checked_against_quicknet(table) -> None:  # type: ignore[no-untyped-def]
    service, events = _auction(table)
    created = events[0]
    unnamed = {k: v for k, v in created.data.items() if k not in ("drand_chain", "drand_test_chain")}
    bare = rechained([replace(created, data=unnamed), *events[1:]])
    found = verify(load_ruleset("blind-auction", service.data_dir), bare, {})
    assert any("quicknet" in f.detail for f in found.findings), [str(f) for f in found.findings]


def test_the_cli_prints_notes_and_beacon_findings(table, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    service, events = _auction(table)
    log = tmp_path / "log.jsonl"
    round_no = int(next(e for e in events if e.kind == "beacon.recorded").data["round"])
    log.write_text("".join(e.to_line() + "\n" for e in _forged(events, sign(round_no, TEST_SECRET + 1))))
    empty = tmp_path / "none.txt"
    empty.write_text("")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["verify", str(log), "--draws", str(empty)])
    assert code == 1 and f"drand round {round_no}" in out.getvalue(), out.getvalue()


def test_the_cli_prints_the_notes(service: Legatus, tmp_path: Path) -> None:
    from tests.conftest import LOTTO, PLAYERS

    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    service.post("gm", "/turn open 2023-01-03")
    service.post("antiochus", "peace treaty with Gauls")
    service.post("gm", "/gm void wrong nation")
    service.post("antiochus", "peace treaty with Gauls")
    from engine.rulesets import load_ruleset
    from tests.log_tools import assert_trace_as_without_marks, events_of

    assert_trace_as_without_marks(load_ruleset("mare-nostrum", service.data_dir), events_of(service, "c"))  # a void
    log = tmp_path / "log.jsonl"
    log.write_text(service.export("c"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["verify", str(log), "--draws", str(LOTTO / "draws-2023-01.txt")])
    said = out.getvalue()
    assert code == 0, said
    assert "note: historical: not bound in advance" in said
    assert "note: GM void" in said and "wrong nation" in said
    assert "note: the draw of 2023-01-03" in said and "imported, not fetched from two sources" in said


def test_the_in_bot_verify_answer_shows_the_anchor_and_the_notes(service: Legatus) -> None:
    from bot.service.verify_text import verification_text
    from tests.conftest import LOTTO, PLAYERS

    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    service.post("gm", "/turn open 2023-01-03")
    result, _ = service.verify("c")
    text = verification_text(result)
    assert text.startswith("✓ Every number matches the stored draws") and result.anchor in text
    assert "historical: not bound in advance" in text and "imported, not fetched from two sources" in text
    assert f"--expect-head {result.anchor}" in text


def test_a_live_campaign_on_another_chain_is_timed_by_that_chain(table) -> None:  # type: ignore[no-untyped-def]
    """Binding times of a campaign marked as on a test chain are checked against that chain's round times (its
    quicknet round numbers would mean nothing); verify still never passes it."""
    service, console, clock = table
    assert service.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"},
                                   clock="live").changed
    play_a_tie(console, clock)
    events = [Event.from_dict(json.loads(line)) for line in service.export().splitlines()]
    assert any(e.kind == "beacon.recorded" for e in events)
    result = verify(load_ruleset("blind-auction", service.data_dir), events, {})
    assert_verified_but_for_the_test_chain(result)
    # The same binding one second before its round is caught (6 s margin): time is read on the campaign's chain.
    n = next(i for i, e in enumerate(events) if e.kind == "beacon.recorded")
    round_no = int(events[n].data["round"])
    late_at = drand.time_of(round_no, load_chain(events)) - 1
    import datetime as dt

    late = [replace(e, at=dt.datetime.fromtimestamp(late_at, dt.timezone.utc).isoformat()) if 0 < i < n else e
            for i, e in enumerate(events)]
    found = verify(load_ruleset("blind-auction", service.data_dir), rechained(late), {})
    assert any("not bound in advance" in f.detail for f in found.findings), [str(f) for f in found.findings]


def load_chain(events: list[Event]) -> drand.Chain:
    from bot.drand.beacons import chain_from_dict

    return chain_from_dict(events[0].data.get("drand_chain"))
