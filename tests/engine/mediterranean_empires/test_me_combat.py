"""Combat (engine/mediterranean_empires/combat.py), outcome by outcome (issue 32): a King's military value in the
initiative and on the combat roll, and the exact key of every loss question, so two battles, or the two sides of
one, never share one (a shared key would let one answer settle the other's losses). Played through the Ruleset."""
from __future__ import annotations

import pytest

from engine.chance.book import COMMIT_REVEAL, LOTTERY, ChanceBook
from engine.mediterranean_empires import combat, hand
from engine.mediterranean_empires.combat import AMBUSH, COUP_DE_MAIN, MILITARY_ADVANTAGE, NO_MARKER, SIEGE_TRAIN, Battle
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import NeedRoll, Oracle, Scripted
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.rules_version import SEED_READINGS
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


def test_a_counterattack_left_to_its_default_is_a_new_battle_of_the_defender() -> None:
    """Three French units (field army and levy) roll 1: CA. Each side loses its levy (the default, cheapest first);
    Player B leaves the counterattack question to its default, counterattacking: its field army (2 on the Field table)
    rolls 3 under the label '.c.combat', a NE. Every unit there fought twice this turn (14.1 counts combats)."""
    p = battle(["levy", "field_army"], attackers=("field_army", "levy"))
    p.drive([6, 1, 1, 3], {"avoid": "fight"})
    assert p.keys[6:] == [f"{PREFIX}.combat", f"{PREFIX}.A1.loss", f"{PREFIX}.B1.loss", f"{PREFIX}.counterattack",
                          f"{PREFIX}.c.combat"]
    assert p.asked[-1].on_timeout == "counterattack"
    assert p.messages[-3:] == ["Player B counterattacks.", f"Waiting for the roll '{PREFIX}.c.combat' (1d6).",
                               "Field/Naval Battle Table in Rosselló: 2 attacking unit(s), roll 3 modified to 3: NE."]
    assert sorted((u.power, u.kind, u.combats) for u in p.state.units_in("Rosselló")) == [
        ("Aragon", "field_army", 2), ("France", "field_army", 2)]


def test_a_coup_de_main_on_a_city_makes_a_dv_plus_s_whose_spoils_are_drawn_under_seal() -> None:
    """Rosselló holds the city of Perpignan: France, holding a Coup de Main, plays it as attacker (+1), and its roll
    of 6 on the 4-unit column becomes 7: DV+S (10.3.2). Aragon's five units are all eliminated; under the seed's
    reading France is asked whether it takes a marker, takes the default, and draws one under seal: a pick whose
    public value (2 among 2**31) gives the Crusade, which goes into France's hand sealed, not shown: only the
    Stratagem Phase's draws show the Crusade at once."""
    p = battle(ROSSELLO, held=("Coup de Main",), rules_version=SEED_READINGS)
    p.drive([6, 1, 6], {"avoid": "fight", "attacker_marker": "Coup de Main"}, fill=2)
    assert p.keys[2:] == [f"{PREFIX}.avoid", f"{PREFIX}.bid.A", f"{PREFIX}.initiative.A", f"{PREFIX}.initiative.B",
                          f"{PREFIX}.table", f"{PREFIX}.attacker_marker", f"{PREFIX}.combat", f"{PREFIX}.spoils_pick",
                          f"{PREFIX}.spoils.pick"]
    bid, _, marker, spoils = p.asked[-4:]
    assert (bid.what, bid.choices) == (
        "Initiative in Rosselló: how many Military Advantage/Ambush markers do you spend (0-1)?", ("0", "1"))
    assert (marker.seat, marker.what, marker.choices, marker.on_timeout) == (
        "Player A", "Play a stratagem marker as attacker in Rosselló?",
        (NO_MARKER, COUP_DE_MAIN, MILITARY_ADVANTAGE, SIEGE_TRAIN), NO_MARKER)
    assert COUP_DE_MAIN == "Coup de Main"  # the marker's name in the rules' pool, which the question offers
    assert (spoils.what, spoils.choices, spoils.on_timeout) == (
        "DV+S in Rosselló: pick a stratagem marker as spoils?", ("take a marker", "no marker"), "take a marker")
    assert "Field/Naval Battle Table in Rosselló: 4 attacking unit(s), roll 6 modified to 7: DV+S." in p.messages
    assert p.messages[-2] == f"Waiting for the roll '{PREFIX}.spoils.pick' (1d2147483648)."
    [entry] = p.state.sides["A"].hand
    assert p.messages[-1] == f"Player A draws a stratagem marker (sealed: {entry['digest'][:12]}…)."
    assert (entry["pick"], entry["marker"], entry["revealed"]) == (f"{PREFIX}.spoils", "Crusade", False)
    assert "Crusade" in p.state.unseen  # sealed in a hand, still unseen by the other player
    assert p.kinds("Rosselló", "Aragon") == []
    assert [u.combats for u in p.state.units_in("Rosselló")] == [1, 1]


def test_a_pick_in_a_lottery_campaign_asks_for_a_number_of_1_to_90() -> None:
    """A lottery draw gives numbers of 1-90, not 1-2**31: the pick's public value is asked on the sides it can have."""
    ctx = Ctx(RULES, new_state(RULES), Oracle())
    ctx.state.book = ChanceBook(source=LOTTERY)
    with pytest.raises(NeedRoll) as lottery:
        combat.draw_marker(ctx, "A", "t2.o5.force.spoils")
    assert (lottery.value.label, lottery.value.count, lottery.value.sides) == ("t2.o5.force.spoils.pick", 1, 90)
    ctx.state.book = ChanceBook(source=COMMIT_REVEAL)
    with pytest.raises(NeedRoll) as sealed:
        combat.draw_marker(ctx, "A", "t2.o5.force.spoils")
    assert sealed.value.sides == 2**31


@pytest.mark.parametrize(("die", "shows", "returned", "held"), [
    (7, True, "Crusade", []), (7, False, None, ["Crusade"]), (1, True, None, ["Ambush"]),
])
def test_an_open_draw_shows_the_crusade_only_when_the_draw_shows(die: int, shows: bool, returned: str | None,
                                                                 held: list[str]) -> None:
    """Examples of play draw openly from the pool sorted by name (four Ambushes, two Coups de Main, the Crusade...):
    the 7th is the Crusade. Drawn in the Stratagem Phase (``shows``) it acts at once and leaves the pool; drawn as
    spoils it goes into the hand like any marker, as the Ambush, the 1st, does in either case."""
    ctx = Ctx(RULES, new_state(RULES), Scripted([die]))
    assert combat.draw_marker(ctx, "A", "t1.draw.A1", shows=shows) == returned
    assert hand.known(ctx.state, "A") == held
    assert ("Crusade" in ctx.state.unseen) == (die == 1)  # an open marker, in a hand or in play, is seen


@pytest.mark.parametrize("shown", [True, False])
def test_a_sealed_draw_is_shown_or_kept_as_the_bots_seal_says(shown: bool) -> None:
    """The bot's seal of a pick (ruleset.py) says whether the marker is shown: the Crusade of a Stratagem Phase draw
    is, and leaves the pool at once; a marker kept goes into the hand under its seal (seq, digest, pick)."""
    digest = "ab" * 32
    seal = {"seq": 9, "digest": digest, "pick": "t1.draw.A1", "marker": "Crusade", "shown": shown}
    ctx = Ctx(RULES, new_state(RULES), Oracle(rolls={"t1.draw.A1.pick": [7]}, picks={"t1.draw.A1": seal}))
    assert combat.draw_marker(ctx, "A", "t1.draw.A1", shows=shown) == ("Crusade" if shown else None)
    assert ctx.messages == ["Player A draws a stratagem marker (sealed: abababababab…)."]
    assert ctx.state.sides["A"].hand == ([] if shown else [
        {"seq": 9, "digest": digest, "pick": "t1.draw.A1", "marker": "Crusade", "revealed": False}])
    assert ctx.state.unseen.count("Crusade") == (0 if shown else 1)
