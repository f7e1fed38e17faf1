"""Combat (engine/mediterranean_empires/combat.py), outcome by outcome (issue 32): a King's military value in the
initiative and on the combat roll, and the exact key of every loss question, so two battles, or the two sides of
one, never share one (a shared key would let one answer settle the other's losses). Played through the Ruleset."""
from __future__ import annotations

from tests.engine.mediterranean_empires.me_play import Play

PREFIX = "t1.o2.force.s2"  # turn 1, the third order (the attack), the second step of the force's move
ROSSELLO = ["levy", "levy", "raider", "field_army", "field_army"]


def battle(defenders: list[str], *, aragon_king: bool = False) -> Play:
    """Two French field armies (4 units on the Field table) attack Aragonese ``defenders`` in Rosselló, as in
    test_me_losses.py; with ``aragon_king``, the King of Aragon (military 2) stands with the defenders."""
    p = Play()
    st = p.state
    st.phase, st.to_move = "operations A", "A"
    p.clear("Montpellier", "Rosselló")
    for kind in ("field_army", "field_army"):
        p.put("France", kind, "Montpellier")
    for kind in defenders:
        p.put("Aragon", kind, "Rosselló")
    if aragon_king:
        st.kings["Aragon"].area = "Rosselló"
    st.owner["Montpellier"], st.owner["Rosselló"] = "A", "B"
    p.order("A", "activate France in Montpellier")
    p.drive([3, 3])
    p.order("A", "move to Rosselló")
    p.drive([], {"intercept": "do not intercept"})
    p.order("A", "attack")
    return p


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
