"""The fixed test source at its edges (engine/chance/sources/fixed.py): both ends of a roll's range, the values all
used up, a long refused list cut in the refusal, and what the source tells the shell and ``verify`` about itself."""
from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from engine.chance import book as chance
from engine.chance.sources import fixed
from engine.events import Event, Rejection


def _event() -> Event:
    return Event(seq=2, kind="roll", actor="gm", data={}, draws=("drand:7", "2023-01-05"))


def _book(values: Any) -> chance.ChanceBook:
    return chance.new_book("fixed", {"randomness": "fixed", "fixed_values": values})


def test_a_value_at_either_end_of_the_range_is_taken() -> None:
    book = _book([1, 6, 7])
    assert chance.ask(book, _event(), "d6", 1, 6, 2).where == ["fixed:0", "fixed:1"]
    assert [b.values for b in chance.settle(book, _event())] == [[1, 6]]
    with pytest.raises(Rejection) as above:
        chance.ask(book, _event(), "d6", 1, 6)
    assert above.value.reason == "fixed value #3 is 7, outside the range 1..6 of 'd6#2'"


def test_a_roll_after_every_value_is_used_is_told_none_is_left() -> None:
    book = _book([2, 4, 5])
    chance.ask(book, _event(), "a", 1, 6, 3)
    with pytest.raises(Rejection) as used_up:
        chance.ask(book, _event(), "b", 1, 6, 2)
    assert used_up.value.reason == "'b' needs 2 fixed value(s), but only 0 of the 3 given in campaign.created are left"


def test_a_long_list_that_is_refused_is_quoted_to_its_first_sixty_characters() -> None:
    values: list[Any] = [10] * 20 + ["x"]  # "[10, 10, ..." runs to 85 characters
    with pytest.raises(Rejection) as refused:
        _book(values)
    assert refused.value.reason == ('a campaign drawing from fixed values lists them in campaign.created as '
                                    '"fixed_values": [whole numbers], not '
                                    '[10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10,')


def test_the_source_asks_the_shell_for_no_round_no_draw_no_seed_and_no_clock() -> None:
    """Every value is given in campaign.created: the shell pins no drand chain and offers no round (``drand``,
    ``rounds_offered``), asks for no lottery draw (``lottery``), keeps no seed (``seed``); no clock makes a value
    public (``clocked``), so ``verify`` has no moment to hold a binding's margin to."""
    source = fixed.SOURCE
    assert (source.drand, source.lottery, source.seed, source.clocked, source.margin) == (
        False, False, False, False, dt.timedelta(0))
    assert source.rounds_offered({"randomness": "fixed", "mix": "drand", "fixed_values": [1]}) is False
    assert source.waits_for("fixed:0") is None and source.moment("fixed:0", (0, 3)) is None
