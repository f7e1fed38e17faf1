"""Hole 1 of issue 22: "the operator picks the drand chain". LEGATUS_DRAND_CHAIN went into the campaign and verify
checked beacons against whatever key the log named, so an operator holding a chain's secret key knew every drand
roll, every commit-reveal number mixed with it and every stratagem pick before it was bound, and verify passed.

A campaign now draws from drand quicknet, pinned in the code; any other chain only in an explicit test mode that
marks the campaign "test chain: not verifiable", which verify never passes."""
from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from bot.cli.main import main
from bot.console.offline import Console
from bot.drand.beacons import BeaconSource, chain_to_dict
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.service.verify_text import verification_text
from bot.store.campaigns import CampaignRow
from bot.store.db import open_engine
from engine.chance import drand
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import (
    TEST_CHAIN, TEST_SECRET, FakeRelay, public_key, recorded_quicknet_relay, serving, sign, signed_beacon,
)
from tests.games.test_blind_auction_shell import PLUGIN, play_a_tie, say
from tests.log_tools import events_of, rechained

NOT_VERIFIABLE = "test chain: not verifiable"
# A tie announced at this moment binds round 657413 (docs/randomness.md, section 2), recorded from quicknet.
QUICKNET_START = datetime.fromtimestamp(1694775590, timezone.utc)
SEATS = {"North": "ann", "South": "bob"}


def operator_chain_file(tmp_path: Path, chain: drand.Chain = TEST_CHAIN) -> Path:
    """The operator's own chain, whose secret key they hold, as LEGATUS_DRAND_CHAIN names it."""
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(chain_to_dict(chain)), encoding="utf-8")
    return path


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEGATUS_RULESETS", PLUGIN["LEGATUS_RULESETS"])


@pytest.fixture
def quicknet_game(tmp_path: Path, plugin: None) -> Iterator[tuple[Legatus, Console, FixedClock]]:
    """A drand campaign on quicknet, its tie settled by a real recorded quicknet beacon."""
    clock = FixedClock(QUICKNET_START)
    with serving(recorded_quicknet_relay()) as relay:
        service = Legatus(open_engine(tmp_path / "q.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(drand.QUICKNET, [relay.url], timeout=2, attempts=1),
                                       clock=lambda: clock.now().timestamp())
        console = Console(service)
        created = service.create_campaign("auction", "blind-auction", "gm", dict(SEATS), clock="live")
        assert created.changed, created.render()
        play_a_tie(console, clock)
        yield service, console, clock


def test_an_operator_chain_is_refused_at_creation_without_test_mode(
        tmp_path: Path, plugin: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Operator with the environment: LEGATUS_DRAND_CHAIN names a chain whose secret key they hold. No campaign is
    made on it, the message says why and what would be right, and nothing is written."""
    monkeypatch.setenv("LEGATUS_DRAND_CHAIN", str(operator_chain_file(tmp_path)))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=FixedClock(datetime(2026, 11, 1, 12, tzinfo=timezone.utc)))
    for randomness in ("drand", "commit-reveal"):
        reply = service.create_campaign(f"c-{randomness}", "blind-auction", "gm", dict(SEATS), randomness=randomness)
        said = reply.render()
        assert not reply.changed, said
        assert "legatus test chain" in said and TEST_CHAIN.hash[:16] in said, said  # quotes what was wrong
        assert "quicknet" in said and "LEGATUS_DRAND_TEST_CHAIN=1" in said, said  # says what would be right
    with Session(service.engine) as session:
        assert session.exec(select(CampaignRow)).all() == []
    # A lottery campaign draws nothing from drand: the chain setting does not concern it.
    assert service.create_campaign("lotto", "mare-nostrum", "gm", {}, randomness="lottery").changed


def test_in_test_mode_the_campaign_and_its_views_are_marked_and_verify_fails(
        tmp_path: Path, plugin: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Operator with the environment, opting into test mode: the campaign is made, but campaign.created, the
    export, /ledger, /state and the announcement say "test chain: not verifiable"; `legatus verify` exits non-zero
    on it and the in-bot /verify never says ok."""
    clock = FixedClock(datetime(2026, 11, 1, 12, tzinfo=timezone.utc))
    with serving(FakeRelay()) as relay:
        monkeypatch.setenv("LEGATUS_DRAND_CHAIN", str(operator_chain_file(tmp_path)))
        monkeypatch.setenv("LEGATUS_DRAND_TEST_CHAIN", "1")
        monkeypatch.setenv("LEGATUS_DRAND_RELAYS", relay.url)
        service = Legatus(open_engine(tmp_path / "t.db"), clock=clock)
        console = Console(service)
        created = service.create_campaign("auction", "blind-auction", "gm", dict(SEATS))
        assert created.changed, created.render()
        assert NOT_VERIFIABLE in created.render() and TEST_CHAIN.hash in created.render()
        play_a_tie(console, clock)
        events = events_of(service)
        assert any(e.kind == "beacon.recorded" for e in events), "a test chain still serves its test campaign"
        assert events[0].data["drand_chain"]["hash"] == TEST_CHAIN.hash
        assert NOT_VERIFIABLE in service.export()
        assert NOT_VERIFIABLE in say(console, "ann> /ledger")
        assert NOT_VERIFIABLE in say(console, "ann> /state")

        result = verify(load_ruleset("blind-auction", service.data_dir), events, {})
        assert not result.ok and any(NOT_VERIFIABLE in f.detail for f in result.findings), \
            [str(f) for f in result.findings]
        in_bot, _ = service.verify("auction")
        text = verification_text(in_bot)
        assert not in_bot.ok and not text.startswith("✓") and NOT_VERIFIABLE in text, text

        log = tmp_path / "log.jsonl"
        log.write_text(service.export(), encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["verify", str(log)])
        assert code != 0 and NOT_VERIFIABLE in out.getvalue(), out.getvalue()

        # Every other view: the Discord state card, and the command line's ledger, state and export.
        assert any(NOT_VERIFIABLE in value for _, value in service.state_card("auction").fields())
        db = str(tmp_path / "t.db")
        for command in (["ledger"], ["ledger", "--json"], ["state"], ["export", "--out", str(tmp_path / "x.log")]):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                assert main([*command, "--db", db]) == 0, err.getvalue()
            assert NOT_VERIFIABLE in out.getvalue(), (command, out.getvalue())
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            assert main(["state", "--json", "--db", db]) == 0
        assert json.loads(out.getvalue()) and NOT_VERIFIABLE in err.getvalue()  # stdout stays JSON


def test_quicknet_campaigns_still_verify_with_real_beacons(quicknet_game: tuple[Legatus, Console, FixedClock]) -> None:
    """Outsider with the export: a quicknet campaign's real recorded beacon verifies against the pinned key."""
    service, _, _ = quicknet_game
    events = events_of(service)
    beacons = [e for e in events if e.kind == "beacon.recorded"]
    assert [b.data["round"] for b in beacons] == [657413]
    result = verify(load_ruleset("blind-auction", service.data_dir), events, {})
    assert result.ok and result.beacons_checked == 1, [str(f) for f in result.findings]
    assert NOT_VERIFIABLE not in service.export()
    assert verification_text(result).startswith("✓ Every number matches its drand beacon")
    assert not any("Randomness" == name for name, _ in service.state_card("auction").fields())


def test_the_announcement_of_a_campaign_names_the_quicknet_chain_hash(tmp_path: Path, plugin: None) -> None:
    """Outsider reading the channel: the post that creates a drand or commit-reveal campaign names its chain, so
    anyone can see at once that its rolls come from quicknet, whatever the operator's settings."""
    with serving(recorded_quicknet_relay()) as relay:
        service = Legatus(open_engine(tmp_path / "a.db"), clock=FixedClock(QUICKNET_START))
        service.beacons = BeaconSource(DrandClient(drand.QUICKNET, [relay.url], timeout=2, attempts=1))
        for randomness in ("drand", "commit-reveal"):
            reply = service.create_campaign(f"c-{randomness}", "blind-auction", "gm", dict(SEATS),
                                            randomness=randomness)
            assert reply.changed and drand.QUICKNET.hash in reply.render(), reply.render()
            assert NOT_VERIFIABLE not in reply.render()
        lottery = service.create_campaign("lotto", "mare-nostrum", "gm", {}, randomness="lottery")
        assert drand.QUICKNET.hash not in lottery.render()


def _with_operator_beacons(events: list[Event], created_data: dict[str, Any]) -> list[Event]:
    """The log with campaign.created edited, and every beacon replaced by the operator chain's signature of its round
    (what the operator could have computed at any time), hashed anew."""
    out = [replace(events[0], data=created_data)]
    for event in events[1:]:
        if event.kind == "beacon.recorded":
            event = replace(event, data={**event.data, **signed_beacon(int(event.data["round"]))})
        out.append(event)
    return rechained(out)


def test_a_log_edited_to_name_the_operators_chain_fails_verify(
        quicknet_game: tuple[Legatus, Console, FixedClock]) -> None:
    """Operator with the database: the log is rewritten to name their own chain's key, its beacons signed with it.
    Without the test mark verify checks against the pinned quicknet key, never the key the log names."""
    service, _, _ = quicknet_game
    events = events_of(service)
    ruleset = load_ruleset("blind-auction", service.data_dir)
    forged = _with_operator_beacons(events, {**events[0].data, "drand_chain": chain_to_dict(TEST_CHAIN)})
    result = verify(ruleset, forged, {})
    assert not result.ok, "a log naming the operator's chain verified"
    said = [str(f) for f in result.findings]
    assert any("quicknet" in f and "legatus test chain" in f for f in said), said
    assert any(f.purpose == "drand round 657413" for f in result.findings), said
    # The same forgery under quicknet's name and hash, only the key changed: refused too.
    impostor = {**chain_to_dict(drand.QUICKNET), "public_key": TEST_CHAIN.public_key}
    hidden = verify(ruleset, _with_operator_beacons(events, {**events[0].data, "drand_chain": impostor}), {})
    assert not hidden.ok and any(f.purpose == "drand round 657413" for f in hidden.findings), \
        [str(f) for f in hidden.findings]
    # Marking the edited log as a test chain does not make it pass either.
    marked = {**events[0].data, "drand_chain": chain_to_dict(TEST_CHAIN), "drand_test_chain": NOT_VERIFIABLE}
    assert not verify(ruleset, _with_operator_beacons(events, marked), {}).ok


def test_the_bot_refuses_beacons_of_a_chain_other_than_the_campaigns(
        tmp_path: Path, plugin: None) -> None:
    """Operator with the environment: a quicknet campaign's bot is pointed at a chain under quicknet's name and hash
    whose key is the operator's. The campaign's pinned chain is quicknet: the bot records none of its beacons."""
    impostor = drand.Chain("quicknet", drand.QUICKNET.hash, public_key(TEST_SECRET), drand.QUICKNET.genesis,
                           drand.QUICKNET.period)
    clock = FixedClock(QUICKNET_START)
    with serving(recorded_quicknet_relay()) as real, serving(FakeRelay(chain=impostor)) as fake:
        service = Legatus(open_engine(tmp_path / "i.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(drand.QUICKNET, [real.url], timeout=2, attempts=1),
                                       clock=lambda: clock.now().timestamp())
        console = Console(service)
        assert service.create_campaign("auction", "blind-auction", "gm", dict(SEATS), clock="live").changed
        for line in ("ann> hand 9 5 2", "bob> hand 3 5 8", "ann> bid 5", "bob> bid 5"):
            say(console, line)
        service.beacons = BeaconSource(DrandClient(impostor, [fake.url], timeout=2, attempts=1), test_chain=True,
                                       clock=lambda: clock.now().timestamp())
        clock.advance(timedelta(seconds=30))
        said = say(console, "ann> /status")
        assert not any(e.kind == "beacon.recorded" for e in events_of(service)), said
        assert "quicknet" in said and "wait" in said, said
        assert not fake.hits or all("/public/" not in hit for hit in fake.hits), fake.hits


def test_test_mode_is_an_explicit_opt_in_of_the_environment(tmp_path: Path) -> None:
    """Operator with the environment: the chain file alone gives no campaign; LEGATUS_DRAND_TEST_CHAIN=1 must be
    set as well, and quicknet needs neither."""
    from bot.drand.beacons import from_env

    chain = str(operator_chain_file(tmp_path))
    relays = {"LEGATUS_DRAND_RELAYS": "http://127.0.0.1:9"}
    assert from_env(relays).creation_problem() is None and not from_env(relays).is_test
    alone = from_env({**relays, "LEGATUS_DRAND_CHAIN": chain})
    assert alone.is_test and "LEGATUS_DRAND_TEST_CHAIN=1" in str(alone.creation_problem())
    for no in ("", "0", "no"):
        assert from_env({**relays, "LEGATUS_DRAND_CHAIN": chain, "LEGATUS_DRAND_TEST_CHAIN": no}).creation_problem()
    opted = from_env({**relays, "LEGATUS_DRAND_CHAIN": chain, "LEGATUS_DRAND_TEST_CHAIN": "1"})
    assert opted.is_test and opted.creation_problem() is None


def test_a_chain_file_that_cannot_be_read_refuses_the_campaign_in_one_line(
        tmp_path: Path, plugin: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Operator with the environment, by mistake: the message quotes the setting and says what would be right."""
    bad = tmp_path / "chain.json"
    bad.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("LEGATUS_DRAND_CHAIN", str(bad))
    service = Legatus(open_engine(tmp_path / "b.db"), clock=FixedClock(QUICKNET_START))
    reply = service.create_campaign("auction", "blind-auction", "gm", dict(SEATS))
    assert not reply.changed and "no campaign created: LEGATUS_DRAND_CHAIN=" in reply.render(), reply.render()
    assert "unset it for quicknet" in reply.render() and "Traceback" not in reply.render()


def test_the_beacon_source_refuses_a_campaign_pinned_to_another_chain_before_asking_any_relay() -> None:
    """Operator with the environment: the bot's source serves one chain; a beacon asked for a campaign pinned to
    another (a quicknet campaign on a test-chain bot, a test campaign on a quicknet bot, a test chain without the
    opt-in) is refused, and no relay is asked."""
    from bot.drand.beacons import WrongChain
    from engine.chance.pinned_chain import NOT_VERIFIABLE as MARK, campaign_chain

    quicknet_campaign = campaign_chain({"drand_chain": chain_to_dict(drand.QUICKNET)})
    test_campaign = campaign_chain({"drand_chain": chain_to_dict(TEST_CHAIN), "drand_test_chain": MARK})
    with serving(FakeRelay()) as relay:
        for source, campaign in (
            (BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1), test_chain=True),
             quicknet_campaign),
            (BeaconSource(DrandClient(drand.QUICKNET, [relay.url], timeout=2, attempts=1)), test_campaign),
            (BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1)), test_campaign),
        ):
            with pytest.raises(WrongChain, match="its rolls wait"):
                source(7, campaign)
        assert relay.hits == []
        served = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1), test_chain=True)
        beacon = served(7, test_campaign)
        assert beacon is not None and beacon.signature == sign(7)
