"""A game's reading of its rules is versioned in campaign.created: a new campaign carries the ruleset's newest, a game
without versions (Mare Nostrum) gets no field, and an older log without it folds by its first reading."""
from __future__ import annotations

import json

from bot.service.legatus import Legatus
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset
from engine.mediterranean_empires.rules_version import NEWEST


def created_data(service: Legatus, name: str) -> dict:
    first = json.loads(service.export(name).splitlines()[0])
    assert first["kind"] == "campaign.created"
    return first["data"]


def test_a_new_mediterranean_empires_campaign_follows_the_newest_reading(service: Legatus) -> None:
    assert service.create_campaign("new", "mediterranean-empires", "gm", {}, randomness="lottery").changed
    assert created_data(service, "new")["rules_version"] == NEWEST == 3
    events = [Event.from_dict(json.loads(line)) for line in service.export("new").splitlines()]
    assert replay(load_ruleset("mediterranean-empires", service.data_dir), events).state.rules_version == 3


def test_a_game_without_versions_gets_no_field(service: Legatus) -> None:
    assert service.create_campaign("mn", "mare-nostrum", "gm", {}, randomness="lottery").changed
    assert "rules_version" not in created_data(service, "mn")
