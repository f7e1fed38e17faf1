"""12.0 Crusade: the drawing player picks the fleet and the two other units it sends; they come back in the Joint
Recruitment Phase of a later game turn; without a fleet on the map, the first purchase must be a fleet. Played
through the Ruleset."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from tests.engine.mediterranean_empires.me_play import Play


def crusade_drawn(answers: dict[str, object] | None = None, *, fleets: bool = True) -> Play:
    p = Play()
    st = p.state
    st.unseen, st.pope = ["Crusade"], "A"  # the pool holds the Crusade alone, and nobody holds a marker
    if not fleets:
        for uid in [u.id for u in st.units.values() if u.kind == "fleet" and st.side_of.get(u.power) == "A"]:
            del st.units[uid]
    p.twin()  # the export's fold, which knows no marker but the Crusade shown, takes the same steps
    p.order("A", "draw")
    p.drive([1], answers)
    p.twin(False)
    return p


def to_recruitment(p: Play, turn: int) -> None:
    """The last political pass of the game turn: TPs, Kings, then the 1d6 roll-off (ties: Player A, who goes first)."""
    st = p.state
    st.turn, st.phase, st.political_round, st.to_move = turn, "political", 3, "B"
    p.order("B", "pass")
    p.drive([], fill=3)
    assert st is not p.state and p.state.phase == "recruitment" and p.state.to_move == "A"


def test_the_player_picks_the_fleet_and_both_units() -> None:
    p = crusade_drawn({"crusader": ["fleet of Anjou in Ionian Sea", "field army of France in Provence County"]})
    fleet_q, first_q, second_q = [q for q in p.asked if q.what.startswith("The Crusade")]
    assert fleet_q.seat == "Player A" and "fleet of France in Gulf of Lion" in fleet_q.choices
    assert "fleet of Anjou in Ionian Sea" in fleet_q.choices
    assert first_q.on_timeout.startswith("levy of "), "the default is the cheapest: a levy (no mercenaries in A)"
    assert not any(c.startswith("raiders") for c in first_q.choices + second_q.choices)
    aside = p.state.sides["A"].set_aside
    assert aside[0] == ["Anjou", "fleet", 1] and aside[1] == ["France", "field_army", 1] and aside[2][1] == "levy"
    assert "The Pope calls a Crusade: Player A sends 3 unit(s) to the Holy Land." in p.messages
    assert p.state.phase == "political", "the pool is empty: the picks are over"


def test_crusaders_skip_the_same_turns_recruitment_and_come_back_in_a_later_one() -> None:
    p = crusade_drawn({"crusader": ["fleet of Anjou in Ionian Sea", "field army of France in Provence County"]})
    to_recruitment(p, 1)
    assert not any("come back" in m for m in p.messages)
    p.order("A", "done")
    assert len(p.state.sides["A"].set_aside) == 3
    to_recruitment(p, 2)
    assert any(m.startswith("Player A's crusaders come back from the Holy Land: fleet of Anjou, field army of France")
               for m in p.messages)
    before = len(p.state.units_in("Vienne"))
    with pytest.raises(Rejection, match="no raiders of France is coming back"):
        p.order("A", "return raiders of France to Vienne")
    with pytest.raises(Rejection, match="occupy \\(7.2a\\); Rosselló is neither"):
        p.order("A", "return a field army of France to Rosselló")
    p.order("A", "return a field army of France to Vienne")
    assert len(p.state.units_in("Vienne")) == before + 1
    # 'done' brings the rest back to their default places: where most of their power's units stand.
    p.order("A", "done")
    assert p.state.sides["A"].set_aside == []
    back = [m for m in p.messages if "comes back from the Crusade" in m]
    assert len(back) == 3 and back[0] == "A field army of France comes back from the Crusade to Vienne."
    # A returning unit is no recruit: the treasury has not paid for it.
    assert "fleet of Anjou comes back" in back[1] or "fleet of Anjou comes back" in back[2]


def test_without_a_fleet_the_first_purchase_is_a_fleet_that_sails_for_the_holy_land() -> None:
    p = crusade_drawn(fleets=False)
    assert p.state.sides["A"].set_aside[-1] == ["owed", "fleet", 1]
    to_recruitment(p, 1)
    with pytest.raises(Rejection, match="the first unit you buy this phase must be a fleet"):
        p.order("A", "recruit 2 levies of France in Vienne")
    treasury = p.state.sides["A"].treasury
    p.order("A", "recruit a fleet of France in Gulf of Lion")
    assert p.state.sides["A"].treasury == treasury - 2
    assert ["France", "fleet", 1] in p.state.sides["A"].set_aside
    assert not any(u.kind == "fleet" and u.power == "France" for u in p.state.units.values())
    p.order("B", "done")
    p.order("A", "recruit 2 levies of France in Vienne")  # the obligation is met
    assert not any(e[0] == "owed" for e in p.state.sides["A"].set_aside)


def test_crusaders_are_not_in_the_recruit_pool() -> None:
    p = crusade_drawn({"crusader": ["fleet of Anjou in Ionian Sea"]})
    to_recruitment(p, 1)
    p.state.sides["A"].treasury = 10
    # Anjou has 3 fleet counters (a CHOICE in the data): one on the map, one on the Crusade, one in the pool.
    p.order("A", "recruit a fleet of Anjou in Ionian Sea")
    p.order("B", "done")
    with pytest.raises(Rejection, match="Anjou has 0 fleet counter"):
        p.order("A", "recruit a fleet of Anjou in Ionian Sea")
