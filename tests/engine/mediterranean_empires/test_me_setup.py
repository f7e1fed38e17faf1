"""3.1-3.2, the set-up as play (rules version 3): Player A, then Player B, place their majors' units and Kings, each
placement checked and refused with the rule; 'standard set-up' places the documented default in one line and gives
exactly the board older campaigns began with; older campaigns still begin with it on the map."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.log import replay
from engine.mediterranean_empires.commands import command_line
from engine.mediterranean_empires.orders import Place, StandardSetUp
from engine.mediterranean_empires.parse import read_line
from engine.mediterranean_empires.rules_version import SEED_READINGS, SEED_SETUP
from tests.engine.mediterranean_empires.me_play import Play
from tests.games.mediterranean_empires_set_up import OWN_SET_UP

SETUP = {"players": {"Player A": "ann", "Player B": "bob"}, "randomness": "commit-reveal"}


def placed(p: Play, power: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in p.state.units.values():
        if u.power == power:
            out.setdefault(u.area, []).append(u.kind)
    return {a: sorted(k) for a, k in sorted(out.items())}


def refused(p: Play, side: str, line: str) -> str:
    before = p.game.public_view(p.state)
    with pytest.raises(Rejection) as exc:
        p.order(side, line)
    assert p.game.public_view(p.state) == before  # nothing half-applied
    return exc.value.reason


def test_a_new_campaign_begins_with_player_a_setting_up_and_the_majors_off_the_map() -> None:
    p = Play(rules_version=SEED_SETUP)
    st = p.state
    assert (st.phase, st.to_move) == ("set-up", "A")
    assert not [u for u in st.units.values() if u.power in ("France", "Anjou", "Aragon")]
    assert len(st.unplaced) == 14 + 8 + 20 and all(st.kings[k].area is None for k in ("France", "Anjou", "Aragon"))
    assert placed(p, "Genoa") == {"Corsica": ["levy"], "Genoa": ["field_army", "levy"], "Ligurian Sea": ["fleet", "fleet"],
                                  "Olbia": ["field_army"], "Sea of Sardinia": ["fleet"]}  # 3.3.1: the data's
    [prompt] = p.game.prompts(st)
    assert (prompt.seat, prompt.what, prompt.choices, prompt.on_timeout) == (
        "Player A", "place your units and Kings (3.1: 'place a levy of France in Albi') or 'standard set-up'",
        ("standard set-up",), None)
    assert p.game.public_view(st)["to_place"] == {
        "A": "France: 5 levies, 5 field armies, 4 fleets, its King; Anjou: 3 levies, 3 field armies, 2 fleets, its King",
        "B": "Aragon: 4 field armies, 2 mercenaries, 6 levies, 4 raiders, 4 fleets, its King"}


def test_the_standard_set_up_gives_exactly_the_board_older_campaigns_began_with() -> None:
    p = Play(rules_version=SEED_SETUP)
    p.order("A", "standard set-up")
    assert p.state.to_move == "B" and p.messages[-1] == (
        "Player A's set-up is complete. Player B sets up now (3.2): 'place ...' or 'standard set-up'.")
    p.order("B", "Standard Set-Up")
    assert p.messages[-1] == "The set-up is complete: game turn 1 begins. Player A draws a stratagem marker first ('draw')."
    old = Play(rules_version=SEED_READINGS).state
    assert p.game.public_view(p.state) == p.game.public_view(old)
    assert [(u.id, u.area, u.kind) for u in p.state.units.values()] == [(u.id, u.area, u.kind) for u in old.units.values()]
    assert p.state.start_control == old.start_control and p.state.phase == "stratagems"
    assert p.messages[-2].startswith("Player B takes the standard set-up: Aragon: 1 field army and 2 mercenaries in "
                                     "Catalan counties, 1 levy in Kingdom of Majorca,")
    assert p.messages[-2].endswith("3 fleets in Balearic Sea, 1 fleet in Gulf of Lion, the King in Catalan counties.")


def test_the_players_own_set_up_places_what_they_chose_then_the_game_begins() -> None:
    p = Play(rules_version=SEED_SETUP)
    for seat, side in (("Player A", "A"), ("Player B", "B")):
        for line in OWN_SET_UP[seat]:
            p.order(side, line)
    assert p.state.phase == "stratagems" and p.state.to_move == "A"
    assert placed(p, "Anjou") == {"Abruzzi": ["levy"], "Calabria": ["levy"], "Duchy of Apulia": ["field_army"],
                                  "Kingdom of Naples": ["field_army", "field_army"], "Malta": ["levy"],
                                  "South Tyrrhenian Sea": ["fleet", "fleet"]}
    assert placed(p, "Aragon")["Rosselló"] == ["field_army", "field_army"]
    assert {k: p.state.kings[k].area for k in ("France", "Anjou", "Aragon")} == {
        "France": "Vienne", "Anjou": "Duchy of Apulia", "Aragon": "Rosselló"}
    assert list(p.state.units) == sorted(p.state.units)  # back in id order, as the data's placement is
    assert "to_place" not in p.game.public_view(p.state)


def test_player_b_waits_for_player_a_and_each_places_only_its_own_majors() -> None:
    p = Play(rules_version=SEED_SETUP)
    assert refused(p, "B", "standard set-up") == "Player A sets up now (Player A first, 3.1; then Player B, 3.2)"
    assert refused(p, "A", "place a levy of Aragon in Urgell") == (
        "Player A places France and Anjou; Aragon is not among them: it is Player B's")
    assert refused(p, "A", "place a levy of Genoa in Genoa") == (
        "Player A places France and Anjou; Genoa is not among them: the set-up's data places it (3.3.1)")


def test_land_units_go_in_their_powers_listed_areas_and_fleets_by_the_sides_lands() -> None:
    p = Play(rules_version=SEED_SETUP)
    assert refused(p, "A", "place a levy of France in Kingdom of Naples") == (
        "France's land units are placed in its listed areas (Albi, County of Toulouse, Montpellier, Provence County, "
        "Vienne and Auvergne); Kingdom of Naples is not one")
    assert refused(p, "A", "place a fleet of France in Balearic Sea") == (
        "a fleet is placed in a sea area adjacent to a land area Player A controls (3.1); Balearic Sea is not one")
    assert refused(p, "A", "place 6 levies of France in Albi") == (
        "France has 5 levies left to place, not 6; left to place: France: 5 levies, 5 field armies, 4 fleets, its "
        "King; Anjou: 3 levies, 3 field armies, 2 fleets, its King")
    p.order("A", "place a fleet of Anjou in Gulf of Lion")  # by Provence County, a land area Player A controls
    assert [u.area for u in p.state.units.values() if u.power == "Anjou"] == ["Gulf of Lion"]


def test_a_placement_that_would_leave_a_listed_area_empty_for_good_is_refused() -> None:
    p = Play(rules_version=SEED_SETUP)
    p.order("A", "place 5 levies of France in Albi")
    assert refused(p, "A", "place a field army of France in Albi") == (
        "at least one land unit of France goes in each of its listed areas (3.1-3.2): after 1 field army in Albi, 4 "
        "would be left for 5 areas still empty (County of Toulouse, Montpellier, Provence County, Vienne and Auvergne)")
    p.order("A", "place a field army of France in Vienne")  # fills an empty area: still possible to finish


def test_a_king_goes_only_beside_a_land_unit_of_his_power_in_its_listed_areas() -> None:
    p = Play(rules_version=SEED_SETUP)
    assert refused(p, "A", "place the King of France in Vienne") == (
        "the King of France is placed in one of France's listed areas holding a land unit of France (3.0); Vienne is "
        "not one: place a land unit of France first")
    p.order("A", "place a levy of France in Albi")
    p.order("A", "place a field army of Anjou in Kingdom of Naples")
    assert refused(p, "A", "place the King of France in Kingdom of Naples") == (
        "the King of France is placed in one of France's listed areas holding a land unit of France (3.0); Kingdom "
        "of Naples is not one: choose Albi")
    p.order("A", "place the King of France in Albi")
    assert p.state.kings["France"].area == "Albi"
    assert refused(p, "A", "place the King of France in Albi") == "the King of France is placed already"
    assert refused(p, "A", "standard set-up").startswith(
        "the standard set-up places all of Player A's units, and some are placed already: place the rest (France: "
        "4 levies, 5 field armies, 4 fleets; Anjou: 3 levies, 2 field armies, 2 fleets, its King) with 'place ...'")


def test_other_orders_wait_for_the_set_up_and_placements_for_nothing_after_it() -> None:
    p = Play(rules_version=SEED_SETUP)
    assert refused(p, "A", "draw") == (
        "'draw' is not a set-up order, and the game begins with the set-up (3.1-3.2); now you are asked: place your "
        "units and Kings (3.1: 'place a levy of France in Albi') or 'standard set-up'")
    assert refused(p, "B", "hello") == ("'hello' is not a set-up order, and the game begins with the set-up "
                                        "(3.1-3.2); Player A sets up now (Player A first, then Player B)")
    p.order("A", "take losses cheapest first")  # a standing order is kept at any time
    p.order("A", "standard set-up")
    p.order("B", "standard set-up")
    assert refused(p, "A", "place a levy of France in Albi") == (
        "the set-up is over: units come onto the map by recruitment ('recruit a levy of France in Vienne', 6.2)")
    old = Play(rules_version=SEED_READINGS)
    assert old.state.phase == "stratagems"
    assert refused(old, "A", "standard set-up") == (
        "this campaign began with the documented set-up on the map (created before the set-up was played, rules "
        "version 3): the GM corrects a placement with /gm set units")


def test_placements_are_read_in_words_and_replay_from_the_log() -> None:
    p = Play(rules_version=SEED_SETUP)
    rules = p.game.rules
    assert read_line(rules, "Place the King of France at Provence") == Place(1, "king", "France", "Provence County")
    assert read_line(rules, "place two field armies of the Anjou in Naples") == Place(2, "field_army", "Anjou",
                                                                                      "Kingdom of Naples")
    assert read_line(rules, "standard setup") == StandardSetUp()
    [proposal] = p.game.read_post(p.state, "ann", "place a levy of France in Albi")
    assert proposal.data == {"seat": "Player A", "order": {"order": "place", "count": 1, "kind": "levy",
                                                           "power": "France", "area": "Albi"}}
    events = [Event(1, "campaign.created", "gm", {**SETUP, "rules_version": SEED_SETUP}),
              Event(2, "order", "ann", proposal.data), Event(3, "order", "ann", {"seat": "Player A", "text": "standard set-up"})]
    with pytest.raises(Rejection, match="some are placed already"):
        replay(p.game, events)
    folded = replay(p.game, events[:2])
    assert [(u.power, u.kind, u.area) for u in folded.state.units.values() if u.power == "France"] == [
        ("France", "levy", "Albi")]


def test_the_place_command_is_the_typed_line_with_names_picked() -> None:
    rules = Play(rules_version=SEED_SETUP).game.rules
    assert command_line("place", ["2 levies", "France", "Albi"]) == "place 2 levies of France in Albi"
    assert read_line(rules, command_line("place", ["king", "Aragon", "Rosselló"])) == Place(1, "king", "Aragon", "Rosselló")
    with pytest.raises(ValueError, match=r"/place needs 3 argument\(s\): .*e.g. /place 2 levies France Albi"):
        command_line("place", ["a fleet", "Anjou"])
