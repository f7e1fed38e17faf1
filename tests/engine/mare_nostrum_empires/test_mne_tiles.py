"""The Heroes and Wonders row: five face up, the rest face down, bought ones replaced at the end of the phase."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import rules

from engine.events import Rejection
from engine.mare_nostrum_empires import tiles


def _order() -> list[str]:
    return tiles.row_tiles(rules())


def test_the_row_holds_every_general_tile_and_no_national_hero() -> None:
    names = _order()
    assert len(names) == 14 and "Alexander" in names and "Oracle of Delphi" in names
    assert not {"Caesar", "Pericles", "Hannibal", "Cleopatra", "Hammurabi"} & set(names)


def test_five_face_up_and_the_rest_face_down_in_the_shuffled_order() -> None:
    row = tiles.deal(rules(), _order())
    assert row.face_up == _order()[:5] and row.face_down == _order()[5:]
    assert row.public() == {"face_up": _order()[:5], "face_down": 9}


def test_a_tile_bought_is_replaced_only_at_the_end_of_the_phase() -> None:
    row = tiles.deal(rules(), _order())
    first, second = row.face_up[0], row.face_up[3]
    tiles.buy(row, first)
    tiles.buy(row, second)
    assert row.face_up[0] is None and row.face_up[3] is None
    with pytest.raises(Rejection, match=f"'{first}' is not face up in the row"):
        tiles.buy(row, first)
    assert tiles.refill(row) == _order()[5:7]
    assert row.face_up == [_order()[5], *_order()[1:3], _order()[6], _order()[4]]


def test_a_row_order_missing_a_tile_is_refused() -> None:
    with pytest.raises(Rejection, match="the row's order must hold each of 14 tiles once"):
        tiles.deal(rules(), _order()[1:])
