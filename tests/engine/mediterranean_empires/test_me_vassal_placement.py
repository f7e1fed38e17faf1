"""7.2a: a vassal state allows "the controlling side to place recruited units (from any powers friendly to the
controlling side) in any land area (with a city) occupied by the vassal's units". Issue 24: refused."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from tests.engine.mediterranean_empires.me_play import Play


def recruiting_with_genoa_as_vassal_of_a() -> Play:
    play = Play()
    st = play.state
    st.status["Genoa"], st.side_of["Genoa"] = "vassal", "A"  # Genoa's units stand in Genoa, a city
    st.phase, st.to_move = "recruitment", "A"
    st.sides["A"].treasury = 9
    return play


def test_a_recruit_is_placed_in_a_city_the_vassals_units_occupy() -> None:
    play = recruiting_with_genoa_as_vassal_of_a()
    levies = sum(1 for u in play.state.units.values() if (u.power, u.kind, u.area) == ("France", "levy", "Genoa"))
    play.order("A", "recruit a field army of France in Genoa")
    assert sum(1 for u in play.state.units.values()
               if (u.power, u.kind, u.area) == ("France", "field_army", "Genoa")) == 1
    assert levies == 0 and any("recruits 1 field army(s) of France in Genoa" in m for m in play.messages)


def test_not_where_the_vassal_has_no_unit_nor_without_a_city() -> None:
    play = recruiting_with_genoa_as_vassal_of_a()
    for uid in [u.id for u in play.state.units_in("Genoa")]:
        del play.state.units[uid]
    with pytest.raises(Rejection, match=r"or in a city your vassal's units occupy \(7.2a\); Genoa is neither"):
        play.order("A", "recruit a field army of France in Genoa")
