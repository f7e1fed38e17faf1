"""The orders of Trading in the Mediterranean, as understood from a player's line (parse.py) and played by one
handler each (play.py). An order is plain data: the event's kind is its ``kind``, and the log stores ``to_dict()``
(an optional field only once set); ``order_from_event`` reads it back, refusing a dict of the wrong shape."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.events import Event, Rejection
from engine.order_record import OrderRecord, RecordShape

# The event's kind names the order (no key for it); tuples are lists in the log; a class's ``only_when_set``
# fields are left out while None.
SHAPE = RecordShape(tag_key=None, lists=True)


@dataclass(frozen=True)
class Order(OrderRecord):
    shape: ClassVar[RecordShape] = SHAPE
    kind: ClassVar[str] = ""
    seat: str


@dataclass(frozen=True)
class Give(Order):
    """A "give opponent" ability on ``target``, or left unused (None): applied in turn order as the civic phase ends."""

    kind: ClassVar[str] = "civic.give"
    building: str
    target: str | None


@dataclass(frozen=True)
class Revolt(Order):
    kind: ClassVar[str] = "civic.revolt"
    track: str  # government (a revolution) or religion (a conversion)


@dataclass(frozen=True)
class Done(Order):
    kind: ClassVar[str] = "window.done"


@dataclass(frozen=True)
class Offer(Order):
    kind: ClassVar[str] = "trade.offered"
    only_when_set: ClassVar[frozenset[str]] = frozenset({"counters"})
    to: str
    give: dict[str, Any]
    get: dict[str, Any]
    counters: int | None = None


@dataclass(frozen=True)
class Answer(Order):
    kind: ClassVar[str] = "trade.answered"
    only_when_set: ClassVar[frozenset[str]] = frozenset({"picked"})
    answer: str
    offer: int
    picked: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Warehouse(Order):
    kind: ClassVar[str] = "warehouse.chosen"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Vote(Order):
    kind: ClassVar[str] = "vote.cast"
    option: str | None  # None: abstain


@dataclass(frozen=True)
class Build(Order):
    kind: ClassVar[str] = "building.built"
    name: str


@dataclass(frozen=True)
class Develop(Order):
    """``rural``: the farm whose worker moves when none is available; ``target``: a farm's or an industry's good;
    ``symbol``: the Scholar's row; ``steps``: a status card's move on its track."""

    kind: ClassVar[str] = "development.bought"
    only_when_set: ClassVar[frozenset[str]] = frozenset({"rural", "target", "symbol", "steps"})
    name: str
    rural: str | None = None
    target: str | None = None
    symbol: str | None = None
    steps: int | None = None


@dataclass(frozen=True)
class BuyVp(Order):
    kind: ClassVar[str] = "vp.bought"
    count: int


@dataclass(frozen=True)
class Losses(Order):
    """A calamity victim's losses, named by the victim (rules version 2): cubes by place, buildings by name."""

    kind: ClassVar[str] = "calamity.losses"
    cubes: tuple[str, ...]
    buildings: tuple[str, ...]


@dataclass(frozen=True)
class Bank(Order):
    """A Bank's use this turn (rules version 2): ``prosperity`` (tripled) or ``poverty`` (ignored)."""

    kind: ClassVar[str] = "bank.chosen"
    use: str


ORDERS: dict[str, type[Order]] = {o.kind: o for o in (Give, Revolt, Done, Offer, Answer, Warehouse, Vote, Build,
                                                        Develop, BuyVp, Losses, Bank)}
_TYPES = {"str": str, "int": int, "dict[str, Any]": dict}
_WORDS = {str: "text", int: "whole number", dict: "table"}


def order_from_event(event: Event) -> Order:
    """The order an event carries, each field checked for its type (a refusal names the field)."""
    cls = ORDERS[event.kind]
    values: dict[str, Any] = {}
    for f in fields(cls):
        raw = event.data.get(f.name)
        optional = "None" in str(f.type)
        if raw is None:
            if not optional:
                raise Rejection(f"a {event.kind} event needs '{f.name}'")
            values[f.name] = None
            continue
        if "tuple" in str(f.type):
            if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
                raise Rejection(f"'{f.name}' is a list of card ids, not {raw!r}")
            values[f.name] = tuple(raw)
            continue
        want = next(t for name, t in _TYPES.items() if str(f.type).startswith(name))
        if not isinstance(raw, want) or isinstance(raw, bool):
            raise Rejection(f"'{f.name}' of a {event.kind} event is {raw!r}, not a {_WORDS[want]}")
        values[f.name] = raw
    return cls(**values)
