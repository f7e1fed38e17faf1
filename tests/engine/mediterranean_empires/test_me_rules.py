"""Rules as small functions, with the dice given: OPs, combat results, interception, invasion, control, recruiting."""
from __future__ import annotations

import pytest

from engine.mediterranean_empires import combat, control, hand, operations, turn
from engine.mediterranean_empires.combat import Battle
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import Scripted
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.state import Unit, new_state

RULES = default_rules()


def ctx_with(dice=(), answers=None, state=None) -> Ctx:
    return Ctx(RULES, state or new_state(RULES), Scripted(dice, answers))


def add(st, power, kind, area) -> int:
    st.units[st.next_unit] = Unit(st.next_unit, power, kind, area)
    st.next_unit += 1
    return st.next_unit - 1


def test_set_up_follows_3_1_to_3_3() -> None:
    st = new_state(RULES)
    control.snapshot_control(RULES, st)
    mine = lambda p, k: sum(1 for u in st.units.values() if u.power == p and u.kind == k)
    assert (mine("France", "field_army"), mine("France", "levy"), mine("France", "fleet")) == (5, 5, 4)
    assert (mine("Aragon", "raider"), mine("Aragon", "mercenary"), mine("Aragon", "levy")) == (4, 2, 6)
    assert st.sides["A"].treasury == 7 and st.sides["B"].treasury == 4
    assert control.controller(st, "Val di Mazara") == "B"  # Sicily is allied to B
    assert control.controller(st, "Caliphate of Tunis") is None  # a vassal is nobody's (3.4)
    assert control.controller(st, "Genoa") is None  # inactive neutral
    assert control.controller(st, "Abruzzi") == "A"
    assert all(u.face_down for u in st.units.values() if u.power == "Genoa")


def test_ops_are_capped_at_fifteen() -> None:
    st = new_state(RULES)
    for _ in range(2):
        hand.give(st, "A", "Military Advantage")
    ctx = ctx_with(dice=[6, 6], state=st)
    ids = [u.id for u in st.units_in("Provence County")]
    f = operations.activate_force(ctx, "A", "Provence County", ids, markers=2)
    assert f.ops == 15 and f.king == "France"


def test_a_force_is_one_power() -> None:
    st = new_state(RULES)
    extra = add(st, "Anjou", "levy", "Provence County")
    ctx = ctx_with(dice=[1, 1], state=st)
    ids = [u.id for u in st.units_in("Provence County")]
    with pytest.raises(Rejection, match="one power's units"):
        operations.activate_force(ctx, "A", "Provence County", ids)
    assert extra in ids


def test_leaving_enemy_units_costs_three_and_plague_doubles() -> None:
    st = new_state(RULES)
    a = add(st, "France", "levy", "Navarre")
    add(st, "Aragon", "levy", "Navarre")
    st.owner["Navarre"] = "A"
    st.plague = True
    ctx = ctx_with(dice=[5, 5], answers={"intercept": "do not intercept"}, state=st)
    f = operations.activate_force(ctx, "A", "Navarre", [a])
    operations.move(ctx, "Biscay")  # Castile's Biscay: an invasion
    assert f.ops == 10 - 6
    assert st.status["Castile"] == "ally" and st.side_of["Castile"] == "B"


def test_interception_succeeds_on_4_with_exit_bonus_and_fights_a_field_battle() -> None:
    st = new_state(RULES)
    mover = add(st, "France", "levy", "Navarre")
    blocker = add(st, "Aragon", "field_army", "Navarre")
    levy = add(st, "Aragon", "levy", "Navarre")
    st.owner["Navarre"] = "A"
    # OPs 2+2; interception roll 3 (+1 exiting = 4: success); the field battle: 3 units (the field army counts two),
    # roll 6 -> DV: the French levy dies, and the interceptor must eliminate one unit of its own (the cheapest).
    ctx = ctx_with(dice=[2, 2, 3, 6], answers={"intercept": "intercept"}, state=st)
    operations.activate_force(ctx, "A", "Navarre", [mover])
    operations.move(ctx, "Upper Aragon")
    assert mover not in st.units and st.force is None
    assert blocker in st.units and levy not in st.units


@pytest.mark.parametrize("roll,result", [(1, "CA"), (3, "NE"), (4, "BB"), (6, "DV"), (7, "DV")])
def test_field_battle_three_units(roll, result) -> None:
    assert RULES.tables["field"].result(3, roll) == result


def test_the_7_plus_row_and_over_ten_units() -> None:
    assert RULES.tables["field"].result(2, 9) == "DV+S"
    assert RULES.tables["raid"].result(12, 4) == "BB"
    assert RULES.tables["raid"].result(1, -2) == "CA"


def test_dv_plus_s_destroys_the_defender_and_draws_a_marker() -> None:
    st = new_state(RULES)
    att = [add(st, "France", "field_army", "Navarre") for _ in range(3)]
    dfd = [add(st, "Aragon", "levy", "Navarre") for _ in range(2)]
    st.unseen = ["Gold"]  # the pool holds one marker
    ctx = ctx_with(dice=[6, 1], state=st)
    assert combat.resolve(ctx, Battle("Navarre", "field", "A", "B", att, dfd, "t")) == "DV+S"
    assert not any(i in st.units for i in dfd) and hand.known(st, "A") == ["Gold"]


def test_counterattack_after_ca_and_kings_die_with_their_last_unit() -> None:
    st = new_state(RULES)
    att = [add(st, "France", "levy", "Navarre")]
    dfd = [add(st, "Aragon", "levy", "Navarre"), add(st, "Aragon", "levy", "Navarre")]
    st.kings["France"].area = "Navarre"
    # Attack roll 1 -> CA (+1 French King = 2: still CA for 1 unit): each loses one; the French levy is gone, so the
    # King, alone, dies; no counterattack is possible without attackers left.
    ctx = ctx_with(dice=[1], state=st)
    assert combat.resolve(ctx, Battle("Navarre", "field", "A", "B", att, dfd, "t")) == "CA"
    assert st.kings["France"].area is None
    assert sum(1 for i in dfd if i in st.units) == 1


def test_avoid_combat_on_six_with_the_king() -> None:
    st = new_state(RULES)
    att = add(st, "France", "field_army", "Urgell")
    st.owner["Urgell"] = "B"
    st.kings["Aragon"].area = "Urgell"
    ctx = ctx_with(dice=[3, 3, 4], answers={"avoid": "avoid combat"}, state=st)  # avoid roll 4 + King 2 = 6
    operations.activate_force(ctx, "A", "Urgell", [att])
    operations.attack(ctx)
    assert any("avoids combat" in m for m in ctx.messages)
    assert len([u for u in st.units_in("Urgell") if u.power == "Aragon"]) == 2


def test_income_counts_cities_and_vassal_rolls() -> None:
    st = new_state(RULES)
    ctx = ctx_with(dice=[4], state=st)  # the Tunis vassal roll: 4 gives a TP
    assert control.income(ctx, "A") == 7
    assert control.income(ctx, "B") == 6 + 2 + 1  # Aragon's cities, Sicily's two, Tunis


def test_victory_points_count_cities_gained() -> None:
    st = new_state(RULES)
    control.snapshot_control(RULES, st)
    assert control.victory_points(RULES, st, "A") == 0
    for u in st.units_in("Catalan counties"):
        del st.units[u.id]
    add(st, "France", "levy", "Catalan counties")
    assert control.victory_points(RULES, st, "A") == 1


def test_recruiting_costs_cap_and_placement() -> None:
    st = new_state(RULES)
    st.phase, st.to_move = "recruitment", "A"
    ctx = ctx_with(state=st)
    turn.recruit(ctx, "A", "France", "levy", "Vienne", 2)
    assert st.sides["A"].treasury == 6
    with pytest.raises(Rejection, match="total control"):
        st.to_move = "A"
        turn.recruit(ctx, "A", "France", "field_army", "Genoa")
    st.to_move = "A"
    with pytest.raises(Rejection, match="sea by a city"):
        turn.recruit(ctx, "A", "France", "fleet", "Bay of Biscay")
