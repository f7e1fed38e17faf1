"""What the book gives a game that binds its rolls one number at a time under its own rules (Mare Nostrum's, moved
onto the book): ``avoid`` (a throw's numbers on separate wheels), ``whole_wheel`` under a policy that keeps wheels
for whoever asks, ``settle``'s ``then`` (a game's rule acting on each roll as it is settled), a label whose values
are already public never handed out, and a copy sharing the settled rolls. Worked out by hand on POLICY (nations on
BA and CA, as in test_slot_policy.py)."""
from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from engine.chance import book as chance
from engine.chance.lottery_slots import ONE_NUMBER_PER_WHEEL
from engine.chance.slot_policy import SlotPolicy
from engine.events import Event, Rejection

D1, D2 = "2023-01-05", "2023-01-07"
FREE = ["FI", "GE", "MI", "NA", "PA", "RM", "TO", "VE"]
ORDER = tuple((w, p) for p in range(1, 6) for w in FREE) + (("BA", 4), ("CA", 4), ("BA", 5), ("CA", 5))
POLICY = SlotPolicy(ORDER)
ON_REQUEST = SlotPolicy(ORDER, wheels_on_request=True)


def _event(draws: tuple[str, ...] = (D1, D2), kind: str = "roll", data: dict[str, object] | None = None) -> Event:
    return Event(seq=1, kind=kind, actor="gm", data=data or {}, draws=draws)


def _book(policy: SlotPolicy, rule: int | None = None) -> chance.ChanceBook:
    book = chance.new_book(chance.LOTTERY, {} if rule is None else {"lottery_slots": rule})
    book.slot_policy = policy
    return book


def _draw(date: str, numbers: dict[str, list[int]]) -> Event:
    wheels = {w: numbers.get(w, [11, 12, 13, 14, 15]) for w in ("BA", "CA", *FREE)}
    return _event(kind="draw.recorded", data={"date": date, "numbers": wheels})


def test_a_throws_numbers_avoid_the_wheels_its_other_numbers_hold() -> None:
    """Attacker: none needed; two numbers of one wheel and draw are linked (drawn without replacement)."""
    book = _book(POLICY)
    first = chance.ask(book, _event(), "a", 1, 90)
    chance.ask(book, _event(), "b", 1, 90)  # another throw's: GE 1st, a wheel the next throw may share
    second = chance.ask(book, _event(), "a2", 1, 90, avoid=first.where)
    assert (first.where, second.where) == ([f"{D1}|FI|1"], [f"{D1}|MI|1"])
    # Every slot of D1 left is on FI or GE: a throw holding both goes on to D2.
    for i in range(3, 40):
        chance.ask(book, _event(), f"f{i}", 1, 90)
    assert chance.ask(book, _event(), "last", 1, 90).where == [f"{D1}|BA|4"]
    # D1 has CA 4th, BA 5th and CA 5th left, all on wheels this throw holds there: it goes on to D2.
    assert chance.ask(book, _event(), "y", 1, 90, avoid=[f"{D1}|CA|4", f"{D1}|BA|4"]).where == [f"{D2}|FI|1"]
    assert chance.ask(book, _event(), "z", 1, 90, avoid=[f"{D1}|CA|4"]).where == [f"{D1}|BA|5"]


def test_under_rule_two_only_a_roll_asking_for_a_whole_wheel_takes_one_and_owns_it() -> None:
    """Attacker: none needed; a roll on PA 2nd would be linked to a die on PA 1st of the same draw."""
    book = _book(ON_REQUEST, ONE_NUMBER_PER_WHEEL)
    die = chance.ask(book, _event(), "die", 1, 6, whole_wheel=True)
    assert die.where == [f"{D1}|FI|1"]
    assert [k for k in book.used if k.startswith(f"{D1}|FI|")] == [f"{D1}|FI|{p}" for p in range(1, 6)]
    # The others walk the policy's order as under rule 1, passing over the wheel the die owns.
    assert [chance.ask(book, _event(), f"r{i}", 1, 90).where for i in range(2)] == [[f"{D1}|GE|1"], [f"{D1}|MI|1"]]
    # The next die takes a wheel no roll has touched on that draw: GE and MI are used, NA is not.
    assert chance.ask(book, _event(), "die2", 1, 6, whole_wheel=True).where == [f"{D1}|NA|1"]
    # A nation's wheel is whole from its first allowed position, its 4th.
    for i in range(4):
        chance.ask(book, _event(), f"d{i}", 1, 6, whole_wheel=True)
    assert chance.ask(book, _event(), "nation", 1, 6, whole_wheel=True).where == [f"{D1}|BA|4"]
    assert f"{D1}|BA|5" in book.used


def test_under_rule_two_a_policy_without_wheels_on_request_gives_every_roll_a_first_number() -> None:
    book = _book(POLICY, ONE_NUMBER_PER_WHEEL)
    assert [chance.ask(book, _event(), f"r{i}", 1, 90).where for i in range(2)] == [[f"{D1}|FI|1"], [f"{D1}|GE|1"]]
    assert f"{D1}|FI|2" not in book.used  # no wheel is reserved: none is asked for whole


def test_then_acts_on_each_roll_before_the_next_gets_its_values() -> None:
    book = _book(POLICY)
    a, b = chance.ask(book, _event(), "a", 1, 90), chance.ask(book, _event(), "b", 1, 90)
    seen: list[tuple[str, list[int] | None, list[int] | None]] = []
    drawn = _draw(D1, {"FI": [7, 1, 2, 3, 4], "GE": [9, 1, 2, 3, 4]})
    chance.record(book, drawn)
    settled = chance.settle(book, drawn, lambda binding: seen.append((binding.label, a.values, b.values)))
    assert seen == [("a", [7], None), ("b", [7], [9])]
    assert settled == [a, b] and book.settled_upto == 2 and book.pending() == []


def test_a_label_whose_values_are_recorded_is_never_handed_out() -> None:
    """Attacker: the operator records values for a label before any roll asks it (a commit-reveal campaign under the
    seed's rule takes any label's numbers); a roll bound to it would have an outcome known when bound."""
    book = chance.new_book(chance.COMMIT_REVEAL, {})
    chance.record(book, _event(kind="random.recorded", data={"numbers": {"turn-1:siege": [90]}}))
    binding = chance.ask(book, _event(draws=()), "turn-1:siege", 1, 90, again=lambda label, n: f"{label}:{n}")
    assert binding.label == "turn-1:siege:2" and binding.values is None
    assert chance.settle(book, _event()) == []


def test_a_copy_shares_the_settled_rolls_and_copies_those_that_wait() -> None:
    book = _book(POLICY)
    done, waiting = chance.ask(book, _event(), "a", 1, 90), chance.ask(book, _event(draws=(D2,)), "b", 1, 90)
    chance.record(book, _draw(D1, {}))
    chance.settle(book, _draw(D1, {}))
    assert book.settled_upto == 1
    memo: dict[int, object] = {}
    twin = copy.deepcopy(book, memo)
    assert twin.bindings[0] is done and twin.bindings[1] is not waiting and memo[id(waiting)] is twin.bindings[1]
    assert twin == book
    chance.record(twin, _draw(D2, {}))
    chance.settle(twin, _draw(D2, {}))
    assert (twin.bindings[1].values, waiting.values, D2 in book.draws) == ([11], None, False)


def test_an_unknown_range_or_a_refused_avoid_changes_nothing() -> None:
    book = _book(POLICY)
    before = (list(book.used), len(book.bindings))
    with pytest.raises(Rejection, match="too few free slots"):
        chance.ask(book, replace(_event(), draws=(D1,)), "x", 1, 90,
                   avoid=[f"{D1}|{w}|1" for w in (*FREE, "BA", "CA")])
    assert (list(book.used), len(book.bindings)) == before
