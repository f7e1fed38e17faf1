"""Reading the orders that build: a building in a province, a fleet in a sea."""
from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import NoReturn

from engine.mare_nostrum.order_slots import Clauses, Vocabulary, finish, require, resolve, show, strip_words
from engine.mare_nostrum.order_words import Line, Reject, Tok
from engine.mare_nostrum.orders import Build, Order, RaiseFleet

FORTIFICATION = frozenset(
    {"fortification", "fortifications", "fort", "forts", "fortress", "fortresses", "wall", "walls", "fortifs"}
)
_SUBURBS = frozenset({"suburbs", "suburb"})
TEMPLE = frozenset({"temple", "temples"})
FLEET = frozenset({"fleet", "fleets", "ship", "ships", "navy", "squadron", "galleys", "warships"})
_BUILDINGS: dict[str, str] = {
    **{w: "fortification" for w in FORTIFICATION},
    **{w: "suburbs" for w in _SUBURBS},
    **{w: "temple" for w in TEMPLE},
}
_BUILDING_ADJECTIVES = frozenset({"new", "city", "stone", "defensive", "great", "big"})
_CAN_BUILD = "you can build a fortification, suburbs or a temple"


def read_build(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    clauses = Clauses(rest)
    lead = strip_words(clauses.take_lead(), _BUILDING_ADJECTIVES) or []
    if lead and lead[0].word in FLEET:
        clauses.lead = lead[1:]
        return _read_fleet(line, clauses, vocab)
    building = _BUILDINGS.get(lead[0].word) if lead else None
    where = lead[1:] or clauses.take("in", "at", "on")
    if building is None:
        _reject_building(line, lead[:1], where, vocab)
    template = f"build {building} in {show(line, where, vocab.provinces, vocab)}"
    require(line, [] if where else ["where"], template)
    finish(line, clauses, template)
    return Build(building, resolve(line, where, vocab.provinces, vocab))


def _reject_building(line: Line, what: list[Tok], where: list[Tok] | None, vocab: Vocabulary) -> NoReturn:
    province = show(line, where, vocab.provinces, vocab)
    if not what:
        raise Reject(f"'{line.quote}': say what you build: {_CAN_BUILD.removeprefix('you can build ')} "
                      f"(write: build temple in {province})")
    guess = difflib.get_close_matches(what[0].word, [*_BUILDINGS, *FLEET], n=1, cutoff=0.75)
    if guess and guess[0] in FLEET:
        sea = show(line, where, vocab.seas, vocab)
        raise Reject(f"'{line.quote}': did you mean '{guess[0]}'? Write: raise fleet in {sea}")
    building = _BUILDINGS[guess[0]] if guess else "temple"
    can_build = f"did you mean '{guess[0]}'? Y{_CAN_BUILD[1:]}" if guess else _CAN_BUILD
    raise Reject(f"'{line.quote}': {can_build} (write: build {building} in {province})")


def read_fortify(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    clauses = Clauses(rest)
    where = clauses.take_lead() or clauses.take("in", "at", "on")
    template = f"fortify {show(line, where, vocab.provinces, vocab)}"
    require(line, [] if where else ["which province"], template)
    finish(line, clauses, template)
    return Build("fortification", resolve(line, where, vocab.provinces, vocab))


def read_raise(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    clauses = Clauses(rest)
    lead = strip_words(clauses.take_lead(), _BUILDING_ADJECTIVES) or []
    if not lead or lead[0].word not in FLEET:
        sea = lead[1:] or clauses.take("in", "at", "on")
        raise Reject(f"'{line.quote}': you can raise a fleet in a sea "
                      f"(write: raise fleet in {show(line, sea, vocab.seas, vocab)})")
    clauses.lead = lead[1:]
    return _read_fleet(line, clauses, vocab)


def _read_fleet(line: Line, clauses: Clauses, vocab: Vocabulary) -> Order:
    sea = clauses.take_lead() or clauses.take("in", "at", "on")
    template = f"raise fleet in {show(line, sea, vocab.seas, vocab)}"
    require(line, [] if sea else ["in which sea"], template)
    finish(line, clauses, template)
    return RaiseFleet(resolve(line, sea, vocab.seas, vocab))
