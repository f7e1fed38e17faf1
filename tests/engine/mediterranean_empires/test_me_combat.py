"""Combat (engine/mediterranean_empires/combat.py), outcome by outcome (issue 32): a King's military value in the
initiative and on the combat roll, and the exact key of every loss question, so two battles, or the two sides of
one, never share one (a shared key would let one answer settle the other's losses). Played through the Ruleset."""
from __future__ import annotations

import pytest

from engine.mediterranean_empires import combat
from engine.mediterranean_empires.combat import AMBUSH, COUP_DE_MAIN, MILITARY_ADVANTAGE, NO_MARKER, SIEGE_TRAIN, Battle
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import Scripted
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.state import Unit, new_state
from tests.engine.mediterranean_empires.me_play import Play, battle

RULES = default_rules()

PREFIX = "t1.o2.force.s2"  # turn 1, the third order (the attack), the second step of the force's move
ROSSELLO = ["levy", "levy", "raider", "field_army", "field_army"]


def test_without_a_king_the_higher_initiative_die_wins() -> None:
    p = battle(ROSSELLO)
    p.drive([4, 2], {"avoid": "fight"}, until="table")
    assert "Initiative in Rosselló: Player A 4, Player B 2: Player A has it." in p.messages
    assert p.asked[-1].seat == "Player A"


def test_the_defending_kings_military_value_decides_the_initiative() -> None:
    """A rolls 4, B rolls 2 + the King of Aragon's 2 = 4: a tie, which the defender wins."""
    p = battle(ROSSELLO, aragon_king=True)
    p.drive([4, 2], {"avoid": "fight"}, until="table")
    assert "Initiative in Rosselló: Player A 4, Player B 4: Player B has it." in p.messages
    assert p.asked[-1].seat == "Player B"
    assert p.keys[-3:] == [f"{PREFIX}.initiative.A", f"{PREFIX}.initiative.B", f"{PREFIX}.table"]


def test_a_defending_king_takes_his_value_off_the_combat_roll() -> None:
    """Roll 6 on the 4-unit column is a DV (test_me_losses.py); the King of Aragon's -2 makes it 4: a Bloodbath.
    The attacker gives one unit (its default), the defender units worth 2: two loss questions, keys B1 and B2."""
    p = battle(ROSSELLO, aragon_king=True)
    p.drive([6, 1, 6], {"avoid": "fight"})
    assert "Field/Naval Battle Table in Rosselló: 4 attacking unit(s), roll 6 modified to 4: BB." in p.messages
    assert p.keys[2:] == [f"{PREFIX}.avoid", f"{PREFIX}.initiative.A", f"{PREFIX}.initiative.B", f"{PREFIX}.table",
                          f"{PREFIX}.combat", f"{PREFIX}.bloodbath", f"{PREFIX}.B1.loss", f"{PREFIX}.B2.loss"]
    assert p.kinds("Rosselló", "France") == ["field_army"]
    assert p.kinds("Rosselló", "Aragon") == ["field_army", "field_army", "raider"]  # two levies, cheapest first


def test_each_loss_question_has_its_own_key_numbered_from_1() -> None:
    """DV: the defender owes units worth 4 and gives both field armies, one question each (B1, B2); the attacker's
    units are all alike, so it is not asked."""
    p = battle(ROSSELLO)
    p.drive([6, 1, 6], {"avoid": "fight", "loss": ["field army of Aragon", "field army of Aragon"]})
    assert p.keys == ["t1.o0.force.ops", "t1.o1.force.s1.in.intercept", f"{PREFIX}.avoid",
                      f"{PREFIX}.initiative.A", f"{PREFIX}.initiative.B", f"{PREFIX}.table", f"{PREFIX}.combat",
                      f"{PREFIX}.B1.loss", f"{PREFIX}.B2.loss"]
    assert "Field/Naval Battle Table in Rosselló: 4 attacking unit(s), roll 6 modified to 6: DV." in p.messages
    assert p.kinds("Rosselló", "Aragon") == ["levy", "levy", "raider"]


# --- the small rules, one by one ----------------------------------------------------------------------------------


def _ctx() -> Ctx:
    return Ctx(RULES, new_state(RULES), Scripted())


@pytest.mark.parametrize(("power", "kind", "table", "weight"), [
    ("France", "field_army", "field", 2), ("France", "field_army", "raid", 1),
    ("Aragon", "mercenary", "field", 2), ("Aragon", "raider", "raid", 2), ("Aragon", "raider", "field", 1),
    ("France", "levy", "field", 1), ("France", "levy", "raid", 1),
    ("Aragon", "fleet", "field", 2), ("Genoa", "fleet", "field", 2), ("Venice", "fleet", "field", 2),
    ("France", "fleet", "field", 1), ("Anjou", "fleet", "field", 1),
])
def test_what_a_unit_counts_for_on_each_table(power: str, kind: str, table: str, weight: int) -> None:
    """2.2: field armies and mercenaries count two on the Field table, raiders on the Raid table, and the fleets of
    Aragon, Genoa and Venice two on the Naval table."""
    assert combat.weight(_ctx(), Unit(1, power, kind, "Rosselló"), table) == weight


@pytest.mark.parametrize(("marker", "table", "attacking", "city", "value"), [
    (MILITARY_ADVANTAGE, "field", True, False, 1), (MILITARY_ADVANTAGE, "raid", False, False, 1),
    (AMBUSH, "raid", True, False, 1), (AMBUSH, "raid", False, False, 1), (AMBUSH, "field", True, True, 0),
    (SIEGE_TRAIN, "field", True, True, 1), (SIEGE_TRAIN, "field", False, True, 0),
    (SIEGE_TRAIN, "field", True, False, 0), (SIEGE_TRAIN, "raid", True, True, 0),
    (COUP_DE_MAIN, "field", True, True, 1), (COUP_DE_MAIN, "raid", True, True, 0),
    (NO_MARKER, "field", True, True, 0),
])
def test_what_a_marker_is_worth(marker: str, table: str, attacking: bool, city: bool, value: int) -> None:
    assert combat.marker_value(marker, table, attacking=attacking, city=city) == value


@pytest.mark.parametrize(("attackers", "defenders", "modifier"), [
    (["field_army"], ["field_army"], 0),
    (["field_army", "mercenary"], ["field_army"], 1),
    (["field_army"], ["levy", "mercenary"], -1),
    (["mercenary", "mercenary"], ["mercenary"], 0),
])
def test_mercenaries_add_one_to_their_side_whatever_their_number(attackers: list[str], defenders: list[str],
                                                                  modifier: int) -> None:
    ctx = _ctx()
    st = ctx.state
    ids: dict[str, list[int]] = {"A": [], "B": []}
    for side, power, kinds in (("A", "France", attackers), ("B", "Aragon", defenders)):
        for kind in kinds:
            st.units[st.next_unit] = Unit(st.next_unit, power, kind, "Rosselló")
            ids[side].append(st.next_unit)
            st.next_unit += 1
    b = Battle("Rosselló", "field", "A", "B", ids["A"], ids["B"], "t")
    assert combat.combat_modifier(ctx, b, NO_MARKER, NO_MARKER) == modifier
    assert combat.combat_modifier(ctx, b, MILITARY_ADVANTAGE, NO_MARKER) == modifier + 1
    assert combat.combat_modifier(ctx, b, NO_MARKER, MILITARY_ADVANTAGE) == modifier - 1


def test_losses_go_cheapest_first_levy_raider_mercenary_field_army_fleet() -> None:
    """The unit ids run against the order (the fleet first), so only LOSS_ORDER can put them in it."""
    ctx = _ctx()
    st = ctx.state
    kinds = ["fleet", "field_army", "mercenary", "raider", "levy"]
    ids = []
    for kind in kinds:
        st.units[st.next_unit] = Unit(st.next_unit, "Aragon", kind, "Rosselló")
        ids.append(st.next_unit)
        st.next_unit += 1
    gone = []
    for _ in kinds:
        before = {i for i in ids if i in st.units}
        assert combat.eliminate(ctx, ids, 1, "raid") >= 1  # one unit a call: any unit is worth at least 1
        [lost] = before - set(st.units)
        gone.append(kinds[ids.index(lost)])
    assert gone == ["levy", "raider", "mercenary", "field_army", "fleet"]


def test_a_bloodbath_asks_the_attacker_unit_by_unit_and_the_defender_for_the_worth_lost() -> None:
    """Three French units (5 on the Field table) roll 3: a Bloodbath. France gives one unit and picks its field army
    (worth 2) over the levy the default would take; Aragon then owes units worth 2 and leaves them to the default:
    the two levies, one question each."""
    p = battle(ROSSELLO, attackers=("field_army", "field_army", "levy"))
    p.drive([6, 1, 3], {"avoid": "fight", "loss": ["field army of France"]})
    assert "Field/Naval Battle Table in Rosselló: 5 attacking unit(s), roll 3 modified to 3: BB." in p.messages
    assert p.keys[7:] == [f"{PREFIX}.bloodbath", f"{PREFIX}.A1.loss", f"{PREFIX}.B1.loss", f"{PREFIX}.B2.loss"]
    bloodbath, attacker, first, second = p.asked[-4:]
    assert bloodbath.what == "Bloodbath in Rosselló: how many of your units do you eliminate (1-3)?"
    assert (bloodbath.choices, bloodbath.on_timeout) == (("1", "2", "3"), "1")
    assert attacker.what == "Losses in Rosselló: you eliminate 1 more unit(s). Which unit goes now?"
    assert (attacker.seat, attacker.choices, attacker.on_timeout) == (
        "Player A", ("levy of France", "field army of France"), "levy of France")
    assert first.what == ("Losses in Rosselló: you eliminate units worth 2 more (a unit that counted two counts two). "
                          "Which unit goes now?")
    assert second.what.startswith("Losses in Rosselló: you eliminate units worth 1 more ")
    assert p.kinds("Rosselló", "France") == ["field_army", "levy"]
    assert p.kinds("Rosselló", "Aragon") == ["field_army", "field_army", "raider"]


def test_a_raid_that_goes_wrong_costs_each_side_a_unit_and_offers_a_counterattack() -> None:
    """Two raiders count four on the Raid table; roll 1: CA. Each side loses one unit (the French raiders are alike:
    no question; Aragon's default is a levy), then Aragon may counterattack and declines."""
    p = battle(ROSSELLO, attackers=("raider", "raider"))
    p.drive([6, 1, 1], {"avoid": "fight", "table": "raid", "counterattack": "no"})
    assert "Raid Table in Rosselló: 4 attacking unit(s), roll 1 modified to 1: CA." in p.messages
    assert p.keys[5:] == [f"{PREFIX}.table", f"{PREFIX}.combat", f"{PREFIX}.B1.loss", f"{PREFIX}.counterattack"]
    assert p.asked[-1].what == "Counterattack in Rosselló?" and p.asked[-1].choices == ("counterattack", "no")
    assert p.kinds("Rosselló", "France") == ["raider"]
    assert p.kinds("Rosselló", "Aragon") == ["field_army", "field_army", "levy", "raider"]
