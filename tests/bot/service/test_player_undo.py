"""A player's own undo (/undo): it names the order first, takes back only the author's latest order while their
turn lasts and nothing random was seen since, and the log with it replays and verifies like any other."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.service.legatus import Legatus
from engine.events import Event, Rejection
from engine.log import PLAYER_UNDO, replay
from engine.rulesets import load_ruleset
from tests.conftest import LOTTO, PLAYERS


@pytest.fixture
def started(service: Legatus) -> Legatus:
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    assert service.post("gm", "/turn open 2023-01-03").ok
    return service


def _events(service: Legatus) -> list[Event]:
    return [Event.from_dict(json.loads(line)) for line in service.export().splitlines()]


def test_undo_names_the_order_then_takes_it_back_and_the_log_replays(started: Legatus) -> None:
    first = next(n for n, p in PLAYERS.items() if n == started.state()["order_of_play"][0])
    player = PLAYERS[first]
    assert started.post(player, "build suburbs in Syria").ok
    seq = _events(started)[-1].seq
    preview = started.post(player, "/undo")
    assert preview.ok and not preview.changed
    assert f"your latest order is #{seq}: {player}'s order 'build suburbs in Syria'" in preview.render()
    assert "is not an order number" in started.post(player, "/undo please").render()
    someone = next(p for n, p in PLAYERS.items() if p != player)
    assert "the latest decision is not yours" in started.post(someone, f"/undo {seq}").render()
    done = started.post(player, f"/undo {seq}")
    assert done.ok and done.changed and f"takes back their order #{seq}" in done.render()
    # The latest decision is now the GM's opening of the turn: not the player's to take back.
    assert "the latest decision is not yours" in started.post(player, "/undo").render()
    ruleset = load_ruleset("mare-nostrum", started.data_dir)
    events = _events(started)
    assert events[-1].kind == PLAYER_UNDO
    assert json.dumps(ruleset.public_view(replay(ruleset, events).state), sort_keys=True) == \
        json.dumps(started.state(), sort_keys=True)
    # A log where someone else takes the order back does not replay: the engine checks it, not only the shell.
    assert started.post(player, "build suburbs in Syria").ok
    forged = _events(started)
    target = forged[-1].seq
    bad = replace(forged[-1], seq=target + 1, kind=PLAYER_UNDO, actor=someone, data={"target": target}, hash="")
    with pytest.raises(Rejection, match="not yours"):
        replay(ruleset, [*forged, bad])


def test_no_undo_once_the_turn_has_passed(started: Legatus) -> None:
    player = PLAYERS[started.state()["order_of_play"][0]]
    assert started.post(player, "build suburbs in Syria").ok
    seq = _events(started)[-1].seq
    assert started.post(player, "pass").ok
    # The pass is the latest decision now; the order before it is the GM's to undo.
    refused = started.post(player, f"/undo {seq}").render()
    assert "✗" in refused and "your turn has passed" in refused, refused
