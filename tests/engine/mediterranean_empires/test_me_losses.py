"""The losing player chooses its losses (CA, BB, DV): a reaction prompt per unit, cheapest first by default, and the
standing order 'take losses cheapest first' answers it in advance. Played through the Ruleset."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.ruleset import REACTION
from tests.engine.mediterranean_empires.me_play import battle

# Activate France in Montpellier: OPs 3+3; move to Rosselló (Player B's units there may intercept: they do not);
# attack: B fights; initiative 6 to 1 for A, who picks the field battle; no markers are held.
TO_BATTLE = [3, 3, 6, 1]


def test_decisive_victory_the_defender_picks_which_units_make_up_the_four() -> None:
    p = battle(["levy", "levy", "raider", "field_army", "field_army"])
    # Combat roll 6 on the 4-unit column: DV. B owes units worth 4 and gives both field armies.
    p.drive([6, 1, 6], {"avoid": "fight", "loss": ["field army of Aragon", "field army of Aragon"]})
    losses = [q for q in p.asked if q.what.startswith("Losses in Rosselló")]
    assert len(losses) == 2 and all(q.seat == "Player B" and q.mode == REACTION for q in losses)
    first = losses[0]
    assert first.choices == ("levy of Aragon", "raiders of Aragon", "field army of Aragon")
    assert first.on_timeout == "levy of Aragon", "the default is today's cheapest first"
    assert "units worth 4 more" in first.what and "units worth 2 more" in losses[1].what
    assert p.kinds("Rosselló", "Aragon") == ["levy", "levy", "raider"]
    # The attacker loses one unit; all of its units are alike, so it is not asked.
    assert p.kinds("Rosselló", "France") == ["field_army"]
    assert all(q.seat == "Player B" for q in losses)


def test_left_to_the_deadline_losses_are_cheapest_first() -> None:
    p = battle(["levy", "levy", "raider", "field_army", "field_army"])
    p.drive([6, 1, 6], {"avoid": "fight"})
    # The defaults: two levies and the raiders (4 weights would be reached by levy, levy, raider, then a field army).
    assert p.kinds("Rosselló", "Aragon") == ["field_army"]


def test_the_standing_order_answers_losses_without_asking() -> None:
    p = battle(["levy", "levy", "raider", "field_army", "field_army"])
    p.order("B", "take losses cheapest first")
    assert p.state.standing["Player B"] == ["take losses cheapest first"]
    p.drive([6, 1, 6], {"avoid": "fight"})
    assert not [q for q in p.asked if q.what.startswith("Losses")]
    assert p.kinds("Rosselló", "Aragon") == ["field_army"]


def test_an_answer_that_is_not_one_of_the_units_is_refused_with_the_choices() -> None:
    p = battle(["levy", "field_army", "field_army"])
    p.drive([6, 1, 6], {"avoid": "fight"}, until="loss")
    with pytest.raises(Rejection, match="'fleet of genoa' is not an answer.*'levy of Aragon' or 'field army of Aragon'"):
        p.game.apply(p.state, Event(99, "order", "x", {"seat": "Player B", "text": "fleet of Genoa"}))
    p.order("B", "Field Army of Aragon")  # answers are read without regard to case
    assert "worth 2 more" in p.state.action.pending.question


def test_no_question_when_every_unit_must_go() -> None:
    p = battle(["levy", "raider", "field_army"])  # worth 4 on the Field table: a DV takes them all
    p.drive([6, 1, 6], {"avoid": "fight"})
    assert not [q for q in p.asked if q.what.startswith("Losses")]
    assert p.kinds("Rosselló", "Aragon") == []


def test_bloodbath_the_attacker_picks_its_units_and_the_defender_matches_their_worth() -> None:
    # 4 units on the Field table: a field army and two levies.
    p = battle(["levy", "levy", "field_army", "field_army"], attackers=("field_army", "levy", "levy"))
    # Roll 4 on the 4-unit column: BB. A eliminates one unit, its field army (worth 2); B owes 2 and keeps its levies.
    p.drive([6, 1, 4], {"avoid": "fight", "bloodbath": "1", "loss": ["field army of France", "field army of Aragon"]})
    assert p.kinds("Rosselló", "France") == ["levy", "levy"]
    assert p.kinds("Rosselló", "Aragon") == ["field_army", "levy", "levy"]
    asked = [q.seat for q in p.asked if q.what.startswith("Losses")]
    assert asked == ["Player A", "Player B"]


def test_counterattack_both_sides_choose_their_one_unit() -> None:
    p = battle(["levy", "field_army"], attackers=("field_army", "levy"))
    # 3 units on the Field table, roll 1: CA. Each side eliminates one unit: A its field army (not its levy), B its
    # field army; then B declines the counterattack.
    p.drive([6, 1, 1], {"avoid": "fight", "loss": ["field army of France", "field army of Aragon"],
                        "counterattack": "no"})
    assert [q.seat for q in p.asked if q.what.startswith("Losses")] == ["Player A", "Player B"]
    assert p.kinds("Rosselló", "Aragon") == ["levy"]
    assert p.kinds("Rosselló", "France") == ["levy"]
