"""Each event of a drand campaign says the newest round whose beacon the bot held (``known_round``): a lower bound
on its time that the operator's clock does not give. Verify reports an event stamped before it."""
from __future__ import annotations

import json
from datetime import timedelta

from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from tests.games.test_blind_auction_shell import play_a_tie, say, table  # noqa: F401  (the drand game through the service)


def _events(service) -> list[Event]:  # type: ignore[no-untyped-def]
    return [Event.from_dict(json.loads(line)) for line in service.export().splitlines()]


def test_an_event_made_with_the_clock_set_back_is_caught_by_the_round_it_knew(table) -> None:  # type: ignore[no-untyped-def]
    """Attacker: the operator with the clock, who sets it back an hour once the bot has fetched a beacon."""
    service, console, clock = table
    assert service.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"},
                                   clock="live").changed
    play_a_tie(console, clock)
    honest = _events(service)
    beacon = next(e for e in honest if e.kind == "beacon.recorded")
    ruleset = load_ruleset("blind-auction", service.data_dir)
    assert_verified_but_for_the_test_chain(verify(ruleset, honest, {}))
    clock.advance(timedelta(hours=-1))
    say(console, "ann> bid 2")
    events = _events(service)
    late = events[-1]
    assert late.seq > beacon.seq and late.known_round == beacon.data["round"], late
    result = verify(ruleset, events, {})
    assert [str(f) for f in result.findings if f.purpose == "time"] == [
        f"event #{late.seq}: time: stamped {late.at.replace('+00:00', 'Z')}, but the bot already held drand round "
        f"{beacon.data['round']}, produced at "
        f"{result_time(events, beacon.data['round'])}: the log's clock was set back"]


def result_time(events: list[Event], round_no: int) -> str:
    import datetime as dt

    from bot.drand.beacons import chain_from_dict
    from engine.chance import drand

    chain = chain_from_dict(events[0].data.get("drand_chain"))
    return dt.datetime.fromtimestamp(drand.time_of(round_no, chain), dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
