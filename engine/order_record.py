"""One shape for every game's order dataclasses: the dict the log stores, derived from the dataclass's fields.

A game's orders are frozen dataclasses, one per kind, that gain ``OrderRecord``; the game says once, in a
``RecordShape``, how its log writes them: which class attribute names the kind and under which key (or none, where
the event's kind names it), whether a field is left out while None, which fields have another key in the log (a
Python keyword: ``origin`` is ``"from"``), whether tuples are stored as lists. A class may name fields it stores
only once set (``only_when_set``: an optional rule's part of an order, so older logs keep their bytes).

The dicts must stay those older logs hold: every game's golden log and scripted games replay to the same head and
state through these functions (tests/engine/test_order_record.py holds each game's shape to its recorded dicts).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

R = TypeVar("R")
O = TypeVar("O", bound="OrderRecord")


@dataclass(frozen=True)
class RecordShape:
    tag_attr: str = "kind"  # the class attribute that names an order's kind
    tag_key: str | None = "kind"  # the log's key for it, first in the dict; None: the event's kind names it
    omit_none: bool = False  # every field left out while None (else only a class's ``only_when_set``)
    lists: bool = False  # tuples stored as lists, and read back as tuples
    log_keys: Mapping[str, str] = field(default_factory=dict)  # field -> its key in the log


def as_record(order: Any, shape: RecordShape) -> dict[str, Any]:
    """The dict the log stores for ``order`` (any dataclass instance), by ``shape``."""
    out: dict[str, Any] = {} if shape.tag_key is None else {shape.tag_key: getattr(order, shape.tag_attr)}
    only_when_set: frozenset[str] = getattr(order, "only_when_set", frozenset())
    for f in fields(order):
        value = getattr(order, f.name)
        if value is None and (shape.omit_none or f.name in only_when_set):
            continue
        out[shape.log_keys.get(f.name, f.name)] = list(value) if shape.lists and isinstance(value, tuple) else value
    return out


def from_record(cls: type[R], data: Mapping[str, Any], shape: RecordShape) -> R:
    """The order of class ``cls`` a log's dict stores: the keys it knows (others, the kind's among them, are left),
    lists as tuples where the shape stores tuples as lists. TypeError where a field without default is missing:
    the game words the refusal."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]  # cls is a dataclass, which typing cannot say
    fields_of = {v: k for k, v in shape.log_keys.items()}
    body: dict[str, Any] = {}
    for key, value in data.items():
        name = fields_of.get(key, key)
        if name in names:
            body[name] = tuple(value) if shape.lists and isinstance(value, list) else value
    return cls(**body)


@dataclass(frozen=True)
class OrderRecord:
    """The base of a game's order dataclasses: ``to_dict`` and ``from_dict`` by the game's ``shape``."""

    shape: ClassVar[RecordShape] = RecordShape()
    only_when_set: ClassVar[frozenset[str]] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        return as_record(self, self.shape)

    @classmethod
    def from_dict(cls: type[O], data: Mapping[str, Any]) -> O:
        return from_record(cls, data, cls.shape)
