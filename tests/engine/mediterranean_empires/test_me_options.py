"""Campaign options: 14.1 mercenaries (mutiny, coastal raids), 14.2 poison, 14.3 territorial concessions and the
13.0 scenario, chosen at creation. Played through the Ruleset."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from tests.engine.mediterranean_empires.me_play import Play


def test_options_are_named_at_creation_and_unknown_ones_refused() -> None:
    p = Play(["Mercenaries", "poison"])
    assert p.state.options == ["mercenaries", "poison"]
    assert p.game.public_view(p.state)["options"] == ["mercenaries", "poison"]
    assert "Options: 14.1 Mercenaries, 14.2 Poison." in p.game.status(p.state)
    assert Play("concessions, vespers").state.options == ["concessions", "vespers"]
    assert Play().state.options == []
    with pytest.raises(Rejection, match="unknown option 'mutiny': Mediterranean Empires has mercenaries .14.1 Mercenaries."):
        Play(["mutiny"])
    with pytest.raises(Rejection, match="options are a list of names, not int"):
        Play(5)  # type: ignore[arg-type]


def closing(options: list[str]) -> Play:
    """Player B has said 'done' in the End of Turn Phase; Player A's 'done' closes the game turn."""
    p = Play(options)
    st = p.state
    st.phase, st.to_move = "end of turn", "A"
    st.sides["B"].done = True
    return p


def test_idle_mercenaries_may_mutiny_and_cost_a_tp() -> None:
    p = closing(["mercenaries"])
    mercs = sorted(u.id for u in p.state.units.values() if u.kind == "mercenary")
    assert len(mercs) == 2
    p.state.units[mercs[1]].combats = 1  # this one fought: no roll for it
    p.put("Aragon", "mercenary", "Lower Aragon")
    p.order("A", "done")
    # Mutiny rolls for the two idle ones (2: mutiny, 5: loyal), then the three Kings' deaths (none).
    p.drive([2, 5, 1, 1, 1])
    left = sorted(u.id for u in p.state.units.values() if u.kind == "mercenary")
    assert mercs[0] not in left and mercs[1] in left and len(left) == 2
    assert p.state.sides["B"].treasury == 3
    assert any("mutiny (2): they run amok and leave the map; Player B loses 1 TP." in m for m in p.messages)
    assert any("stay loyal (5)" in m for m in p.messages)


def test_without_the_option_nobody_mutinies() -> None:
    p = closing([])
    p.order("A", "done")
    p.drive([1, 1, 1])
    assert sum(1 for u in p.state.units.values() if u.kind == "mercenary") == 2


def test_coastal_raids_need_the_mercenaries_option() -> None:
    for options, refusal in (([], "optional rule 14.1"), (["mercenaries"], "needs a mercenary unit on board")):
        p = Play(options)
        p.state.phase, p.state.to_move = "operations B", "B"
        sea = next(u.area for u in p.state.units.values() if u.power == "Aragon" and u.kind == "fleet")
        p.order("B", f"activate Aragon in {sea}")
        p.drive([3, 3])
        with pytest.raises(Rejection, match=refusal):
            p.order("B", "raid the coast of Calabria")


def pope_of(side: str, options: list[str]) -> Play:
    p = closing(options)
    p.seat_pope(side)
    return p


def test_poison_the_other_sides_pope_for_one_tp() -> None:
    p = pope_of("A", ["poison"])
    p.order("A", "done")
    p.drive([1, 1, 1, 5], {"poison": "poison the Pope"})  # Kings live; the Pope's roll 5 + 1 = 6: he dies
    (asked,) = p.asked
    assert asked.seat == "Player B" and asked.choices == ("poison the Pope", "no") and asked.on_timeout == "no"
    assert p.state.sides["B"].treasury == 3 and p.state.pope is None and "The Pope dies." in p.messages


def test_poison_declined_or_not_in_use_leaves_the_roll_alone() -> None:
    for options, answers in ((["poison"], {}), ([], {})):
        p = pope_of("A", options)
        p.order("A", "done")
        p.drive([1, 1, 1, 5], answers)
        assert p.state.pope == "A" and p.state.sides["B"].treasury == 4


def test_no_poison_for_ones_own_pope_or_without_a_tp() -> None:
    p = pope_of("B", ["poison"])
    p.state.sides["A"].treasury = 0
    p.order("A", "done")
    p.drive([1, 1, 1, 5])
    assert p.asked == [] and p.state.pope == "B"


def concession(options: list[str], line: str, dice: list[int]) -> Play:
    p = Play(options)
    st = p.state
    st.phase, st.to_move, st.political_round = "political", "B", 1
    p.hold("B", "Diplomacy")  # drawn under seal in the Stratagem Phase; the attempt reveals it
    p.twin()
    p.order("B", line)
    p.drive(dice)
    return p


def test_ceding_murcia_adds_three_and_castile_takes_it_when_it_allies() -> None:
    p = concession(["concessions"], "attempt alliance with Castile ceding Kingdom of Murcia", [2])
    st = p.state
    assert st.status["Castile"] == "ally" and st.side_of["Castile"] == "B"
    assert st.owner["Kingdom of Murcia"] == "Castile"
    assert "The alliance attempt succeeds (2, modified 5)." in p.messages
    assert any(m.startswith("Player B reveals Diplomacy") for m in p.messages) and st.sides["B"].hand == []
    assert p.game.public_view(st)["control"]["Kingdom of Murcia"] == "B", "an ally's area is still its side's"


def test_a_failed_attempt_keeps_the_area() -> None:
    p = concession(["concessions"], "attempt alliance with Castile ceding Kingdom of Murcia", [1])
    assert p.state.status["Castile"] == "neutral" and p.state.owner["Kingdom of Murcia"] == "B"
    assert "The alliance attempt fails (1, modified 4); Kingdom of Murcia stays Player B's." in p.messages


@pytest.mark.parametrize("options, line, refusal", [
    ([], "attempt alliance with Castile ceding Kingdom of Murcia", "optional rule 14.3"),
    (["concessions"], "attempt alliance with Castile ceding Rosselló", "Rosselló does not border Castile's lands"),
    (["concessions"], "attempt alliance with Castile ceding Navarre", "Navarre is not"),
    (["concessions"], "attempt vassalage on Castile ceding Kingdom of Murcia", "for an alliance attempt only"),
    (["concessions"], "attempt alliance with Caliphate of Tunis ceding Kingdom of Murcia",
     "Caliphate of Tunis is a vassal of Player B"),
])
def test_concessions_are_refused_where_the_rule_does_not_allow_them(options, line, refusal) -> None:
    with pytest.raises(Rejection, match=refusal):
        concession(options, line, [])


def vespers_end(turn: int) -> Play:
    p = closing(["vespers"])
    p.state.turn = turn
    return p


def test_the_vespers_scenario_is_three_game_turns_from_1282() -> None:
    p = Play(["vespers"])
    assert p.game.summary(p.state).turn_label == "Game turn 1 (1282–1290)"
    q = vespers_end(2)
    q.order("A", "done")
    q.drive([1, 1, 1])
    assert q.state.phase == "stratagems" and q.state.turn == 3
    assert q.game.summary(q.state).turn_label == "Game turn 3 (1301–1310)"


def test_vespers_aragon_wins_holding_sicily_and_malta_and_its_counties() -> None:
    p = vespers_end(3)
    p.clear("Malta")
    p.put("Aragon", "levy", "Malta")
    p.order("A", "done")
    p.drive([1, 1, 1])
    st = p.state
    assert st.phase == "over" and st.winner == "B" and p.game.summary(st).winner == "Player B"
    assert p.messages[-1].startswith("The War of the Sicilian Vespers ends: Aragon holds Val di Mazara, Val Demone, "
                                     "Malta and has lost none of")


def test_vespers_any_other_result_is_a_french_victory() -> None:
    p = vespers_end(3)  # Malta is Player A's at the start
    p.clear("Urgell")
    p.put("France", "levy", "Urgell")
    p.order("A", "done")
    p.drive([1, 1, 1])
    assert p.state.winner == "A"
    assert p.messages[-1] == ("The War of the Sicilian Vespers ends: Aragon does not hold Malta; Player A has taken "
                              "Urgell. Player A wins.")


def test_the_standard_game_does_not_end_after_three_turns() -> None:
    p = closing([])
    p.state.turn = 3
    p.order("A", "done")
    p.drive([1, 1, 1])
    assert p.state.phase == "stratagems" and p.state.turn == 4
