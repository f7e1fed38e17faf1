"""Mare Nostrum: Empires' orders, one frozen dataclass per kind. ``to_dict()`` is what the log stores (event kind
``order``, data ``{"seat", "order": {...}}``); ``order_from_dict`` reads it back."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.events import Rejection
from engine.order_record import OrderRecord, RecordShape, as_record, from_record

# "kind" names the order, first; a field left None is left out; tuples are lists in the log.
SHAPE = RecordShape(tag_attr="kind", tag_key="kind", omit_none=True, lists=True)


@dataclass(frozen=True)
class OrderKind(OrderRecord):
    shape: ClassVar[RecordShape] = SHAPE


@dataclass(frozen=True)
class Extra(OrderKind):
    """Production: what a legendary city's temple adds."""

    province: str
    choice: str  # "tax" or "legendary"
    kind = "extra"


@dataclass(frozen=True)
class ChooseToken(OrderKind):
    """Commerce: the Trade master turns a commerce token to a face."""

    token: str
    face: int
    kind = "token"


@dataclass(frozen=True)
class Take(OrderKind):
    """Commerce: take one token from another player's offer."""

    token: str
    target: str
    kind = "take"


@dataclass(frozen=True)
class Give(OrderKind):
    """Commerce: the unequal exchange's token, from the Trade master to the player left short."""

    token: str
    kind = "give"


@dataclass(frozen=True)
class Next(OrderKind):
    """Purchase or Military: the leader names who plays next."""

    empire: str
    kind = "next"


@dataclass(frozen=True)
class Buy(OrderKind):
    item: str
    place: str | None = None
    taxes: bool = False
    goods: tuple[str, ...] = ()
    kind = "buy"


@dataclass(frozen=True)
class Swap(OrderKind):
    """Purchase, with a tile that allows it: one good behind the screen swapped for one of the reserve."""

    good: str
    for_good: str
    kind = "swap"


@dataclass(frozen=True)
class Done(OrderKind):
    kind = "done"


@dataclass(frozen=True)
class Sail(OrderKind):
    sea: str
    to: str
    attack: str | None = None
    kind = "sail"


@dataclass(frozen=True)
class March(OrderKind):
    province: str
    to: str
    count: int = 1
    kind = "march"


@dataclass(frozen=True)
class Pillage(OrderKind):
    building: str
    province: str
    take: str | None = None
    kind = "pillage"


@dataclass(frozen=True)
class Occupy(OrderKind):
    buildings: tuple[str, ...]
    province: str
    kind = "occupy"


@dataclass(frozen=True)
class Stand(OrderKind):
    province: str
    kind = "stand"


@dataclass(frozen=True)
class Convert(OrderKind):
    province: str
    kind = "convert"


@dataclass(frozen=True)
class Name(OrderKind):
    """Claims: the previous leader names the successor among the tied."""

    empire: str
    title: str
    kind = "name"


Order = (Extra | ChooseToken | Take | Give | Next | Buy | Swap | Done | Sail | March | Pillage | Occupy | Stand
         | Convert | Name)
KINDS: dict[str, type] = {c.kind: c for c in (Extra, ChooseToken, Take, Give, Next, Buy, Swap, Done, Sail, March,
                                               Pillage, Occupy, Stand, Convert, Name)}


def to_dict(order: Order) -> dict[str, Any]:
    return as_record(order, SHAPE)


def order_from_dict(data: Any) -> Order:
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise Rejection(f"an order's kind is one of {', '.join(KINDS)}")
    cls = KINDS[data["kind"]]
    try:
        order: Order = from_record(cls, data, SHAPE)
    except TypeError as exc:
        raise Rejection(f"the order {data['kind']} is incomplete: {exc}") from exc
    return order


