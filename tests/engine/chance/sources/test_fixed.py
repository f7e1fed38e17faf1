"""The fixed test source (engine/chance/sources/fixed.py): rolls take the values given in campaign.created, in
order, each range-checked; nothing is half-applied on a refusal; an index is never handed out twice; the shell never
offers it."""
from __future__ import annotations

from typing import Any

import pytest

from engine.chance import book as chance
from engine.chance import registry
from engine.chance.sources import fixed
from engine.events import Event, Rejection


def _event(draws: tuple[str, ...] = ("drand:7", "2023-01-05")) -> Event:
    return Event(seq=2, kind="roll", actor="gm", data={}, draws=draws)


def _book(values: Any) -> chance.ChanceBook:
    return chance.new_book("fixed", {"randomness": "fixed", "fixed_values": values})


def test_rolls_take_the_given_values_in_order_and_know_them_at_once() -> None:
    book = _book([3, 3, 5, 2, 17])
    first = chance.ask(book, _event(), "tie", 1, 6, 2, purpose="tie", seat="North")
    second = chance.ask(book, _event(), "tie", 1, 6, 2)
    assert (first.label, first.where, second.label, second.where) == (
        "tie", ["fixed:0", "fixed:1"], "tie#2", ["fixed:2", "fixed:3"])
    assert chance.needs(book) == []
    assert [b.values for b in chance.settle(book, _event())] == [[3, 3], [5, 2]]
    last = chance.ask(book, _event(), "omen", 1, 90)
    assert chance.describe(last) == "fixed value(s) #5 given in campaign.created, label 'omen' (known in advance: not verifiable)"
    assert chance.ledger_entry(first, 1) == {
        "id": 1, "turn": 1, "purpose": "tie", "seat": "North", "source": "fixed", "key": "fixed:0",
        "where": "fixed value(s) #1 to #2 given in campaign.created, label 'tie' (known in advance: not verifiable)",
        "slots": [], "values": [3, 3], "outcome": "drawn", "meaning": "",
        "derive": {"count": 2, "hi": 6, "label": "tie", "lo": 1},
    }


def test_a_roll_past_the_values_or_out_of_its_range_is_refused_and_changes_nothing() -> None:
    book = _book([3, 9, 1])
    chance.ask(book, _event(), "a", 1, 6)
    before = (list(book.used), book.next_id, len(book.bindings))
    with pytest.raises(Rejection) as out_of_range:
        chance.ask(book, _event(), "b", 1, 6, 2)
    assert out_of_range.value.reason == "fixed value #2 is 9, outside the range 1..6 of 'b'"
    with pytest.raises(Rejection) as used_up:
        chance.ask(book, _event(), "c", 1, 90, 3)
    assert used_up.value.reason == "'c' needs 3 fixed value(s), but only 2 of the 3 given in campaign.created are left"
    assert (list(book.used), book.next_id, len(book.bindings)) == before
    assert chance.ask(book, _event(), "d", 1, 90, 2).where == ["fixed:1", "fixed:2"]


@pytest.mark.parametrize("values", [None, [], [1, True], [1, "2"], "3 4"])
def test_a_campaign_without_a_list_of_whole_numbers_is_refused(values: Any) -> None:
    with pytest.raises(Rejection) as refused:
        _book(values)
    assert refused.value.reason == ('a campaign drawing from fixed values lists them in campaign.created as '
                                    f'"fixed_values": [whole numbers], not {str(values)[:60]}')


def test_an_index_handed_out_stays_used_after_an_undo() -> None:
    before = _book([1, 2, 3])
    chance.ask(before, _event(), "a", 1, 6, 2)
    after = _book([1, 2, 3])  # the state the undo folds back to
    chance.carry(before, after)
    assert chance.ask(after, _event(), "b", 1, 6).where == ["fixed:2"]


def test_the_shell_never_offers_it_and_nothing_makes_it_public_by_the_clock() -> None:
    source = registry.get("fixed")
    assert source is fixed.SOURCE and "fixed" in chance.SOURCES
    assert "fixed" not in registry.offered_names() and registry.choices_words() == "'lottery', 'drand' or 'commit-reveal'"
    assert (source.verifiable, source.records, source.created_fields()) == (False, (), {})
    assert (source.span, source.values_words) == (None, "fixed values")
    assert registry.behind("fixed", "fixed:0") is None
    assert chance.record(_book([1]), Event(seq=3, kind="fixed.values", actor="gm", data={})) is False
