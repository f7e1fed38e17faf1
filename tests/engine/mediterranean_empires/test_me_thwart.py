"""7.0's thwart as the seed orders it, for campaigns of rules version 2: "1) Each roll 1d6. 2) The opposing player,
then the attempting player, declare if they are using either or both of the below modifiers" (a King's diplomacy
rating, the Pope, one TP). Older campaigns (no rules_version) keep the thwart they were played with."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.mediterranean_empires.rules_version import SEED_THWART
from tests.engine.mediterranean_empires.me_play import Play


def political(version: int | None = SEED_THWART) -> Play:
    """Player A to attempt, both players holding a Diplomacy marker; treasuries A 7, B 4; the Kings of France (1),
    Anjou (0) and Aragon (2) on the map; no Pope placed."""
    p = Play(rules_version=version)
    p.state.phase, p.state.to_move = "political", "A"
    p.hold("A", "Diplomacy")
    p.hold("B", "Diplomacy")
    return p


def test_the_dice_come_first_then_the_opponent_then_the_attempter_declares_what_it_adds() -> None:
    p = political()
    p.order("A", "attempt alliance with Genoa using 1 TP")
    p.drive([2, 5, 4], {"thwart": "thwart", "modifiers": ["the King of Aragon", "none"]})
    thwart, opp, att = p.asked
    assert thwart.choices == ("let it pass", "thwart")  # no "everything": the modifiers are chosen after the dice
    assert (opp.seat, opp.what) == ("Player B", "Your thwart roll is 2 against Player A's 5: which modifiers do you add?")
    assert opp.choices == ("none", "1 TP", "the King of Aragon", "the King of Aragon and 1 TP")
    assert (att.seat, att.what) == ("Player A", "Player B's thwart roll is 4 against your 5: which modifiers do you add?")
    assert att.choices == ("none", "1 TP", "the King of Anjou", "the King of Anjou and 1 TP", "the King of France",
                           "the King of France and 1 TP")
    said = "\n".join(p.messages)
    assert "Thwart rolls: Player B 2, Player A 5." in said
    assert "Player B fails to thwart it (4 against 5)." in said  # equal or higher: the thwart fails (7.0 4a)
    # The attempt's own 1 TP was not spent on the thwart: it modifies the Diplomacy Table roll.
    assert "The alliance attempt succeeds (4, modified 5)." in said
    st = p.state
    assert st.status["Genoa"] == "ally" and st.sides["A"].treasury == 6
    assert st.kings["Aragon"].diplomacy_used and not st.kings["France"].diplomacy_used


def test_a_higher_thwart_stops_the_attempt_and_both_markers_are_spent() -> None:
    p = political()
    p.order("A", "attempt alliance with Genoa")
    p.drive([4, 4], {"thwart": "thwart", "modifiers": ["1 TP", "none"]})
    said = "\n".join(p.messages)
    assert "Player B thwarts it (5 against 4)." in said and "Diplomacy Table" not in said
    st = p.state
    assert st.status["Genoa"] == "neutral" and st.sides["B"].treasury == 3
    assert st.sides["A"].hand == [] and st.sides["B"].hand == []
    assert "alliance" not in st.sides["A"].attempts_left


def test_what_the_attempter_adds_to_the_thwart_is_not_added_again_to_the_table_roll() -> None:
    p = political()
    p.order("A", "attempt alliance with Genoa using the King of France and 1 TP")
    p.drive([3, 3, 3], {"thwart": "thwart", "modifiers": ["none", "the King of France and 1 TP"]})
    said = "\n".join(p.messages)
    assert "Player B fails to thwart it (3 against 5)." in said
    # The King of France lent his diplomacy and the attempt's one TP went on the thwart: the table roll is bare.
    assert "The alliance attempt fails (3, modified 3)." in said
    assert p.state.sides["A"].treasury == 6


def test_a_side_with_nothing_to_add_is_not_asked() -> None:
    p = political()
    st = p.state
    st.sides["B"].treasury = 0
    st.kings["Aragon"].diplomacy_used = True
    p.order("A", "attempt alliance with Genoa")
    p.drive([6, 1], {"thwart": "thwart", "modifiers": ["none"]})
    assert [q.seat for q in p.asked] == ["Player B", "Player A"]  # the thwart, then Player A's modifiers only
    assert "Player B thwarts it (6 against 1)." in "\n".join(p.messages)


def test_everything_is_no_answer_to_a_thwart_of_the_seeds_reading() -> None:
    p = political()
    p.order("A", "attempt alliance with Genoa")
    p.drive([], until="thwart")
    with pytest.raises(Rejection, match="'thwart with everything' is not an answer to .*: answer 'let it pass' or 'thwart'"):
        p.order("B", "thwart with everything")


def test_a_campaign_created_before_the_version_keeps_the_thwart_it_was_played_with() -> None:
    p = political(version=None)
    p.order("A", "attempt alliance with Genoa")
    p.drive([3, 3], {"thwart": "thwart with everything"})
    assert p.asked[0].choices == ("let it pass", "thwart", "thwart with everything") and len(p.asked) == 1
    assert "Player B fails to thwart it (5 against 3)." not in "\n".join(p.messages)
    assert "Player B thwarts it (6 against 3)." in "\n".join(p.messages)


def test_an_unknown_rules_version_is_refused() -> None:
    with pytest.raises(Rejection, match="rules_version 7 is not one of this game's: 1 to 3"):
        Play(rules_version=7)
