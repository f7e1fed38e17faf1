"""Mare Nostrum: Empires' orders, one frozen dataclass per kind. ``to_dict()`` is what the log stores (event kind
``order``, data ``{"seat", "order": {...}}``); ``order_from_dict`` reads it back."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.events import Rejection


@dataclass(frozen=True)
class Extra:
    """Production: what a legendary city's temple adds."""

    province: str
    choice: str  # "tax" or "legendary"
    kind = "extra"


@dataclass(frozen=True)
class ChooseToken:
    """Commerce: the Trade master turns a commerce token to a face."""

    token: str
    face: int
    kind = "token"


@dataclass(frozen=True)
class Take:
    """Commerce: take one token from another player's offer."""

    token: str
    target: str
    kind = "take"


@dataclass(frozen=True)
class Give:
    """Commerce: the unequal exchange's token, from the Trade master to the player left short."""

    token: str
    kind = "give"


@dataclass(frozen=True)
class Next:
    """Purchase or Military: the leader names who plays next."""

    empire: str
    kind = "next"


@dataclass(frozen=True)
class Buy:
    item: str
    place: str | None = None
    taxes: bool = False
    goods: tuple[str, ...] = ()
    kind = "buy"


@dataclass(frozen=True)
class Swap:
    """Purchase, with a tile that allows it: one good behind the screen swapped for one of the reserve."""

    good: str
    for_good: str
    kind = "swap"


@dataclass(frozen=True)
class Done:
    kind = "done"


@dataclass(frozen=True)
class Sail:
    sea: str
    to: str
    attack: str | None = None
    kind = "sail"


@dataclass(frozen=True)
class March:
    province: str
    to: str
    count: int = 1
    kind = "march"


@dataclass(frozen=True)
class Pillage:
    building: str
    province: str
    take: str | None = None
    kind = "pillage"


@dataclass(frozen=True)
class Occupy:
    buildings: tuple[str, ...]
    province: str
    kind = "occupy"


@dataclass(frozen=True)
class Stand:
    province: str
    kind = "stand"


@dataclass(frozen=True)
class Convert:
    province: str
    kind = "convert"


@dataclass(frozen=True)
class Name:
    """Claims: the previous leader names the successor among the tied."""

    empire: str
    title: str
    kind = "name"


Order = (Extra | ChooseToken | Take | Give | Next | Buy | Swap | Done | Sail | March | Pillage | Occupy | Stand
         | Convert | Name)
KINDS: dict[str, type] = {c.kind: c for c in (Extra, ChooseToken, Take, Give, Next, Buy, Swap, Done, Sail, March,
                                               Pillage, Occupy, Stand, Convert, Name)}


def to_dict(order: Order) -> dict[str, Any]:
    body = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(order).items() if v is not None}
    return {"kind": order.kind, **body}


def order_from_dict(data: Any) -> Order:
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise Rejection(f"an order's kind is one of {', '.join(KINDS)}")
    cls = KINDS[data["kind"]]
    names = {f.name for f in fields(cls)}
    body = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k in names}
    try:
        order: Order = cls(**body)
    except TypeError as exc:
        raise Rejection(f"the order {data['kind']} is incomplete: {exc}") from exc
    return order


