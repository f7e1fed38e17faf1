"""The sources of chance a campaign may be created with are the registry's offered ones (engine/chance/registry.py):
the service, the CLI and Discord read them there, and a source for scenario tests is none of them."""
from __future__ import annotations

import pytest

from bot.cli.main import build_parser
from bot.service.legatus import Legatus
from tests.conftest import PLAYERS
from tests.log_tools import events_of


def test_a_source_for_scenario_tests_is_refused_for_a_campaign(service: Legatus) -> None:
    """Attacker: a GM who creates a campaign on fixed values chooses every roll before it is bound."""
    reply = service.create_campaign("f", "mare-nostrum", "gm", dict(PLAYERS), randomness="fixed")
    assert not reply.changed
    assert reply.render() == "unknown randomness 'fixed': use 'lottery', 'drand' or 'commit-reveal'"
    assert service.campaign_names() == []


def test_the_command_line_offers_the_registry_s_sources_only(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    assert parser.parse_args(["new", "--randomness", "drand"]).randomness == "drand"
    with pytest.raises(SystemExit):
        parser.parse_args(["new", "--randomness", "fixed"])
    assert "invalid choice: 'fixed' (choose from 'lottery', 'drand', 'commit-reveal')" in capsys.readouterr().err


def test_each_offered_source_writes_its_own_fields_into_a_new_campaign(service: Legatus) -> None:
    service.create_campaign("l", "mare-nostrum", "gm", dict(PLAYERS), randomness="lottery")
    assert events_of(service, "l")[0].data["lottery_slots"] == 2 and "mix" not in events_of(service, "l")[0].data
