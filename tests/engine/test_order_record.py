"""One shape for the games' order dataclasses (engine/order_record.py): the dict the log stores, derived from the
fields by each game's ``RecordShape``, must stay the dict older logs hold. Every order of the recorded games reads
back and writes again to the very dict the log holds."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from engine.order_record import OrderRecord, RecordShape, as_record, from_record

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


@dataclass(frozen=True)
class _Move(OrderRecord):
    shape: ClassVar[RecordShape] = RecordShape(tag_attr="word", tag_key="order", lists=True,
                                               log_keys={"origin": "from"})
    only_when_set: ClassVar[frozenset[str]] = frozenset({"note"})
    word: ClassVar[str] = "move"
    origin: str
    to: tuple[str, ...]
    count: int | None = None
    note: str | None = None


def _orders_in(log: str) -> list[dict[str, Any]]:
    lines = (GOLDEN / f"{log}.log").read_text(encoding="utf-8").splitlines()
    return [e["data"]["order"] for e in map(json.loads, lines) if e["kind"] == "order" and "order" in e["data"]]


def test_a_record_names_its_kind_first_keeps_none_unless_told_and_renames_keys() -> None:
    move = _Move("Roma", ("Ostia", "Sardinia"))
    assert list(move.to_dict().items()) == [("order", "move"), ("from", "Roma"), ("to", ["Ostia", "Sardinia"]),
                                            ("count", None)]
    assert _Move.from_dict(move.to_dict()) == move
    assert _Move.from_dict({"order": "move", "from": "Roma", "to": ["Ostia"], "note": "x", "other": 1}) \
        == _Move("Roma", ("Ostia",), None, "x")
    omitting = RecordShape(tag_key=None, omit_none=True)
    assert as_record(move, omitting) == {"origin": "Roma", "to": ("Ostia", "Sardinia")}
    with pytest.raises(TypeError):
        from_record(_Move, {"from": "Roma"}, _Move.shape)


@pytest.mark.parametrize("log", ["mediterranean-empires-7-turns", "mediterranean-empires-vespers"])
def test_every_mediterranean_empires_order_of_a_recorded_game_is_written_back_as_the_log_holds_it(log: str) -> None:
    from engine.mediterranean_empires.orders import order_from_dict

    stored = _orders_in(log)
    assert len(stored) > 100
    assert [order_from_dict(d).to_dict() for d in stored] == stored


def test_every_mare_nostrum_empires_order_of_the_recorded_game_is_written_back_as_the_log_holds_it() -> None:
    from engine.mare_nostrum_empires.orders import order_from_dict, to_dict

    stored = _orders_in("mare-nostrum-empires-3-players")
    assert len(stored) > 30
    assert [to_dict(order_from_dict(d)) for d in stored] == stored
    assert order_from_dict(stored[0]).to_dict() == stored[0]  # the class's own, the same
    swap = {"kind": "swap", "good": "grain", "for_good": "wine"}
    assert list(to_dict(order_from_dict(swap)).items()) == list(swap.items())


def test_trading_in_the_mediterranean_writes_its_orders_as_its_events_hold_them() -> None:
    from engine.events import Event
    from engine.trading_mediterranean import orders as tm

    written: list[tuple[tm.Order, dict[str, Any]]] = [
        (tm.Give("North", "farm", None), {"seat": "North", "building": "farm", "target": None}),
        (tm.Offer("North", "South", {"grain": 1}, {"wine": 2}), {"seat": "North", "to": "South", "give": {"grain": 1},
                                                               "get": {"wine": 2}}),
        (tm.Offer("North", "South", {}, {}, 3), {"seat": "North", "to": "South", "give": {}, "get": {}, "counters": 3}),
        (tm.Answer("North", "accept", 4, ("c1", "c2")), {"seat": "North", "answer": "accept", "offer": 4,
                                                         "picked": ["c1", "c2"]}),
        (tm.Warehouse("North", ("c1",)), {"seat": "North", "cards": ["c1"]}),
        (tm.Vote("North", None), {"seat": "North", "option": None}),
        (tm.Develop("North", "scholar"), {"seat": "North", "name": "scholar"}),
        (tm.Done("North"), {"seat": "North"}),
    ]
    for order, stored in written:
        assert list(order.to_dict().items()) == list(stored.items())
        assert tm.order_from_event(Event(seq=1, kind=order.kind, actor="a", data=stored)) == order


def test_every_mare_nostrum_order_of_the_recorded_campaign_is_written_back_as_the_log_holds_it() -> None:
    from engine.mare_nostrum.orders import order_from_dict

    stored = _orders_in("mare-nostrum-15-turns")
    assert len(stored) > 200
    assert [order_from_dict(d).to_dict() for d in stored] == stored
