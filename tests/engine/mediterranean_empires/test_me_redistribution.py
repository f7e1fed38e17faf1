"""5.2 Redistribution: 1d6 each (Player A wins ties), the winner redistributes first or second, one unit (or two
levies) at a time, alternating until both say 'done'. Played through the Ruleset."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.ruleset import IN_TURN
from tests.engine.mediterranean_empires.me_play import Play


def end_of_turn(dice: list[int], answers: dict[str, object] | None = None) -> Play:
    p = Play()
    p.state.phase, p.state.to_move = "operations B", "B"
    p.order("B", "end operations")
    p.drive(dice, answers)
    assert p.state.phase == "end of turn"
    return p


def test_the_higher_roll_chooses_and_may_go_second() -> None:
    p = end_of_turn([2, 5], {"redistribute_order": "second"})
    (asked,) = p.asked
    assert asked.seat == "Player B" and asked.choices == ("first", "second") and "(5 to 2)" in asked.what
    assert p.state.to_move == "A"
    prompts = p.game.prompts(p.state)
    assert [(q.seat, q.mode, q.on_timeout) for q in prompts] == [("Player A", IN_TURN, "done")]


def test_player_a_wins_ties_and_the_default_is_first() -> None:
    p = end_of_turn([4, 4])
    assert p.asked[0].seat == "Player A" and p.state.to_move == "A"


def test_one_unit_or_two_levies_a_move_then_the_other_player() -> None:
    p = end_of_turn([6, 1])
    with pytest.raises(Rejection, match="one unit at a time, or two levies"):
        p.order("A", "redistribute 2 field armies of France from Montpellier to Vienne")
    with pytest.raises(Rejection, match="Player A redistributes now"):
        p.order("B", "redistribute a levy of Aragon from Urgell to Upper Aragon")
    p.order("A", "redistribute a levy of France from Montpellier to Vienne")
    assert p.state.to_move == "B"
    with pytest.raises(Rejection, match="Player B redistributes now"):
        p.order("A", "redistribute a field army of France from Montpellier to Vienne")
    p.order("B", "redistribute a levy of Aragon from Urgell to Upper Aragon")
    assert p.state.to_move == "A"
    p.order("A", "done")
    # Player B goes on alone until it says 'done' too.
    assert p.state.to_move == "B"
    p.order("B", "redistribute a raider of Aragon from Urgell to Rosselló")
    assert p.state.to_move == "B"
    with pytest.raises(Rejection, match=r"not yet redistributed this phase, not 1 \(5.2: once per unit\)"):
        p.order("B", "redistribute a raider of Aragon from Rosselló to Urgell")
    p.order("B", "done")
    p.drive([1, 1, 1])  # the Kings' deaths: none
    assert p.state.turn == 2 and p.state.phase == "stratagems"


def test_two_levies_make_one_move() -> None:
    p = end_of_turn([6, 1])
    p.put("France", "levy", "Montpellier")  # Montpellier now holds two levies (and a field army)
    p.order("A", "redistribute 2 levies of France from Montpellier to Vienne")
    assert sum(1 for u in p.state.units_in("Vienne") if u.kind == "levy" and u.redistributed) == 2
    assert p.state.to_move == "B"


def test_the_unit_moved_is_one_not_yet_redistributed() -> None:
    """5.2, once per unit: with a levy already moved into Montpellier this phase and another that has not moved,
    'redistribute a levy ... from Montpellier' takes the one that may still move (issue 24: the first of the kind
    was taken, and the order refused)."""
    p = end_of_turn([6, 1])
    moved = p.put("France", "levy", "Montpellier")
    p.state.units[moved].redistributed = True  # came here earlier this phase
    fresh = p.put("France", "levy", "Montpellier")
    for uid in [u.id for u in p.state.units_in("Montpellier") if u.kind == "levy" and u.id not in (moved, fresh)]:
        del p.state.units[uid]
    p.order("A", "redistribute a levy of France from Montpellier to Vienne")
    assert (p.state.units[fresh].area, p.state.units[moved].area) == ("Vienne", "Montpellier")
    p.state.to_move = "A"
    with pytest.raises(Rejection, match=r"France has 0 levy\(s\) in Montpellier not yet redistributed this phase, "
                                        r"not 1 \(5.2: once per unit\)"):
        p.order("A", "redistribute a levy of France from Montpellier to Vienne")
