"""10.1, "A force may pick up any friendly units that have not yet been activated. Exception: Additional units may
not be picked up in the initial area once a force has started its action" (rules version 2). A force is of one
power (10.0 1), so the units picked up are of the force's power."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.mediterranean_empires.rules_version import SEED_READINGS
from tests.engine.mediterranean_empires.me_play import Play


def marching(version: int | None = SEED_READINGS) -> Play:
    """A French field army activated in Montpellier (7 OPs) with two French levies and an Anjou levy waiting in Albi,
    a French field army left behind in Montpellier."""
    p = Play(rules_version=version)
    st = p.state
    st.phase, st.to_move = "operations A", "A"
    p.clear("Montpellier", "Albi")
    st.owner["Montpellier"] = st.owner["Albi"] = "A"
    p.put("France", "field_army", "Montpellier")
    p.put("France", "levy", "Albi")
    p.put("France", "levy", "Albi")
    p.put("Anjou", "levy", "Albi")
    p.order("A", "activate a field army of France in Montpellier")
    p.drive([3, 4])
    p.put("France", "field_army", "Montpellier")
    return p


def test_a_land_force_picks_up_friendly_units_not_yet_activated_where_it_moves() -> None:
    p = marching()
    p.order("A", "move to Albi")
    p.drive([], fill=1)
    p.order("A", "pick up a levy from Albi")
    f = p.state.force
    assert [p.state.units[i].kind for i in f.ids] == ["field_army", "levy"] and f.ops == 6
    assert "The France force picks up 1 unit(s) in Albi (6 OPs left)." in p.messages
    p.order("A", "pick up from Albi")  # the rest of France's: the Anjou levy is another power's (10.0 1)
    assert sorted(p.state.units[i].kind for i in p.state.force.ids) == ["field_army", "levy", "levy"]
    with pytest.raises(Rejection, match="no ready land unit of France in Albi to pick up"):
        p.order("A", "pick up from Albi")
    p.order("A", "move to Montpellier")
    p.drive([], fill=1)
    assert sorted(u.kind for u in p.state.units_in("Montpellier") if u.power == "France") == \
        ["field_army", "field_army", "levy", "levy"]


def test_none_joins_in_the_initial_area_once_the_op_roll_is_made() -> None:
    p = marching()
    with pytest.raises(Rejection, match=r"no units join the force in Montpellier, its initial area, once its OP roll is made \(10.0\)"):
        p.order("A", "pick up a field army from Montpellier")
    with pytest.raises(Rejection, match=r"a land force picks up units where it stands \(Montpellier\), not in Albi"):
        p.order("A", "pick up a levy from Albi")


def test_a_campaign_created_before_the_version_keeps_the_refusal() -> None:
    p = marching(version=None)
    p.order("A", "move to Albi")
    p.drive([], fill=1)
    with pytest.raises(Rejection, match="only a fleet force embarks land units"):
        p.order("A", "pick up a levy from Albi")
