"""The Italian Lotto as a source: a roll takes numbers from slots (date, wheel, position) of draws still to come.

Each value takes one number (or, when the range does not divide 90, a pair with rejection: engine/dice.py) from a
slot of its own, and no two numbers of one roll share a wheel of one draw (numbers of one wheel are drawn without
replacement, so they are linked; engine/chance/lottery_slots.py says which slots a campaign's rule allows). A
refused pair re-binds that value to the next free slots of the next draw offered then. A draw ruled not held
(``draw.cancelled``) re-binds the rolls waiting for it to the later draws offered then.

Mare Nostrum's rolls bind here too, one number each, with the order of slots its rules fix (its ``SlotPolicy``,
engine/mare_nostrum/slots.py): ``avoid`` keeps a throw's numbers off one wheel, ``whole_wheel`` gives the GM's dice
a wheel of their own under rule 2.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Container, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine import dice as lottery_dice
from engine.chance import lottery_slots
from engine.events import Event, Rejection
from engine.lotto import BINDING_MARGIN, WHEELS, held_at
from engine.ruleset import Need
from engine.chance.source import Rounds

if TYPE_CHECKING:
    from engine.chance.book import Binding, ChanceBook

NAME = "lottery"
DRAND_PREFIX = "drand:"  # offered values of another source, which a lottery roll passes over
ROLL_WHEELS = tuple(w for w in WHEELS if w != "RN")  # the Nazionale wheel did not exist before 2005
POSITIONS = lottery_slots.POSITIONS


def slot_key(date: str, wheel: str, position: int) -> str:
    return f"{date}|{wheel}|{position}"


def slot_parts(slot: str) -> tuple[str, str, int]:
    date, wheel, position = slot.split("|")
    return date, wheel, int(position)


def number_at(draws: Mapping[str, Mapping[str, Sequence[int]]], date: str, wheel: str, position: int) -> int | None:
    """The number a slot reads, or None while its draw is not recorded."""
    draw = draws.get(date)
    return None if draw is None else draw[wheel][position - 1]


def free_in_order(used: Container[str], dates: Iterable[str], order: Sequence[tuple[str, int]],
                  avoid: Container[tuple[str, str]] = ()) -> Iterator[tuple[str, str, int]]:
    """The slots (date, wheel, position) not in ``used``, draw by draw in ``order``, on no (date, wheel) in
    ``avoid``. Both are read live: a slot the caller takes (adding it to ``used``, or its wheel to ``avoid``) lies
    behind the walk, and is passed over from then on."""
    for date in dates:
        for wheel, position in order:
            if slot_key(date, wheel, position) not in used and (date, wheel) not in avoid:
                yield date, wheel, position


def unused_wheels(used: Container[str], dates: Iterable[str],
                  wheels: Sequence[tuple[str, Sequence[int]]]) -> Iterator[tuple[str, str, int]]:
    """Rule 2 (engine/chance/lottery_slots.py): draw by draw, each wheel none of whose ``positions`` (those rolls may
    take) is in ``used``, with the first of them; read live, as ``free_in_order``."""
    for date in dates:
        for wheel, positions in wheels:
            if not any(slot_key(date, wheel, p) in used for p in positions):
                yield date, wheel, positions[0]


# The book's walk (rule 1): every wheel's 1st number, then their 2nd, ...; under rule 2 each wheel's 1st only.
BOOK_ORDER = tuple((wheel, position) for position in POSITIONS for wheel in ROLL_WHEELS)
BOOK_WHEELS = tuple((wheel, tuple(POSITIONS)) for wheel in ROLL_WHEELS)


def offered_dates(event: Event) -> list[str]:
    """The lottery draws the shell offered with ``event``, in order (its drand rounds left out)."""
    return sorted([d for d in event.draws if not d.startswith(DRAND_PREFIX)])


class Lottery:
    name = NAME
    offered = True
    verifiable = True
    drand = False
    lottery = True
    seed = False
    clocked = True
    margin = BINDING_MARGIN  # the shell's own margin: an honest binding always passes verify
    records: tuple[str, ...] = ("draw.cancelled", "draw.recorded")
    span: int | None = 90  # a wheel's numbers
    values_words = "lottery draws"

    def created_fields(self) -> dict[str, Any]:
        # The slot rule of its free rolls (engine/chance/lottery_slots.py); older logs keep theirs.
        return {lottery_slots.CREATED_KEY: lottery_slots.NEWEST}

    def rounds_offered(self, created: Mapping[str, Any]) -> bool:
        return False

    def configure(self, book: ChanceBook, setup: Mapping[str, Any]) -> None:
        book.slot_rule = lottery_slots.rule_of(dict(setup))

    def bind(self, book: ChanceBook, event: Event, label: str, lo: int, hi: int, count: int, *,
             avoid: Sequence[str] = (), whole_wheel: bool = False) -> tuple[str, list[str]]:
        dates = offered_dates(event)
        if not dates:
            raise Rejection("no future lottery draw is known to bind this roll to; the GM must import the coming draws first")
        where = free_slots(book, dates, count * lottery_dice.numbers_per_die(hi - lo + 1), avoid, whole_wheel=whole_wheel)
        if whole_wheel and _wheels_on_request(book):
            # The roll owns each wheel it took: the wheel's other allowed positions are handed out with it, so no
            # other roll is linked to it (engine/chance/slot_policy.py).
            assert book.slot_policy is not None
            positions = dict(book.slot_policy.wheels())
            for slot in where:
                date, wheel, _ = slot_parts(slot)
                book.used.extend(k for p in positions[wheel] if (k := slot_key(date, wheel, p)) not in book.used)
        return label, where

    def record(self, book: ChanceBook, event: Event) -> None:
        if event.kind == "draw.cancelled":
            _cancel_draw(book, event)
            return
        data = event.data
        date, numbers = str(data.get("date", "")), data.get("numbers")
        if date in book.cancelled:
            raise Rejection(f"the draw of {date} was ruled not held (draw.cancelled): its rolls were bound to later draws")
        if not isinstance(numbers, dict):
            raise Rejection("draw.recorded needs the date and the numbers of each wheel")
        known = book.draws.get(date)
        clean = {str(w): [int(n) for n in ns] for w, ns in numbers.items()}
        if known is not None and known != clean:
            raise Rejection(f"the draw of {date} is already recorded with other numbers; a stored draw is never changed")
        book.draws[date] = clean

    def values(self, book: ChanceBook, binding: Binding, event: Event) -> list[int] | None:
        return _lottery_values(book, binding, event)

    def wanted(self, book: ChanceBook, bindings: Sequence[Binding]) -> list[Need]:
        dates = dict.fromkeys(s.split("|", 1)[0] for b in bindings for s in b.where)
        return [Need(NAME, date) for date in dates if date not in book.draws]

    def key(self, binding: Binding) -> str:
        return binding.where[0].split("|")[0]

    def slots(self, binding: Binding) -> list[list[Any]]:
        return [[*s.split("|")[:2], int(s.split("|")[2]), f"{binding.purpose or binding.label} (roll #{binding.id})"]
                for s in binding.where]

    def describe(self, binding: Binding) -> str:
        return "lottery " + ", ".join(_slot_words(s) for s in binding.where)

    def waits_for(self, key: str) -> tuple[str, str] | None:
        return NAME, key

    def moment(self, key: str, rounds: Rounds) -> dt.datetime | None:
        """A draw is held at 20:00 in Rome."""
        try:
            return held_at(dt.date.fromisoformat(key))
        except ValueError:
            return None


SOURCE = Lottery()


def _slot_words(slot: str) -> str:
    date, wheel, position = slot.split("|")
    return f"{date} {wheel} #{position}"


def _wheels_on_request(book: ChanceBook) -> bool:
    return (book.slot_rule == lottery_slots.ONE_NUMBER_PER_WHEEL and book.slot_policy is not None
            and book.slot_policy.wheels_on_request)


def free_slots(book: ChanceBook, dates: list[str], wanted: int, avoid: Sequence[str] = (), *,
               whole_wheel: bool = False) -> list[str]:
    """``wanted`` free slots, no two on one wheel of one draw (nor on a wheel of a draw in ``avoid``, the slots the
    roll keeps); a draw's free wheels used before the next draw's. Under rule 2 every roll takes unused wheels' first
    allowed numbers, or, with a policy that keeps wheels for whoever asks, only a ``whole_wheel`` roll does."""
    used = book.used  # a UsedKeys: looked up in its index, not copied into a set per roll
    policy = book.slot_policy
    if book.slot_rule == lottery_slots.ONE_NUMBER_PER_WHEEL and (whole_wheel or not _wheels_on_request(book)):
        return _first_numbers(used, dates, wanted, BOOK_WHEELS if policy is None else policy.wheels())
    taken: list[str] = []
    # A wheel this roll uses in a draw is passed over (its numbers are linked); one used by another roll is fine.
    roll_wheels: set[tuple[str, str]] = {(date, wheel) for date, wheel, _ in map(slot_parts, avoid)}
    if wanted == 0:
        return taken
    for date, wheel, position in free_in_order(used, dates, BOOK_ORDER if policy is None else policy.order, roll_wheels):
        taken.append(slot_key(date, wheel, position))
        roll_wheels.add((date, wheel))
        if len(taken) == wanted:
            return taken
    raise Rejection(
        f"the coming lottery draws offered ({', '.join(dates)}) have too few free slots for this roll "
        f"({wanted} numbers on separate wheels); the GM must import later draws first"
    )


def _first_numbers(used: Collection[str], dates: list[str], wanted: int,
                   wheels: Sequence[tuple[str, Sequence[int]]]) -> list[str]:
    """Rule 2: the first number of each wheel no roll of the campaign has used on that draw, draw after draw."""
    taken: list[str] = []
    if wanted == 0:
        return taken
    for date, wheel, position in unused_wheels(used, dates, wheels):
        taken.append(slot_key(date, wheel, position))
        if len(taken) == wanted:
            return taken
    raise Rejection(
        f"the coming lottery draws offered ({', '.join(dates)}) have too few unused wheels for this roll ({wanted} "
        f"numbers; each wheel of a draw gives one); the GM must import later draws first"
    )


def _cancel_draw(book: ChanceBook, event: Event) -> None:
    """A draw ruled not held: the slots each waiting roll had on it are replaced, in binding order, by the first
    free slots of the later draws offered now (still to come), on wheels the roll does not use there yet."""
    day = str(event.data.get("date", ""))
    if day in book.draws:
        raise Rejection(f"the draw of {day} is recorded: it was held")
    if day in book.cancelled:
        raise Rejection(f"the draw of {day} is already ruled not held")
    waiting = [b for b in book.pending() if b.source == NAME and any(s.split("|")[0] == day for s in b.where)]
    if not waiting:
        raise Rejection(f"nothing in this campaign waits for the draw of {day}")
    later = [d for d in offered_dates(event) if d > day]
    book.cancelled.append(day)
    for binding in waiting:
        kept = [s for s in binding.where if s.split("|")[0] != day]
        lost = len(binding.where) - len(kept)
        fresh = free_slots(book, later, lost, avoid=kept) if later else []
        if len(fresh) < lost:
            raise Rejection(f"no later lottery draw is known to bind the rolls of {day} to again; import the coming draws first")
        book.used.extend(fresh)
        # Slot order is value order (a pair per value): the replacements take the places of the slots lost.
        replacements = iter(fresh)
        binding.where = [next(replacements) if s.split("|")[0] == day else s for s in binding.where]


def _lottery_values(book: ChanceBook, binding: Binding, event: Event) -> list[int] | None:
    numbers = []
    for slot in binding.where:
        date, wheel, position = slot.split("|")
        draw = book.draws.get(date)
        if draw is None:
            return None
        if wheel not in draw:
            raise Rejection(f"the draw of {date} lacks the wheel {wheel} that roll #{binding.id} is bound to")
        numbers.append(draw[wheel][int(position) - 1])
    span = binding.hi - binding.lo + 1
    per = lottery_dice.numbers_per_die(span) if span <= lottery_dice.MAX_SIDES else 0
    if per == 0:
        raise Rejection(f"a lottery roll covers at most {lottery_dice.MAX_SIDES} values, not {span}")
    values: list[int] = []
    refused = 0
    for i in range(binding.count):
        chunk = numbers[i * per:(i + 1) * per]
        die = lottery_dice.die_from_number(chunk[0], span) if per == 1 else lottery_dice.die_from_pair(chunk[0], chunk[1], span)
        if die is None:
            refused += 1
        else:
            values.append(binding.lo + die - 1)
    if refused:
        # The refused values roll again on fresh slots of the draws offered now; the roll waits for them.
        later = [d for d in offered_dates(event) if d > max(s.split("|")[0] for s in binding.where)]
        extra = free_slots(book, later, refused * per) if later else []
        if not extra:
            return None
        book.used.extend(extra)
        kept: list[str] = []
        for i in range(binding.count):
            chunk_slots = binding.where[i * per:(i + 1) * per]
            chunk = numbers[i * per:(i + 1) * per]
            if lottery_dice.die_from_pair(chunk[0], chunk[1], span) is not None:
                kept.extend(chunk_slots)
        binding.where = kept + extra
        return _lottery_values(book, binding, event)
    return values
