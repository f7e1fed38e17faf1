"""A deep copy of the game state that knows its shape: ``apply`` copies the state for every event, and the generic
``copy.deepcopy`` spent most of a game's fold walking units, rolls and the chance book field by field.

Each part is copied as deep as it is mutable (a Unit holds only numbers and strings: a shallow copy is a deep one).
Whatever this module does not know (a field added to a dataclass later) falls back to ``copy.deepcopy``, so a
change elsewhere can make the copy slower, never wrong. Identity is kept through ``memo`` like ``deepcopy`` does:
an order's starting state shares its rolls, chance book, messages and standing orders with the current state, and
so do the copies.
"""
from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any, Callable

from engine.chance.book import Binding, ChanceBook

# Fields whose values are numbers, strings, booleans or None (copied by reference).
_ATOMIC_STATE = {"turn", "phase", "next_unit", "pope", "pope_holder", "plague", "political_round", "to_move", "first",
                 "actions_done", "winner"}
_FLAT_DICTS = {"players", "status", "side_of", "owner", "start_control", "drawn_this_phase", "vp"}  # of atoms
_LIST_DICTS = {"standing", "rolls"}  # {key: [atoms]}
_FLAT_LISTS = {"unseen", "log", "options"}
_BOOK = {"source", "bindings", "used", "draws", "beacons", "numbers", "next_id"}
_BINDING = {"id", "label", "lo", "hi", "count", "source", "where", "purpose", "seat", "meaning", "values"}
_ATOMIC_DATACLASS = {"Unit": {"id", "power", "kind", "area", "face_down", "done", "combats", "redistributed"},
                     "King": {"power", "diplomacy", "military", "area", "diplomacy_used", "died_turn"}}


def _shared(obj: Any, memo: dict[int, Any], make: Callable[[Any], Any]) -> Any:
    key = id(obj)
    if key in memo:
        return memo[key]
    new = make(obj)
    memo[key] = new
    return new


def _atoms_only(obj: Any) -> bool:
    known = _ATOMIC_DATACLASS.get(type(obj).__name__)
    return known is not None and {f.name for f in fields(obj)} == known


def copy_book(book: ChanceBook, memo: dict[int, Any]) -> ChanceBook:
    if {f.name for f in fields(book)} != _BOOK or any({f.name for f in fields(b)} != _BINDING for b in book.bindings[:1]):
        return copy.deepcopy(book, memo)
    new = copy.copy(book)
    new.bindings = [Binding(b.id, b.label, b.lo, b.hi, b.count, b.source, list(b.where), b.purpose, b.seat, b.meaning,
                            None if b.values is None else list(b.values)) for b in book.bindings]
    new.used = list(book.used)
    new.draws = {d: {w: list(n) for w, n in wheels.items()} for d, wheels in book.draws.items()}
    new.beacons = dict(book.beacons)
    new.numbers = {k: list(v) for k, v in book.numbers.items()}
    return new


def copy_state(st: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of ``st`` (a State), honouring and filling ``memo``."""
    new = copy.copy(st)
    memo[id(st)] = new
    for f in fields(st):
        name, value = f.name, getattr(st, f.name)
        if name in _ATOMIC_STATE or value is None:
            continue
        if name in _FLAT_DICTS:
            copied: Any = _shared(value, memo, dict)
        elif name in _LIST_DICTS:
            copied = _shared(value, memo, lambda d: {k: list(v) for k, v in d.items()})
        elif name in _FLAT_LISTS:
            copied = _shared(value, memo, list)
        elif name == "book" and isinstance(value, ChanceBook):
            copied = _shared(value, memo, lambda b: copy_book(b, memo))
        elif name in ("units", "kings") and all(_atoms_only(v) for v in value.values()):
            copied = _shared(value, memo, lambda d: {k: copy.copy(v) for k, v in d.items()})
        else:
            copied = copy.deepcopy(value, memo)
        setattr(new, name, copied)
    return new
