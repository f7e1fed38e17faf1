"""Reading the choices random events leave to a player (they spend no action): the earthquake's fortification, the
great blaze's temple, the defensive artworks' province."""
from __future__ import annotations

from collections.abc import Sequence

from engine.mare_nostrum.order_slots import Clauses, Vocabulary, finish, require, resolve, show, strip_words
from engine.mare_nostrum.order_words import Line, Reject, Tok, is_near
from engine.mare_nostrum.orders import EventChoice, Order
from engine.mare_nostrum.read_builds import FORTIFICATION, TEMPLE

_DESTROY = frozenset({"destroy", "destroys", "destroying", "raze", "razes", "burn", "burns", "burning", "of"})
_EVENT_TEMPLATES = {
    "earthquake": "earthquake on {}",
    "great_blaze": "great blaze on {}",
    "defensive_artworks": "defensive artworks in {}",
}


def _event(line: Line, event: str, rest: Sequence[Tok], skip: frozenset[str], vocab: Vocabulary) -> Order:
    clauses = Clauses(strip_words(list(rest), skip) or [])
    where = strip_words(clauses.take_lead(), skip) or clauses.take("on", "in", "at", "of")
    template = _EVENT_TEMPLATES[event].format(show(line, where, vocab.provinces, vocab))
    require(line, [] if where else ["which province"], template)
    finish(line, clauses, template)
    return EventChoice(event, resolve(line, where, vocab.provinces, vocab))


def read_earthquake(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    return _event(line, "earthquake", rest, _DESTROY | FORTIFICATION, vocab)


def read_blaze(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    return _event(line, "great_blaze", rest, _DESTROY | TEMPLE, vocab)


def read_great(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    """ "great blaze on Latium"; any other "great ..." ("great game!") is talk."""
    if not rest or not (rest[0].word == "blaze" or is_near(rest[0].word, ("blaze",))):
        return None
    return read_blaze(line, rest[1:], vocab)


def read_burn(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    """ "burn the temple in Latium"; "burn them all!" is talk."""
    if not rest or rest[0].word not in TEMPLE:
        return None
    return read_blaze(line, rest[1:], vocab)


def read_destroy(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    what = rest[0].word if rest else ""
    if what in FORTIFICATION:
        return read_earthquake(line, rest[1:], vocab)
    if what in TEMPLE:
        return read_blaze(line, rest[1:], vocab)
    clauses = Clauses(rest[1:])
    where = show(line, clauses.take_lead() or clauses.take("in", "on", "at", "of"), vocab.provinces, vocab)
    raise Reject(f"'{line.quote}': you can destroy a fortification (Earthquake) or a temple (Great Blaze) "
                  f"(write: destroy fortification in {where})")


_ARTWORKS = frozenset({"artworks", "artwork", "art", "works", "work", "fortification", "fortifications"})


def read_defensive(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    if not rest or rest[0].word not in _ARTWORKS:
        clauses = Clauses(rest)
        where = show(line, clauses.take("in", "on", "at"), vocab.provinces, vocab)
        raise Reject(f"'{line.quote}': the event's choice is written: defensive artworks in {where}")
    return _event(line, "defensive_artworks", rest, _ARTWORKS, vocab)
