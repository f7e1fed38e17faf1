"""The orders of Mediterranean Empires, as understood from a player's line (parse.py) and played by one handler each
(play.py).

An order is plain data. The event log stores ``to_dict()``: the same dict the game has always stored (``"order"``
names the kind; ``"from"`` and ``"in"`` are its keys for an area left or entered), so that every recorded log folds
the same. ``order_from_dict`` reads it back, older logs included: a key they lack takes its default.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.events import Rejection
from engine.order_record import OrderRecord, RecordShape, from_record

# Field names that are Python keywords in the log's dict.
_LOG_KEYS = {"origin": "from", "place": "in"}
# "order" names the kind; a class's ``only_when_set`` keys are carried only once set (an optional rule's part).
SHAPE = RecordShape(tag_attr="name", tag_key="order", log_keys=_LOG_KEYS)


@dataclass(frozen=True)
class Order(OrderRecord):
    shape: ClassVar[RecordShape] = SHAPE
    name: ClassVar[str] = ""

    def describe(self) -> str:
        """What was understood, as the answer to a post shows it: the order and what it names."""
        parts = [f"{k} {v}" for k, v in self.to_dict().items() if k != "order" and v not in (None, False)]
        return f"{self.name}: " + ", ".join(parts) if parts else self.name


@dataclass(frozen=True)
class Draw(Order):
    name: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Attempt(Order):
    """A political attempt (7.0): ``kind`` alliance, vassalage or rebellion; the modifiers used; 14.3's cession."""

    name: ClassVar[str] = "attempt"
    only_when_set: ClassVar[frozenset[str]] = frozenset({"cede"})
    kind: str
    power: str
    king: str | None = None  # the King whose Diplomacy rating is used
    pope: bool = False
    tp: bool = False
    cede: str | None = None


@dataclass(frozen=True)
class Pass(Order):
    name: ClassVar[str] = "pass"
    forfeit: str | None = None  # the attempt given up (forfeiting rebellion)


@dataclass(frozen=True)
class Recruit(Order):
    name: ClassVar[str] = "recruit"
    count: int
    kind: str
    power: str
    area: str


@dataclass(frozen=True)
class Return(Order):
    """Crusaders coming back, in the Recruitment Phase."""

    name: ClassVar[str] = "return"
    count: int
    kind: str
    power: str
    area: str


@dataclass(frozen=True)
class Done(Order):
    name: ClassVar[str] = "done"


@dataclass(frozen=True)
class Activate(Order):
    name: ClassVar[str] = "activate"
    power: str
    area: str
    count: int | None = None  # None: every ready unit of the kind (or of the area)
    kind: str | None = None
    markers: int = 0  # Military Advantage markers spent
    king: bool = True  # the King goes with the force where he stands


@dataclass(frozen=True)
class Move(Order):
    name: ClassVar[str] = "move"
    to: str


@dataclass(frozen=True)
class Attack(Order):
    name: ClassVar[str] = "attack"


@dataclass(frozen=True)
class Embark(Order):
    name: ClassVar[str] = "embark"
    origin: str
    count: int | None = None
    kind: str | None = None


@dataclass(frozen=True)
class Land(Order):
    name: ClassVar[str] = "land"
    place: str


@dataclass(frozen=True)
class CoastalRaid(Order):
    name: ClassVar[str] = "coastal raid"
    place: str


@dataclass(frozen=True)
class Drop(Order):
    name: ClassVar[str] = "drop"
    count: int
    kind: str


@dataclass(frozen=True)
class End(Order):
    name: ClassVar[str] = "end"


@dataclass(frozen=True)
class EndOperations(Order):
    name: ClassVar[str] = "end operations"


@dataclass(frozen=True)
class Redistribute(Order):
    name: ClassVar[str] = "redistribute"
    count: int
    kind: str
    power: str
    origin: str
    to: str


@dataclass(frozen=True)
class Standing(Order):
    """A standing order (never intercept, take losses cheapest first, ...): kept per seat, answers for it."""

    name: ClassVar[str] = "standing"
    rule: str


@dataclass(frozen=True)
class Play(Order):
    name: ClassVar[str] = "play"
    marker: str


@dataclass(frozen=True)
class Place(Order):
    """A placement of the set-up (3.1-3.2): ``count`` units of ``kind`` (or ``kind`` "king": the power's King)."""

    name: ClassVar[str] = "place"
    count: int
    kind: str
    power: str
    area: str


@dataclass(frozen=True)
class StandardSetUp(Order):
    """Every unit and King of the seat placed where the data's documented set-up puts them."""

    name: ClassVar[str] = "standard set-up"


@dataclass(frozen=True)
class Answer(Order):
    """Any other line: an answer to the question asked now, or a line that is no order."""

    name: ClassVar[str] = "answer"
    answer: str

    def describe(self) -> str:
        return f"the answer '{self.answer}'"  # not "answer: answer yes", the field named after the order


ORDER_TYPES: dict[str, type[Order]] = {
    t.name: t for t in (Draw, Attempt, Pass, Recruit, Return, Done, Activate, Move, Attack, Embark, Land, CoastalRaid,
                        Drop, End, EndOperations, Redistribute, Standing, Play, Place, StandardSetUp, Answer)
}


def order_from_dict(data: dict[str, Any]) -> Order:
    """The order a log's dict stores; Rejection where it names no order or lacks what its order needs."""
    name = str(data.get("order", ""))
    cls = ORDER_TYPES.get(name)
    if cls is None:
        raise Rejection(f"'{name[:40]}' is not an order of Mediterranean Empires: the orders are "
                        + ", ".join(ORDER_TYPES))
    names = {f.name for f in fields(cls)}
    try:
        return from_record(cls, data, SHAPE)
    except TypeError:
        needed = ", ".join(_LOG_KEYS.get(f, f) for f in sorted(names))
        raise Rejection(f"the order '{name}' names {needed}") from None
