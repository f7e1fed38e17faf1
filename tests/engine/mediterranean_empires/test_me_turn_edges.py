"""The turn sequence's edges with exact results and words (issue 32: the survivors of a mutation run on
engine/mediterranean_empires/turn.py): the Crusade's default picks and the labels of its questions, the last marker
of the pool, a new King's placement (no King to crown, two areas to choose from), the redistribution roll and its
refusals, the stacking limit at the end of the turn, a mutiny's die and the Vespers victory's words."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from engine.events import Rejection
from engine.mediterranean_empires import options, turn
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import Scripted
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.rules_version import SEED_READINGS
from engine.mediterranean_empires.state import State, Unit, new_state

RULES = default_rules()


class Asked(Scripted):
    """Scripted dice and answers that also keep each question: (label, question, choices, default, mode)."""

    def __init__(self, dice: list[int], answers: dict[str, str] | None = None) -> None:
        super().__init__(dice, answers)
        self.questions: list[tuple[str, str, tuple[str, ...], str, str]] = []

    def ask(self, seat: str, label: str, question: str, choices: Iterable[str], default: str,
            context: dict[str, Any] | None = None, mode: str = "reaction") -> str:
        self.questions.append((label, question, tuple(choices), default, mode))
        return super().ask(seat, label, question, choices, default, context, mode)


def ctx_of(st: State, dice: list[int] | None = None, answers: dict[str, str] | None = None) -> Ctx:
    return Ctx(RULES, st, Asked(dice or [], answers))


def questions(ctx: Ctx) -> list[tuple[str, str, tuple[str, ...], str, str]]:
    assert isinstance(ctx.oracle, Asked)
    return ctx.oracle.questions


def add(st: State, power: str, kind: str, area: str) -> int:
    st.units[st.next_unit] = Unit(st.next_unit, power, kind, area)
    st.next_unit += 1
    return st.next_unit - 1


def without(st: State, side: str) -> State:
    """The board with none of ``side``'s units."""
    for uid in [u.id for u in st.units.values() if st.side_of.get(u.power) == side]:
        del st.units[uid]
    return st


# --- the Crusade -----------------------------------------------------------------------------------------------------


def test_the_crusades_default_picks_are_levies_before_a_field_army_of_a_lower_number() -> None:
    st = without(new_state(RULES), "A")
    army = add(st, "France", "field_army", "Vienne")  # numbered first: the order of kinds, not of numbers, decides
    add(st, "France", "levy", "Albi")
    add(st, "France", "levy", "Auvergne")
    add(st, "France", "fleet", "Gulf of Lion")
    ctx = ctx_of(st)
    turn.crusade(ctx, "A")
    choices = ("levy of France in Albi", "levy of France in Auvergne", "field army of France in Vienne")
    assert questions(ctx) == [  # one fleet: no question for it
        ("crusade.unit1.crusader", "The Crusade: which unit (not raiders) do you send to the Holy Land (1 of 2)?",
         choices, "levy of France in Albi", "reaction"),
        ("crusade.unit2.crusader", "The Crusade: which unit (not raiders) do you send to the Holy Land (2 of 2)?",
         choices[1:], "levy of France in Auvergne", "reaction")]
    assert ctx.messages == ["Player A sends a fleet of France in Gulf of Lion to the Holy Land.",
                            "Player A sends a levy of France in Albi to the Holy Land.",
                            "Player A sends a levy of France in Auvergne to the Holy Land.",
                            "The Pope calls a Crusade: Player A sends 3 unit(s) to the Holy Land."]
    assert st.sides["A"].set_aside == [["France", "fleet", 1], ["France", "levy", 1], ["France", "levy", 1]]
    assert [u.id for u in st.units.values() if st.side_of.get(u.power) == "A"] == [army]


def test_a_mercenary_goes_before_a_levy() -> None:
    st = without(new_state(RULES), "A")
    add(st, "France", "levy", "Albi")
    add(st, "France", "mercenary", "Vienne")
    ctx = ctx_of(st)
    turn.crusade(ctx, "A")
    assert questions(ctx)[0][2:4] == (("mercenaries of France in Vienne", "levy of France in Albi"),
                                            "mercenaries of France in Vienne")
    assert st.sides["A"].set_aside == [["France", "mercenary", 1], ["France", "levy", 1], ["owed", "fleet", 1]]


# --- the Stratagem Phase's last markers ------------------------------------------------------------------------------


def test_one_marker_left_in_the_pool_is_still_drawn_by_the_other_player() -> None:
    st = new_state(RULES)
    st.phase, st.to_move, st.drawn_this_phase = "stratagems", "A", {"A": 1, "B": 1}
    st.unseen = ["Gold", "Trade Concession"]
    ctx = ctx_of(st, [1, 1])  # each die is the marker's place in the sorted pool
    turn.draw(ctx, "A")
    assert (st.phase, st.to_move, st.drawn_this_phase, st.unseen) == ("stratagems", "B", {"A": 2, "B": 1},
                                                                      ["Trade Concession"])
    turn.draw(ctx, "B")
    assert (st.phase, st.to_move, st.political_round, st.drawn_this_phase) == ("political", "A", 1, {"A": 2, "B": 2})
    assert ctx.messages == ["Player A draws a stratagem marker.", "Player B draws a stratagem marker.",
                            "Game turn 1: the Political Phase opens (round 1 of 3)."]


# --- a new King ------------------------------------------------------------------------------------------------------


def french_king_died(levies: dict[str, int], version: int = SEED_READINGS) -> State:
    """The King of France died last game turn; France's land units are only ``levies`` (area: count), in areas of
    Player A's total control."""
    st = new_state(RULES)
    st.rules_version, st.turn = version, 2
    for uid in [u.id for u in st.units.values() if u.power == "France" and u.area in RULES.map.lands]:
        del st.units[uid]
    for area, count in levies.items():
        for u in st.units_in(area):
            del st.units[u.id]
        st.owner[area] = "A"
        for _ in range(count):
            add(st, "France", "levy", area)
    st.kings["France"].area, st.kings["France"].died_turn = None, 1
    return st


def test_two_areas_are_enough_for_the_player_to_choose() -> None:
    st = french_king_died({"Vienne": 2, "Albi": 1})
    ctx = ctx_of(st, [1])
    turn.new_king(ctx, "France")
    assert questions(ctx) == [("t2.France.king_area", "Where is the new King of France (+0 +2) placed?",
                                     ("Vienne", "Albi"), "Vienne", "turn")]
    assert ctx.messages == ["A new King of France (+0 +2) is crowned in Vienne."]
    assert ctx.oracle.used == ["t2.king.France"]
    assert st.king_pool["France"] == [[2, 0], [1, 2], [1, 1]]  # the dead King's counter goes back to the pool


def test_one_area_is_no_question() -> None:
    st = french_king_died({"Albi": 1})
    ctx = ctx_of(st, [3])
    turn.new_king(ctx, "France")
    assert questions(ctx) == []
    assert ctx.messages == ["A new King of France (+1 +2) is crowned in Albi."]
    king = st.kings["France"]
    assert (king.area, king.diplomacy, king.military) == ("Albi", 1, 2)


@pytest.mark.parametrize("empty", ["pool", "areas"])
def test_no_king_is_crowned_without_one_in_the_pool_or_an_area_for_him(empty: str) -> None:
    st = french_king_died({} if empty == "areas" else {"Vienne": 1})
    if empty == "pool":
        st.king_pool["France"] = []
    ctx = ctx_of(st, [1])
    turn.new_king(ctx, "France")
    assert ctx.messages == ["No new King of France this game turn."]
    assert ctx.oracle.used == [] and questions(ctx) == []
    assert (st.kings["France"].area, len(st.king_pool["France"])) == (None, 0 if empty == "pool" else 3)


# --- the End of Turn -------------------------------------------------------------------------------------------------


def end_of_turn(dice: list[int], answer: str | None = None) -> Ctx:
    st = new_state(RULES)
    st.phase, st.to_move = "operations B", "B"
    ctx = ctx_of(st, dice, {"redistribute_order": answer} if answer else None)
    turn.end_operations(ctx, "B")
    return ctx


@pytest.mark.parametrize(("dice", "winner", "answer", "first"), [
    ([5, 2], "A", None, "A"), ([2, 5], "B", None, "B"), ([5, 2], "A", "second", "B"), ([3, 3], "A", "second", "B")])
def test_the_redistribution_roll_names_the_winners_roll_first(dice: list[int], winner: str, answer: str | None,
                                                                first: str) -> None:
    ctx = end_of_turn(dice, answer)
    high, low = max(dice), min(dice)
    assert questions(ctx) == [("t1.redistribute_order", f"You won the redistribution roll ({high} to {low}): "
                                     "redistribute first or second?", ("first", "second"), "first", "turn")]
    assert ctx.oracle.used == ["t1.redistribute.A", "t1.redistribute.B"]
    assert (ctx.state.phase, ctx.state.to_move) == ("end of turn", first)
    assert ctx.messages == [f"The End of Turn Phase: Player {first} redistributes first (one unit, or two levies, at a "
                            "time), then the players alternate until each says 'done'."]


def redistributing(to_move: str = "A") -> Ctx:
    st = new_state(RULES)
    st.phase, st.to_move = "end of turn", to_move
    return ctx_of(st)


def redistribution_refused(ctx: Ctx, side: str, uid: int, to: str) -> str:
    with pytest.raises(Rejection) as refused:
        turn.redistribute(ctx, side, uid, to)
    return refused.value.reason


def test_a_redistribution_out_of_turn_or_of_a_unit_not_yours_is_refused() -> None:
    ctx = redistributing("B")
    st = ctx.state
    levy = next(u.id for u in st.units.values() if u.power == "France" and u.area == "Albi")
    aragon = next(u.id for u in st.units.values() if u.power == "Aragon")
    assert redistribution_refused(ctx, "A", levy, "Auvergne") == "Player B redistributes now; you follow"
    st.to_move = "A"
    assert redistribution_refused(ctx, "A", aragon, "Auvergne") == "that unit is not yours"
    assert redistribution_refused(ctx, "A", st.next_unit, "Auvergne") == "that unit is not yours"
    assert ctx.messages == [] and st.units[levy].area == "Albi"
    turn.redistribute(ctx, "A", levy, "Auvergne")
    assert ctx.messages == ["Player A redistributes a levy of France to Auvergne."]
    assert (st.units[levy].area, st.units[levy].redistributed) == ("Auvergne", True)


def test_done_is_refused_over_the_stacking_limit_and_accepted_at_it() -> None:
    ctx = redistributing("A")
    st = ctx.state
    assert RULES.map.lands["Auvergne"].city is None and RULES.map.lands["Vienne"].city == "Vienne"
    extra = [add(st, "France", "field_army", "Auvergne") for _ in range(3)]  # with the levy there: 4, limit 3
    for _ in range(4):
        add(st, "France", "levy", "Vienne")  # with the field army and the levy there: 6, limit 5
    with pytest.raises(Rejection) as refused:
        turn.end_of_turn_done(ctx, "A")
    assert refused.value.reason == ("too many units at the end of the turn (5.2): Auvergne (4, limit 3), "
                                    "Vienne (6, limit 5); redistribute first")
    del st.units[extra[0]]
    del st.units[max(u.id for u in st.units_in("Vienne"))]
    turn.end_of_turn_done(ctx, "A")
    assert (st.sides["A"].done, st.to_move) == (True, "B")


def test_a_mutiny_rolls_a_die_of_its_own_per_idle_mercenary() -> None:
    st = new_state(RULES)
    for uid in [u.id for u in st.units.values() if u.kind == "mercenary"]:
        del st.units[uid]
    loyal, fought, gone = (add(st, "France", "mercenary", area) for area in ("Vienne", "Albi", "Auvergne"))
    st.units[fought].combats = 1
    ctx = ctx_of(st, [5, 4])
    turn.mutiny(ctx)
    assert ctx.oracle.used == [f"t1.mutiny.{loyal}", f"t1.mutiny.{gone}"]
    assert ctx.messages == ["The idle mercenaries of France in Vienne stay loyal (5).",
                            "The idle mercenaries of France in Auvergne mutiny (4): they run amok and leave the map; "
                            "Player A loses 1 TP."]
    assert (loyal in st.units, fought in st.units, gone in st.units, st.sides["A"].treasury) == (True, True, False, 6)


def test_the_vespers_victory_of_aragon_names_what_it_holds_and_keeps() -> None:
    st = new_state(RULES)
    st.options = [options.VESPERS]
    for area in ("Val di Mazara", "Val Demone", "Malta"):
        for u in st.units_in(area):
            del st.units[u.id]
        st.owner[area] = "B"
    ctx = ctx_of(st)
    turn.vespers_victory(ctx)
    assert (st.winner, st.phase, st.vp) == ("B", "over", {})
    assert ctx.messages == ["The War of the Sicilian Vespers ends: Aragon holds Val di Mazara, Val Demone, Malta and "
                            "has lost none of Upper Aragon, Rosselló, Catalan counties, Urgell. Player B wins."]
