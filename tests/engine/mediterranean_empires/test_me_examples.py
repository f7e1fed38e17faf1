"""Every blue 'Example:' passage of the seed, played and checked. Named after the section it illustrates."""
from __future__ import annotations

import pytest

from engine.mediterranean_empires import combat, control, hand, operations, politics
from engine.mediterranean_empires.combat import Battle
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import Scripted
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.state import Unit, new_state

RULES = default_rules()


def ctx_with(dice=(), answers=None, state=None) -> Ctx:
    return Ctx(RULES, state or new_state(RULES), Scripted(dice, answers))


def add(state, power, kind, area) -> int:
    state.units[state.next_unit] = Unit(state.next_unit, power, kind, area)
    state.next_unit += 1
    return state.next_unit - 1


def test_2_1_1_three_land_areas_in_sardinia() -> None:
    sardinia = [a for a in RULES.map.lands if a in ("Arborea", "Olbia", "Caralis")]
    assert sorted(sardinia) == ["Arborea", "Caralis", "Olbia"]


def test_2_2_italian_states_share_a_background() -> None:
    """2.2 Example: all the Italian state powers (Genoa, the Papal States, ...) have a light blue background."""
    italian = {p.name for p in RULES.powers.values() if p.group == "Italian States"}
    assert italian == {"Papal States", "Venice", "Genoa", "Ravenna", "Pisa", "Milan", "Brescia", "Ancona", "Tuscany"}


def test_4_0_equal_victory_points_go_to_player_b() -> None:
    """4.0 Example: Player A has 8 VPs and Player B has 8 VPs, so Player B wins."""
    assert control.winner(RULES, 8, 8) == "B"
    assert control.winner(RULES, 10, 8) == "draw"
    assert control.winner(RULES, 9, 8) == "draw"
    assert control.winner(RULES, 11, 8) == "A"


def test_5_1_a_failed_alliance_leaves_vassalage_but_not_another_alliance() -> None:
    """5.1 Example: an alliance attempt fails; next round the same player may attempt vassalage against the same
    power, but not another alliance."""
    ctx = ctx_with(dice=[2, 4])  # alliance roll 2: fails; vassalage roll 4: succeeds
    st = ctx.state
    for _ in range(2):
        hand.give(st, "A", "Diplomacy")
    assert politics.attempt(ctx, "A", "alliance", "Genoa", politics.Modifiers()) is False
    with pytest.raises(Rejection, match="no alliance attempt left"):
        politics.check_attempt(ctx, "A", "alliance", "Genoa")
    assert politics.attempt(ctx, "A", "vassalage", "Genoa", politics.Modifiers()) is True
    assert st.status["Genoa"] == "vassal" and st.side_of["Genoa"] == "A"


def test_6_1_treasury_is_capped_at_ten() -> None:
    """6.1 Example: with nine TP left from the previous turn, a player adds at most one."""
    st = new_state(RULES)
    st.sides["A"].treasury = 9
    assert control.add_treasury(RULES, st, "A", 7) == 1
    assert st.sides["A"].treasury == 10


def test_9_0_military_advantage_markers_cancel() -> None:
    """9.0 Example: both players use a Military Advantage marker on one combat roll: the DRMs cancel."""
    st = new_state(RULES)
    att = add(st, "France", "levy", "Navarre")
    dfd = add(st, "Aragon", "levy", "Navarre")
    hand.give(st, "A", "Military Advantage")
    hand.give(st, "B", "Military Advantage")
    ctx = ctx_with(dice=[4], answers={"attacker_marker": "Military Advantage", "defender_marker": "Military Advantage"},
                   state=st)
    b = Battle("Navarre", "field", "A", "B", [att], [dfd], "t")
    assert combat.combat_modifier(ctx, b, "Military Advantage", "Military Advantage") == 0
    combat.resolve(ctx, b)
    assert ctx.messages[0].endswith("roll 4 modified to 4: NE.")
    assert st.sides["A"].hand == [] and st.sides["B"].hand == []


def _fleet_southwest_of_sardinia():
    st = new_state(RULES)
    for u in list(st.units.values()):  # clear the seas of the example
        if u.area in ("Algerian Sea", "Balearic Sea", "Sea of Sardinia", "Gulf of Lion"):
            del st.units[u.id]
    fleet = add(st, "France", "fleet", "Algerian Sea")
    # The example's premises: Bougie is Player B's (totally), Caralis and Majorca Player A's.
    st.status["Bougie"], st.side_of["Bougie"] = "ally", "B"
    for area in ("Caralis", "Kingdom of Majorca", "Arborea"):
        for u in st.units_in(area):
            del st.units[u.id]
        st.owner[area] = "A"
    st.status["Pisa"], st.side_of["Pisa"] = "ally", "A"
    return st, fleet


def test_11_1_a_fleet_away_from_a_friendly_city_must_move_first() -> None:
    """11.1 Example: a Player A fleet south-west of Sardinia; Caralis is Player A's but Cagliari lies on the sea
    south-east of Sardinia, so the fleet must move before anything else."""
    st, fleet = _fleet_southwest_of_sardinia()
    ctx = ctx_with(dice=[3, 4], state=st)
    f = operations.activate_force(ctx, "A", "Algerian Sea", [fleet])
    assert f.based is False
    add(st, "Bougie", "fleet", "Algerian Sea")
    with pytest.raises(Rejection, match="must first reach a sea next to a friendly city"):
        operations.attack(ctx)
    with pytest.raises(Rejection, match="must first reach"):
        operations.embark(ctx, "Caralis", [])


def test_11_1_fleet_moves_picks_up_and_lands_for_three_ops() -> None:
    """11.1 Example: to the Majorca sea (1 OP), to the sea by Arborea (1 OP), pick up a land unit (0), to the sea by
    Provence County (1 OP), unload in Provence County (0): three OPs in all."""
    st, fleet = _fleet_southwest_of_sardinia()
    soldier = add(st, "Pisa", "field_army", "Arborea")
    ctx = ctx_with(dice=[3, 4], state=st)
    f = operations.activate_force(ctx, "A", "Algerian Sea", [fleet])
    assert f.ops == 7
    operations.move(ctx, "Balearic Sea")
    assert f.based is True  # Palma, in Player A's Majorca, lies on the Balearic Sea
    operations.move(ctx, "Sea of Sardinia")
    operations.embark(ctx, "Arborea", [soldier])
    operations.move(ctx, "Gulf of Lion")
    operations.debark(ctx, "Provence County")
    assert st.units[soldier].area == "Provence County" and st.units[fleet].area == "Gulf of Lion"
    assert f.ops == 7 - 3


def test_11_1_taranto_is_not_a_port_on_the_adriatic() -> None:
    """11.1 Important: Taranto faces the sea to its south, not the one to the north-east."""
    st = new_state(RULES)
    ctx = ctx_with(state=st)
    assert operations._based(ctx, "A", "Ionian Sea")
    for u in st.units_in("Abruzzi"):
        del st.units[u.id]
    st.owner["Abruzzi"] = "B"
    assert not operations._based(ctx, "A", "Lower Adriatic")
