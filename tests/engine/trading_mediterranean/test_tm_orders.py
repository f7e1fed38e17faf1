"""The orders as the log stores them: ``to_dict()`` leaves an optional field out while unset and reads back to the
same order; a dict of the wrong shape is refused, naming the field."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.trading_mediterranean import orders as od


def event(order: od.Order) -> Event:
    return Event(1, order.kind, "ann", order.to_dict())


@pytest.mark.parametrize("order", [
    od.Give("Ann", "Shrine", "Bob"), od.Give("Ann", "Shrine", None), od.Revolt("Ann", "government"), od.Done("Ann"),
    od.Offer("Ann", "Bob", {"cards": ["grain.1"]}, {"faces": {"wine": 1}}), od.Offer("Ann", "Bob", {}, {"money": 1}, 3),
    od.Answer("Bob", "accept", 1, ("civic.2",)), od.Answer("Bob", "decline", 1), od.Warehouse("Ann", ("civic.1",)),
    od.Vote("Cat", "Bob"), od.Vote("Cat", None), od.Build("Ann", "Palace"), od.Develop("Ann", "Town", rural="grain"),
    od.Develop("Ann", "Prophet", steps=-2), od.BuyVp("Ann", 3)])
def test_each_order_reads_back_from_its_log_dict(order: od.Order) -> None:
    assert od.order_from_event(event(order)) == order


def test_optional_fields_stay_out_of_the_log_while_unset() -> None:
    assert od.Develop("Ann", "Town").to_dict() == {"seat": "Ann", "name": "Town"}
    assert od.Answer("Bob", "decline", 4).to_dict() == {"seat": "Bob", "answer": "decline", "offer": 4}
    assert od.Give("Ann", "Shrine", None).to_dict() == {"seat": "Ann", "building": "Shrine", "target": None}


def test_a_dict_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(Rejection, match="'count' of a vp.bought event is '3', not a whole number"):
        od.order_from_event(Event(1, "vp.bought", "ann", {"seat": "Ann", "count": "3"}))
    with pytest.raises(Rejection, match="a building.built event needs 'name'"):
        od.order_from_event(Event(1, "building.built", "ann", {"seat": "Ann"}))
    with pytest.raises(Rejection, match="'cards' is a list of card ids, not 'civic.1'"):
        od.order_from_event(Event(1, "warehouse.chosen", "ann", {"seat": "Ann", "cards": "civic.1"}))
    with pytest.raises(Rejection, match="'steps' of a development.bought event is True, not a whole number"):
        od.order_from_event(Event(1, "development.bought", "ann", {"seat": "Ann", "name": "Prophet", "steps": True}))
