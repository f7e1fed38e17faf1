"""A deep copy of the game state that knows its shape: ``apply`` copies the state for every event, and the generic
``copy.deepcopy`` spent most of a game's fold walking units, rolls and the chance book field by field.

Each part is copied as deep as it is mutable (a Unit holds only numbers and strings: a shallow copy is a deep one).
The rest (hands, the order under way, the active force) goes through ``_tree``, a deep copy of dicts, lists and
dataclasses that skips the generic machinery. Whatever this module does not know (a field added to a dataclass
later, an object of another type) falls back to ``copy.deepcopy``, so a change elsewhere can make the copy slower,
never wrong. Identity is kept through ``memo`` like ``deepcopy`` does: an order's starting state shares its rolls,
chance book, messages and standing orders with the current state, and so do the copies.
"""
from __future__ import annotations

import copy
from dataclasses import fields, is_dataclass
from typing import Any, Callable

from engine.chance.book import Binding, ChanceBook
from engine.chance.used_keys import UsedKeys
from engine.mediterranean_empires.orders import ORDER_TYPES
from engine.mediterranean_empires.state import State, Waiting

# Fields whose values are numbers, strings, booleans or None (copied by reference).
_ATOMIC_STATE = {"turn", "phase", "next_unit", "pope", "pope_holder", "plague", "political_round", "to_move", "first",
                 "actions_done", "winner", "gm", "rules_version"}
_FLAT_DICTS = {"players", "status", "side_of", "owner", "start_control", "drawn_this_phase", "vp"}  # of atoms
_LIST_DICTS = {"standing"}  # {key: [atoms]}
_FLAT_LISTS = {"unseen", "log", "options"}
_BOOK = {"source", "bindings", "used", "draws", "beacons", "numbers", "cancelled", "next_id", "rule", "slot_rule",
         "slot_policy", "settled_upto"}
_BINDING = {"id", "label", "lo", "hi", "count", "source", "where", "purpose", "seat", "meaning", "values"}
_ATOMIC_DATACLASS = {"Unit": {"id", "power", "kind", "area", "face_down", "done", "combats", "redistributed"},
                     "King": {"power", "diplomacy", "military", "area", "diplomacy_used", "died_turn"}}
# Immutable values ``deepcopy`` gives back as they are.
# Orders are frozen dataclasses of such values.
_ATOMS = frozenset({str, int, bool, float, type(None), Waiting, *ORDER_TYPES.values()})
# Per dataclass type: whether its fields are exactly the atomic ones above (checked once per type, not per object).
_ATOMS_ONLY: dict[type, bool] = {}
# Per type: whether it is a dataclass ``_tree`` copies itself (checked once per type).
_PLAIN: dict[type, bool] = {}


def _shared(obj: Any, memo: dict[int, Any], make: Callable[[Any], Any]) -> Any:
    key = id(obj)
    if key in memo:
        return memo[key]
    new = make(obj)
    memo[key] = new
    return new


def _atoms_only(kind: type) -> bool:
    known = _ATOMS_ONLY.get(kind)
    if known is None:
        names = _ATOMIC_DATACLASS.get(kind.__name__)
        known = _ATOMS_ONLY[kind] = names is not None and is_dataclass(kind) and {f.name for f in fields(kind)} == names
    return known


def _clone(obj: Any) -> Any:
    """A shallow copy of a plain dataclass instance (what ``copy.copy`` does, without its generic dispatch)."""
    new = object.__new__(type(obj))
    new.__dict__ = obj.__dict__.copy()
    return new


def _plain_dataclass(kind: type) -> bool:
    """An instance ``deepcopy`` would copy field by field (no copy hook of its own, no slots, not frozen)."""
    known = _PLAIN.get(kind)
    if known is None:
        known = _PLAIN[kind] = (is_dataclass(kind) and not hasattr(kind, "__deepcopy__")
                                and not hasattr(kind, "__slots__") and not getattr(kind, "__dataclass_params__").frozen)
    return known


def _tree(obj: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(obj, memo)`` for dicts, lists, tuples of atoms and plain dataclasses, done directly."""
    kind = type(obj)
    if kind in _ATOMS:
        return obj
    key = id(obj)
    if key in memo:
        return memo[key]
    if kind is dict:
        new: Any = {}
        memo[key] = new
        new.update({k: v if type(v) in _ATOMS else _tree(v, memo) for k, v in obj.items()})
        return new
    if kind is list:
        new = []
        memo[key] = new
        new += [v if type(v) in _ATOMS else _tree(v, memo) for v in obj]
        return new
    if kind is tuple and all(type(v) in _ATOMS for v in obj):
        return obj  # deepcopy gives back a tuple of immutables as it is
    if _plain_dataclass(kind):
        new = object.__new__(kind)
        memo[key] = new
        new.__dict__.update({k: v if type(v) in _ATOMS else _tree(v, memo) for k, v in obj.__dict__.items()})
        return new
    return copy.deepcopy(obj, memo)  # the State of an order's start (its own copy, memo shared), anything else


def copy_book(book: ChanceBook, memo: dict[int, Any]) -> ChanceBook:
    if {f.name for f in fields(book)} != _BOOK or any({f.name for f in fields(b)} != _BINDING for b in book.bindings[:1]):
        return copy.deepcopy(book, memo)
    new = _clone(book)
    new.bindings = [Binding(b.id, b.label, b.lo, b.hi, b.count, b.source, list(b.where), b.purpose, b.seat, b.meaning,
                            None if b.values is None else list(b.values)) for b in book.bindings]
    new.used = UsedKeys(book.used)
    new.draws = {d: {w: list(n) for w, n in wheels.items()} for d, wheels in book.draws.items()}
    new.beacons = dict(book.beacons)
    new.numbers = {k: list(v) for k, v in book.numbers.items()}
    new.cancelled = list(book.cancelled)
    return new


def copy_state(st: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of ``st`` (a State), honouring and filling ``memo``."""
    new = _clone(st)
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
        elif name in ("units", "unplaced", "kings") and all(_atoms_only(kind) for kind in set(map(type, value.values()))):
            copied = _shared(value, memo, lambda d: {k: _clone(v) for k, v in d.items()})
        else:
            copied = _tree(value, memo)
        setattr(new, name, copied)
    return new


def detached_copy(src: "State", *, book: ChanceBook, log: list[str],
                   standing: dict[str, list[str]]) -> "State":
    """A deep copy of ``src`` that takes its growing parts from elsewhere instead of copying them: a deep copy of the
    whole state for every replay of a parked order made a game's fold quadratic in its length."""
    memo: dict[int, Any] = {id(old): new for old, new in ((src.book, book), (src.log, log),
                                                          (src.standing, standing)) if old is not None}
    copied = copy.deepcopy(src, memo)
    copied.action = None
    return copied
