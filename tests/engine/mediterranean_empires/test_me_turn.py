"""The turn's phases with exact results (issue 32: engine/mediterranean_empires/turn.py decides who moves first, what
a side collects and recruits, who dies): the political rounds giving way to recruitment, the treasury's cap, the
recruitment roll (Player A wins ties), every refusal of a recruitment with its words at both ends of each bound, and
the deaths of the End of Turn (Kings on 5-6, the Pope on 6)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from engine.events import Rejection
from engine.mediterranean_empires import turn
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import Scripted
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.state import State, new_state

RULES = default_rules()


class Asked(Scripted):
    """Scripted dice and answers that also keep each question asked: (label, question, choices)."""

    def __init__(self, dice: list[int], answers: dict[str, str] | None = None) -> None:
        super().__init__(dice, answers)
        self.questions: list[tuple[str, str, tuple[str, ...]]] = []

    def ask(self, seat: str, label: str, question: str, choices: Iterable[str], default: str,
            context: dict[str, Any] | None = None, mode: str = "reaction") -> str:
        self.questions.append((label, question, tuple(choices)))
        return super().ask(seat, label, question, choices, default, context, mode)


def ctx_with(dice: list[int] | None = None, answers: dict[str, str] | None = None, state: State | None = None) -> Ctx:
    return Ctx(RULES, state or new_state(RULES), Asked(dice or [], answers))


def recruiting(to_move: str = "A") -> Ctx:
    """The set-up's board in the Joint Recruitment Phase: treasuries A 7, B 4."""
    st = new_state(RULES)
    st.phase, st.to_move = "recruitment", to_move
    return ctx_with(state=st)


def refusal(ctx: Ctx, side: str, power: str, kind: str, area: str, count: int = 1) -> str:
    with pytest.raises(Rejection) as refused:
        turn.recruit(ctx, side, power, kind, area, count)
    return refused.value.reason


# --- the political rounds, then recruitment -------------------------------------------------------------------------


def test_b_follows_a_and_the_last_round_gives_way_to_recruitment_with_the_treasuries_capped() -> None:
    """Income at the set-up: A 7, B 9; treasuries A 9 and B 4 before it, capped at 10."""
    st = new_state(RULES)
    st.phase, st.political_round, st.to_move = "political", RULES.political_rounds - 1, "A"
    st.sides["A"].treasury = 9
    ctx = ctx_with([4, 3, 3], {"recruit_order": "second"})  # the Tunis vassal roll 4, then the recruitment roll 3 to 3
    ctx.state = st
    turn.political_done(ctx, "A")
    assert (st.phase, st.to_move, st.political_round) == ("political", "B", RULES.political_rounds - 1)
    turn.political_done(ctx, "B")
    assert (st.phase, st.to_move, st.political_round) == ("political", "A", RULES.political_rounds)
    turn.political_done(ctx, "A")
    assert ctx.messages == []
    turn.political_done(ctx, "B")
    assert st.phase == "recruitment"
    assert ctx.messages == ["Player A collects 7 TP (6 forfeit over the cap): treasury 10.",
                            "Player B collects 9 TP (3 forfeit over the cap): treasury 10.",
                            "Recruitment: Player B places first."]
    assert ctx.oracle.questions == [("t1.recruit_order", "You won the recruitment roll (3 to 3): place first or second?",
                                     ("first", "second"))]  # a tie is Player A's
    assert (st.sides["A"].gained, st.sides["B"].gained, st.to_move) == (1, 6, "B")


def test_income_under_the_cap_is_collected_whole_and_the_higher_roll_chooses() -> None:
    st = new_state(RULES)
    st.sides["A"].treasury, st.sides["B"].treasury = 0, 1
    ctx = ctx_with([4, 2, 5], state=st)
    turn.start_recruitment(ctx)
    assert ctx.messages == ["Player A collects 7 TP: treasury 7.", "Player B collects 9 TP: treasury 10.",
                            "Recruitment: Player B places first."]
    assert ctx.oracle.questions == [("t1.recruit_order", "You won the recruitment roll (5 to 2): place first or second?",
                                     ("first", "second"))]
    assert (st.sides["A"].gained, st.sides["B"].gained) == (7, 9)


# --- recruiting -----------------------------------------------------------------------------------------------------


def test_a_unit_recruited_is_paid_placed_and_the_other_player_follows() -> None:
    ctx = recruiting()
    st = ctx.state
    before = len(st.units)
    turn.recruit(ctx, "A", "France", "field_army", "Vienne")
    assert ctx.messages == ["Player A recruits 1 field army(s) of France in Vienne for 1 TP."]
    assert (st.sides["A"].treasury, st.sides["A"].recruits_here, st.to_move, len(st.units)) == (6, {"Vienne": 1}, "B",
                                                                                                before + 1)
    assert refusal(ctx, "A", "France", "levy", "Vienne") == "Player B places now; you follow"
    st.to_move = "A"
    turn.recruit(ctx, "A", "France", "levy", "Vienne", 2)  # two levies: one half TP each, 1 TP
    assert ctx.messages[-1] == "Player A recruits 2 levy(s) of France in Vienne for 1 TP."
    assert (st.sides["A"].treasury, st.sides["A"].recruits_here) == (5, {"Vienne": 3})
    st.to_move = "A"
    assert refusal(ctx, "A", "France", "levy", "Vienne") == "at most 3 units recruited in one area"


def test_two_levies_or_one_unit_at_a_time() -> None:
    ctx = recruiting()
    assert refusal(ctx, "A", "France", "levy", "Vienne", 3) == "one unit at a time, or two levies (5.1)"
    assert refusal(ctx, "A", "France", "field_army", "Vienne", 2) == "one unit at a time, or two levies (5.1)"
    turn.recruit(ctx, "A", "France", "levy", "Vienne", 1)
    assert ctx.messages == ["Player A recruits 1 levy(s) of France in Vienne for 1 TP."]  # half a TP rounds up


def test_a_recruitment_refused_says_why() -> None:
    ctx = recruiting()
    st = ctx.state
    assert refusal(ctx, "A", "Genoa", "levy", "Genoa") == "Genoa is not your power nor your ally"
    assert refusal(ctx, "A", "France", "raider", "Vienne") == "France has 0 raider counter(s) left in its pool"
    st.sides["A"].treasury = 1
    assert refusal(ctx, "A", "France", "fleet", "Gulf of Lion") == "that costs 2 TP and your treasury holds 1"
    st.phase = "political"
    assert refusal(ctx, "A", "France", "levy", "Vienne") == "units are recruited in the Joint Recruitment Phase only"
    assert ctx.messages == []


def test_an_ally_recruits_one_unit_a_turn_from_its_own_home_area() -> None:
    ctx = recruiting("B")
    st = ctx.state
    levy = next(u.id for u in st.units.values() if u.power == "Sicily" and u.kind == "levy")
    del st.units[levy]
    turn.recruit(ctx, "B", "Sicily", "levy", "Val di Mazara")
    assert ctx.messages == ["Player B recruits 1 levy(s) of Sicily in Val di Mazara for 1 TP."]
    assert st.sides["B"].recruited_allies == ["Sicily"]
    st.to_move = "B"
    assert refusal(ctx, "B", "Sicily", "levy", "Val di Mazara") == (
        "one unit per allied power per turn, and you have recruited Sicily's already")
    st.sides["B"].recruited_allies = []
    for uid in [u.id for u in st.units.values() if u.area in ("Val di Mazara", "Val Demone")]:
        del st.units[uid]
    st.owner["Val di Mazara"] = st.owner["Val Demone"] = "A"
    assert refusal(ctx, "B", "Sicily", "levy", "Val di Mazara") == (
        "Sicily's home area is not under your total control: you cannot recruit its units (6.2)")


def test_when_both_have_said_done_the_operations_of_player_a_open() -> None:
    ctx = recruiting()
    st = ctx.state
    turn.recruitment_done(ctx, "A")
    assert (st.to_move, st.sides["A"].done, st.phase) == ("B", True, "recruitment")
    turn.recruit(ctx, "B", "Aragon", "levy", "Upper Aragon")
    assert st.to_move == "B"  # A is done: B goes on alone
    turn.recruitment_done(ctx, "B")
    assert (st.phase, st.to_move, st.force) == ("operations A", "A", None)
    assert ctx.messages[-1] == "Player A's Operations Phase."


# --- the End of Turn ------------------------------------------------------------------------------------------------


def test_kings_die_on_5_or_6_and_the_pope_on_6() -> None:
    """The dice go to the Kings in name order (Anjou, Aragon, France), then to the Pope's holder."""
    st = new_state(RULES)
    st.pope = st.pope_holder = "A"
    ctx = ctx_with([5, 4, 6, 5], state=st)
    turn.close_turn(ctx)
    assert ctx.messages == ["The King of Anjou dies of disease or old age.", "The King of France dies of disease or old age.",
                            "Game turn 2 (1291–1300) begins: draw stratagem markers."]
    assert [st.kings[k].died_turn for k in ("Anjou", "Aragon", "France")] == [1, None, 1]
    assert (st.pope, st.kings["Aragon"].area) == ("A", "Catalan counties")
    st.phase = "end of turn"
    again = ctx_with([1, 6], state=st)  # Aragon's King alone is left to roll
    turn.close_turn(again)
    assert again.messages == ["The Pope dies.", "Game turn 3 (1301–1310) begins: draw stratagem markers."]
    assert st.pope is None and turn.POPE in st.unseen
