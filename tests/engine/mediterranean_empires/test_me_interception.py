"""10.2 as the seed orders it (rules version 2): "The non-phasing player may choose to intercept with any number of
friendly units in the area ... declare all attempting units prior to determining if the attempt is successful";
"−1: If the phasing player expends a military advantage marker (maximum of one)"; 12.0 Ambush: "Interception: +1
DRM to interception attempts"."""
from __future__ import annotations

from engine.mediterranean_empires.rules_version import SEED_READINGS
from tests.engine.mediterranean_empires.me_play import Play


def entering(version: int | None = SEED_READINGS, *, b_marker: str | None = None, a_marker: str | None = None) -> Play:
    """Two French field armies (Montpellier, 3+3 OPs) about to enter Rosselló, held by two Aragonese field armies, an
    Aragonese levy and a Sicilian levy (Player B's ally)."""
    p = Play(rules_version=version)
    st = p.state
    st.phase, st.to_move = "operations A", "A"
    p.clear("Montpellier", "Rosselló")
    st.owner["Montpellier"], st.owner["Rosselló"] = "A", "B"
    for _ in range(2):
        p.put("France", "field_army", "Montpellier")
        p.put("Aragon", "field_army", "Rosselló")
    p.put("Aragon", "levy", "Rosselló")
    p.put("Sicily", "levy", "Rosselló")
    if b_marker:
        p.hold("B", b_marker)
    if a_marker:
        p.hold("A", a_marker)
    p.order("A", "activate France in Montpellier")
    p.drive([3, 3])
    return p


def test_the_interceptor_chooses_its_units_and_the_choice_sets_the_modifier() -> None:
    p = entering()
    p.order("A", "move to Rosselló")
    # One Aragonese field army alone: one power, so no −1; the roll of 4 succeeds and a field battle follows.
    p.drive([4], {"intercept": "intercept", "intercept_units": ["1", "0", "0"]}, fill=3)
    asked = [(q.seat, q.what, q.choices) for q in p.asked]
    assert asked[1:4] == [
        ("Player B", "How many field army(s) of Aragon in Rosselló intercept (0-2)?", ("2", "1", "0")),
        ("Player B", "How many levy(s) of Aragon in Rosselló intercept (0-1)?", ("1", "0")),
        ("Player B", "How many levy(s) of Sicily in Rosselló intercept (0-1)?", ("1", "0")),
    ]
    assert "Player B intercepts in Rosselló (4+0)." in p.messages
    # Only the one field army fights (a field army counts two units on the table; all four would count five).
    assert "Field/Naval Battle Table in Rosselló: 2 attacking unit(s), roll 3 modified to 3: NE." in p.messages


def test_units_of_two_powers_intercept_at_minus_one() -> None:
    p = entering()
    p.order("A", "move to Rosselló")
    p.drive([4], {"intercept": "intercept", "intercept_units": ["2", "0", "1"]})
    assert "Player B tries to intercept in Rosselló: 4-1, it fails." in p.messages
    assert p.state.force.area == "Rosselló"


def test_no_unit_sent_is_no_interception() -> None:
    p = entering()
    p.order("A", "move to Rosselló")
    p.drive([], {"intercept": "intercept", "intercept_units": ["0", "0", "0"]})
    assert "Player B sends no unit to intercept in Rosselló." in p.messages and p.state.force.area == "Rosselló"


def test_ambush_is_an_answer_and_the_movers_military_advantage_takes_one_off() -> None:
    p = entering(b_marker="Ambush", a_marker="Military Advantage")
    p.order("A", "move to Rosselló")
    p.drive([3], {"intercept": "intercept with Ambush", "intercept_units": ["2", "1", "0"],
                  "intercept_marker": "Military Advantage"})
    (mover,) = [q for q in p.asked if q.seat == "Player A"]
    assert mover.what == ("Player B intercepts your force in Rosselló with 3 unit(s): expend a Military Advantage "
                          "marker for −1 on the interception roll?")
    assert mover.choices == ("no marker", "Military Advantage")
    assert "Player B reveals Ambush" in "\n".join(p.messages)
    assert "Player B tries to intercept in Rosselló: 3+0, it fails." in p.messages  # +1 Ambush, −1 the mover's marker
    assert p.state.sides["A"].hand == [] and p.state.sides["B"].hand == []


def test_always_intercept_sends_every_unit() -> None:
    p = entering()
    p.order("B", "always intercept")
    p.order("A", "move to Rosselló")
    p.drive([3])
    assert p.asked == [] and "Player B tries to intercept in Rosselló: 3-1, it fails." in p.messages


def test_a_campaign_created_before_the_version_intercepts_with_every_unit() -> None:
    p = entering(version=None)
    p.order("A", "move to Rosselló")
    p.drive([3], {"intercept": "intercept"})
    assert [q.choices for q in p.asked] == [("intercept", "intercept with Military Advantage", "do not intercept")]
    assert "Player B tries to intercept in Rosselló: 3-1, it fails." in p.messages
