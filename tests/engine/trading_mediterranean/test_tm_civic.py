"""The civic phase: own abilities, "give opponent" abilities in turn order (or left unused), revolutions."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.trading_mediterranean import civic, tracks
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Track

RULES = default_rules()


def test_own_abilities_arrows_and_bonuses() -> None:
    civ = new_civ(RULES, "A")
    civ.government = Track("dictatorship", 1)
    civ.buildings = ["Palace", "Citadel", "Tax House", "Barracks"]
    said = civic.own_abilities(RULES, civ)
    assert (civ.government, civ.money, civ.safety) == (Track("dictatorship", 4), 3, 1)
    assert said == ["A's government moves to dictatorship 4"]


def test_give_opponent_in_turn_order_and_a_promise_kept() -> None:
    civs = {s: new_civ(RULES, s) for s in ("A", "B", "C")}
    civs["A"].buildings = ["Watchtower"]
    civs["C"].buildings = ["Shrine"]
    said = civic.give_opponents(RULES, civs, ["C", "A", "B"], {"A": {"Watchtower": "B"}, "C": {"Shrine": None}})
    assert said == ["C leaves Shrine unused", "A's Watchtower gives B one step down safety"]
    assert (civs["B"].safety, civs["B"].happiness) == (-1, 0)


def test_give_opponent_refusals() -> None:
    civs = {s: new_civ(RULES, s) for s in ("A", "B")}
    civs["A"].buildings = ["Watchtower", "Palace"]
    with pytest.raises(Rejection, match="Watchtower gives an opponent a step down: name one of B, not 'A'"):
        civic.give_opponents(RULES, civs, ["A", "B"], {"A": {"Watchtower": "A"}})
    with pytest.raises(Rejection, match="Palace has no \"give opponent\" ability"):
        civic.give_opponents(RULES, civs, ["A", "B"], {"A": {"Palace": "B"}})
    with pytest.raises(Rejection, match="B has no building 'Shrine'"):
        civic.give_opponents(RULES, civs, ["A", "B"], {"B": {"Shrine": "A"}})


def test_a_voluntary_conversion_flips_to_zero_and_destroys_the_old_temples() -> None:
    civ = new_civ(RULES, "A")
    civ.religion = Track("venus", 3)
    civ.buildings = ["Shrine", "Oracle", "Forum"]
    assert tracks.revolt(RULES, civ, "religion") == ["A turns religion from venus to mars, on 0: Shrine, Oracle destroyed"]
    assert (civ.religion, civ.buildings) == (Track("mars", 0), ["Forum"])
    with pytest.raises(Rejection, match="'culture' is not a track that flips"):
        tracks.revolt(RULES, civ, "culture")


def test_status_tracks_stop_at_their_ends() -> None:
    civ = new_civ(RULES, "A")
    tracks.step(RULES, civ, "happiness", 50)
    tracks.step(RULES, civ, "safety", -50)
    assert (civ.happiness, civ.safety) == (5, -10)
