"""The Joint Political Phase (7.0), rule by rule with exact results (issue 32: engine/mediterranean_empires/politics.py
decides who allies with whom): the Diplomacy Table at both ends of each kind's range, each refusal's words, the
modifiers and what they spend, an ally reverting (7.1.3) and a rebellion (7.3) with the units they place, and the
thwart of campaigns created before the seed's reading (rules version 1). tests/engine/mediterranean_empires/
test_me_thwart.py plays the seed's thwart through the ruleset."""
from __future__ import annotations

import dataclasses

import pytest

from engine.events import Rejection
from engine.mediterranean_empires import hand, politics
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import Scripted
from engine.mediterranean_empires.politics import Modifiers
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.state import State, Unit, new_state

RULES = default_rules()


def ctx_with(dice: list[int] | None = None, answers: dict[str, str] | None = None, state: State | None = None) -> Ctx:
    """A game at its set-up (rules version 1): Sicily is Player B's ally, the Caliphate of Tunis B's vassal, Genoa
    neutral; the Kings of France (diplomacy 1) and Anjou (0) are Player A's, Aragon's (2) Player B's; no Pope."""
    return Ctx(RULES, state or new_state(RULES), Scripted(dice or [], answers))


def put(state: State, power: str, kind: str, area: str) -> None:
    state.units[state.next_unit] = Unit(state.next_unit, power, kind, area)
    state.next_unit += 1


def units_of(state: State, power: str) -> list[tuple[str, str, bool]]:
    return sorted((u.kind, u.area, u.face_down) for u in state.units.values() if u.power == power)


def attempt(ctx: Ctx, side: str, kind: str, power: str, mods: Modifiers = Modifiers()) -> bool:
    hand.give(ctx.state, side, "Diplomacy")
    return politics.attempt(ctx, side, kind, power, mods)


# --- the Diplomacy Table ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "fails", "succeeds"), [("alliance", 4, 5), ("vassalage", 3, 4), ("rebellion", 4, 5)])
def test_the_diplomacy_table_succeeds_from_5_or_from_4_for_vassalage(kind: str, fails: int, succeeds: int) -> None:
    ctx = ctx_with()
    assert (politics.table_result(ctx, kind, fails), politics.table_result(ctx, kind, succeeds)) == (False, True)
    assert politics.table_result(ctx, kind, 9) is True  # 7+ reads as 7


def test_an_alliance_on_4_fails_and_on_5_is_made_with_the_powers_units_turned_face_up() -> None:
    failed = ctx_with([4])
    assert attempt(failed, "A", "alliance", "Genoa") is False
    assert failed.messages == ["Player A attempts alliance with Genoa.", "The alliance attempt fails (4, modified 4)."]
    assert failed.state.status["Genoa"] == "neutral" and failed.state.sides["A"].attempts_left == ["vassalage",
                                                                                                  "rebellion"]
    made = ctx_with([5])
    assert attempt(made, "A", "alliance", "Genoa") is True
    assert made.messages == ["Player A attempts alliance with Genoa.", "The alliance attempt succeeds (5, modified 5).",
                             "Genoa becomes an ally of Player A."]
    assert (made.state.status["Genoa"], made.state.side_of["Genoa"]) == ("ally", "A")
    assert {face_down for _, _, face_down in units_of(made.state, "Genoa")} == {False}


# --- who may be asked ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("side", "kind", "power", "words"), [
    ("A", "alliance", "Aragon", "politics cannot change the status of France, Anjou or Aragon (7.0); Aragon is one of them"),
    ("B", "alliance", "Sicily", "Sicily is already your ally"),
    ("A", "vassalage", "Sicily", "vassalage is attempted against a neutral power only; Sicily is an ally of Player B"),
    ("A", "vassalage", "Caliphate of Tunis",
     "vassalage is attempted against a neutral power only; Caliphate of Tunis is a vassal of Player B"),
    ("A", "rebellion", "Sicily", "a rebellion needs a power that started the game neutral; Sicily did not (7.3)"),
    ("A", "rebellion", "Genoa", "a rebellion needs Genoa's home area under your opponent's total control (7.3)"),
])
def test_an_attempt_the_rules_do_not_allow_is_refused_saying_why(side: str, kind: str, power: str, words: str) -> None:
    with pytest.raises(Rejection) as refused:
        politics.check_attempt(ctx_with(), side, kind, power)
    assert refused.value.reason == words


def test_an_alliance_may_be_sought_with_the_opponents_ally_and_with_ones_own_vassal() -> None:
    ctx = ctx_with()
    politics.check_attempt(ctx, "A", "alliance", "Sicily")
    politics.check_attempt(ctx, "B", "alliance", "Caliphate of Tunis")
    ctx.state.sides["A"].attempts_left.remove("alliance")
    with pytest.raises(Rejection) as spent:
        politics.check_attempt(ctx, "A", "alliance", "Genoa")
    assert spent.value.reason == ("you have no alliance attempt left this game turn (one of each per turn, and a pass "
                                  "forfeits one)")


def test_a_power_is_described_by_its_status_and_its_player() -> None:
    st = new_state(RULES)
    assert [politics.describe(st, p) for p in ("Genoa", "Sicily", "Caliphate of Tunis", "France", "Aragon")] == [
        "neutral", "an ally of Player B", "a vassal of Player B", "a major power of Player A", "a major power of Player B"]


# --- modifiers ----------------------------------------------------------------------------------------------------


def test_the_modifiers_add_the_kings_rating_the_pope_and_one_tp_and_spend_each() -> None:
    ctx = ctx_with()
    st = ctx.state
    st.pope = "A"
    assert politics.modifier(ctx, "A", Modifiers()) == 0
    assert politics.modifier(ctx, "A", Modifiers("France", True, True)) == 3  # 1 + 1 + 1
    assert (st.kings["France"].diplomacy_used, st.sides["A"].pope_used, st.sides["A"].treasury) == (True, True, 6)
    assert politics.modifier(ctx, "A", Modifiers(tp=True)) == 1 and st.sides["A"].treasury == 5
    assert politics.modifier(ctx, "B", Modifiers("Aragon")) == 2


@pytest.mark.parametrize(("side", "mods", "words"), [
    ("A", Modifiers("Aragon"), "there is no King of Aragon of yours on the map"),
    ("A", Modifiers("Castile"), "there is no King of Castile of yours on the map"),
    ("A", Modifiers(pope=True), "you do not have the Pope in Rome"),
])
def test_a_modifier_the_side_does_not_have_is_refused(side: str, mods: Modifiers, words: str) -> None:
    with pytest.raises(Rejection) as refused:
        politics.modifier(ctx_with(), side, mods)
    assert refused.value.reason == words


def test_each_modifier_helps_once_a_game_turn_and_a_tp_needs_a_treasury() -> None:
    ctx = ctx_with()
    st = ctx.state
    st.kings["France"].diplomacy_used, st.pope, st.sides["A"].pope_used, st.sides["B"].treasury = True, "A", True, 0
    for side, mods, words in [("A", Modifiers("France"), "the King of France has already lent his diplomacy this game turn"),
                              ("A", Modifiers(pope=True), "the Pope has already helped you this game turn"),
                              ("B", Modifiers(tp=True), "you have no treasury point to spend")]:
        with pytest.raises(Rejection) as refused:
            politics.modifier(ctx, side, mods)
        assert refused.value.reason == words
    st.kings["Anjou"].area = None
    with pytest.raises(Rejection, match="^there is no King of Anjou of yours on the map$"):
        politics.modifier(ctx, "A", Modifiers("Anjou"))


def test_a_declared_set_of_modifiers_is_a_value() -> None:
    mods = Modifiers("France", True, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mods.tp = True  # type: ignore[misc]  # the point: a frozen dataclass refuses it
    assert {mods: 1}[Modifiers("France", True, False)] == 1


def test_everything_takes_the_best_unused_king_on_the_map_the_pope_if_free_and_a_tp_if_any() -> None:
    ctx = ctx_with()
    st = ctx.state
    assert politics.best_modifiers(ctx, "A") == Modifiers("France", False, True)
    assert politics.best_modifiers(ctx, "B") == Modifiers("Aragon", False, True)
    st.kings["France"].diplomacy_used, st.pope = True, "A"
    assert politics.best_modifiers(ctx, "A") == Modifiers("Anjou", True, True)
    st.kings["Anjou"].area, st.sides["A"].pope_used, st.sides["A"].treasury = None, True, 0
    assert politics.best_modifiers(ctx, "A") == Modifiers(None, False, False)


def test_the_choices_of_modifiers_are_every_combination_the_side_may_use_now() -> None:
    ctx = ctx_with()
    st = ctx.state
    st.pope = "B"
    assert list(politics.modifier_choices(ctx, "B")) == [
        "none", "1 TP", "the Pope", "the Pope and 1 TP", "the King of Aragon", "the King of Aragon and 1 TP",
        "the King of Aragon and the Pope", "the King of Aragon and the Pope and 1 TP"]
    assert politics.modifier_choices(ctx, "B")["the King of Aragon and the Pope"] == Modifiers("Aragon", True, False)
    st.sides["B"].pope_used, st.kings["Aragon"].diplomacy_used = True, True
    assert list(politics.modifier_choices(ctx, "B")) == ["none", "1 TP"]
    assert list(politics.modifier_choices(ctx, "A")) == [
        "none", "1 TP", "the King of Anjou", "the King of Anjou and 1 TP", "the King of France",
        "the King of France and 1 TP"]  # the Pope is B's


def test_a_side_with_one_modifier_to_add_is_asked_and_one_with_none_is_not() -> None:
    ctx = ctx_with(answers={"modifiers": "1 TP"})
    st = ctx.state
    st.kings["Aragon"].diplomacy_used = True
    assert politics.declare(ctx, "B", "which?") == Modifiers(tp=True)
    st.sides["B"].treasury = 0
    assert politics.declare(ctx, "B", "which?") == Modifiers()


# --- concessions (14.3) -------------------------------------------------------------------------------------------


def test_a_concession_refused_says_which_area_and_why() -> None:
    ctx = ctx_with()
    ctx.state.options = ["concessions"]
    with pytest.raises(Rejection) as refused:
        politics.check_concession(ctx, "A", "alliance", "Castile", "Navarre")
    assert refused.value.reason == "you can cede only an area under your total control; Navarre is not"
    with pytest.raises(Rejection) as neutral_only:
        politics.check_concession(ctx, "A", "alliance", "Sicily", "Navarre")
    assert neutral_only.value.reason == "a territory is ceded for the alliance of a neutral power (14.3); Sicily is an " \
                                        "ally of Player B"


# --- an ally reverts (7.1.3), a power rebels (7.3) ----------------------------------------------------------------


def test_the_opponents_ally_reverts_to_neutral_with_half_a_die_of_its_units_face_down_at_home() -> None:
    """Sicily (2 field armies, 2 levies) is Player B's: A's alliance makes it neutral; 1d6 = 5, halved and rounded
    up, is 3 units, the strongest first, face down in its first home area; its home areas are its own again."""
    ctx = ctx_with([5, 5])
    assert attempt(ctx, "A", "alliance", "Sicily") is True
    assert ctx.messages[-1] == "Sicily reverts to neutrality: 3 of its units stand face down in Val di Mazara."
    assert units_of(ctx.state, "Sicily") == [("field_army", "Val di Mazara", True), ("field_army", "Val di Mazara", True),
                                             ("levy", "Val di Mazara", True)]
    st = ctx.state
    assert (st.status["Sicily"], st.side_of["Sicily"], st.owner["Val di Mazara"], st.owner["Val Demone"]) == (
        "neutral", None, "Sicily", "Sicily")


def test_the_opponents_vassal_is_freed_by_an_alliance() -> None:
    ctx = ctx_with([5])
    assert attempt(ctx, "A", "alliance", "Caliphate of Tunis") is True
    assert ctx.messages[-1] == "Caliphate of Tunis is no longer Player B's vassal: it is neutral again."
    assert (ctx.state.status["Caliphate of Tunis"], ctx.state.side_of["Caliphate of Tunis"]) == ("neutral", None)


def genoa_held_by_b() -> State:
    """Genoa's ground units off the map (its fleets stay) and its home area held by an Aragonese field army."""
    st = new_state(RULES)
    for uid in [u.id for u in st.units.values() if u.power == "Genoa" and u.kind != "fleet"]:
        del st.units[uid]
    put(st, "Aragon", "field_army", "Genoa")
    return st


@pytest.mark.parametrize(("die", "placed"), [
    (1, [("field_army", "Genoa", False)]),
    (3, [("field_army", "Genoa", False), ("field_army", "Genoa", False), ("levy", "Genoa", False)]),
    (6, [("field_army", "Genoa", False), ("field_army", "Genoa", False), ("levy", "Genoa", False),
         ("levy", "Genoa", False)]),
])
def test_a_rebellion_raises_a_die_of_ground_units_up_to_the_powers_counters(die: int, placed: list) -> None:
    """Genoa's counters: 2 field armies, 2 levies (and 3 fleets, which leave the map): a 6 raises 4, not 6."""
    ctx = ctx_with([5, die], state=genoa_held_by_b())
    assert attempt(ctx, "A", "rebellion", "Genoa") is True
    assert ctx.messages[-1] == f"Genoa rebels in Genoa: {len(placed)} of its units rise for Player A."
    assert units_of(ctx.state, "Genoa") == placed
    assert (ctx.state.status["Genoa"], ctx.state.side_of["Genoa"]) == ("ally", "A")


def test_a_rebellion_needs_every_ground_unit_of_the_power_off_the_map() -> None:
    st = genoa_held_by_b()
    put(st, "Genoa", "levy", "Corsica")
    with pytest.raises(Rejection) as refused:
        politics.check_attempt(ctx_with(state=st), "A", "rebellion", "Genoa")
    assert refused.value.reason == "a rebellion needs every ground unit of Genoa off the map (7.3)"


# --- the thwart of campaigns of rules version 1 ---------------------------------------------------------------------


def test_an_old_campaigns_thwart_let_pass_spends_nothing_of_the_opponent() -> None:
    ctx = ctx_with([4], {"thwart": "let it pass"})
    hand.give(ctx.state, "B", "Diplomacy")
    assert attempt(ctx, "A", "alliance", "Genoa") is False
    assert ctx.messages == ["Player A attempts alliance with Genoa.", "The alliance attempt fails (4, modified 4)."]
    assert [e["marker"] for e in ctx.state.sides["B"].hand] == ["Diplomacy"]


def test_an_old_campaigns_thwart_fails_on_a_tie_and_the_modifiers_are_spent_on_it() -> None:
    """Old reading: both roll with their modifiers at once; B's 4 against A's 3 + 1 TP = 4 does not stop it, and the
    TP is not added again to the Diplomacy Table roll (4 fails)."""
    ctx = ctx_with([4, 3, 4], {"thwart": "thwart"})
    hand.give(ctx.state, "B", "Diplomacy")
    assert attempt(ctx, "A", "alliance", "Genoa", Modifiers(tp=True)) is False
    assert ctx.messages == ["Player A attempts alliance with Genoa.", "Player B fails to thwart it (4 against 4).",
                            "The alliance attempt fails (4, modified 4)."]
    assert ctx.state.sides["B"].hand == [] and ctx.state.sides["A"].treasury == 6
