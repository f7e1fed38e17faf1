"""The chance book every game keeps in its state: rolls asked for by label and range, bound before their
public value exists, and settled from it.

A game asks ``ask(book, event, label, lo, hi, count)`` while it applies an event. The roll is bound at once to
a public value still to come, chosen from what the shell offered in ``event.draws`` (the shell's clock never
reaches the engine):

* ``drand``: the first offered round ("drand:<round>", a round at least a margin in the future). Its values are
  ``derive.values(randomness, label, count, lo, hi)`` (engine/chance/derive.py) of the beacon's randomness,
  recorded by a ``beacon.recorded`` event once fetched and verified.
* ``lottery``: the first offered draw date that still has enough free slots; each value takes one number (or,
  when the range does not divide 90, a pair with rejection: engine/dice.py) from a slot of its own, and no two
  numbers of one roll share a wheel of one draw (numbers of one wheel are drawn without replacement, so they
  are linked). A refused pair re-binds that value to the next free slots of the next draw offered then.
* ``commit-reveal``: the label itself, mixed with the first offered drand round when the shell offers one
  (engine/commit_reveal.py: the label ends in "@drand:<round>"); the roll waits for that round's beacon, then the
  shell records the values in a ``random.recorded`` event. Under ``commit_reveal_rule`` 2 a roll binds only with a
  round and its values must be the round's alone, checked as they are recorded.

A slot, a label or a round used once is never handed out again, even after an undo (``carry``).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import commit_reveal
from engine import dice as lottery_dice
from engine.chance import derive, lottery_slots
from engine.events import Event, Rejection
from engine.lotto import WHEELS
from engine.ruleset import Need

LOTTERY, DRAND, COMMIT_REVEAL = "lottery", "drand", "commit-reveal"
SOURCES = (LOTTERY, DRAND, COMMIT_REVEAL)
DRAND_PREFIX = "drand:"
MAX_VALUES = 200  # values in one roll: a game's largest volley, and a bound on what one event can ask
LOTTERY_HIGH = 90


@dataclass
class Binding:
    """One roll: what it is for, where its values come from, and the values once known."""

    id: int
    label: str
    lo: int
    hi: int
    count: int
    source: str
    # lottery: ["2023-01-05|BA|1", ...] one or two slots per value; drand: ["drand:123"]; commit-reveal: [label]
    where: list[str]
    purpose: str = ""
    seat: str | None = None
    meaning: str = ""
    values: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "label": self.label, "lo": self.lo, "hi": self.hi, "count": self.count,
            "source": self.source, "where": list(self.where), "purpose": self.purpose, "seat": self.seat,
            "meaning": self.meaning, "values": None if self.values is None else list(self.values),
        }


@dataclass
class ChanceBook:
    source: str = DRAND
    bindings: list[Binding] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # slots, labels and rounds ever handed out
    draws: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # lottery: date -> wheel -> numbers
    beacons: dict[str, str] = field(default_factory=dict)  # drand: round -> randomness (hex)
    numbers: dict[str, list[int]] = field(default_factory=dict)  # commit-reveal: label -> values
    cancelled: list[str] = field(default_factory=list)  # lottery dates ruled not held (draw.cancelled)
    next_id: int = 1
    # commit-reveal: RULE_AT_ONCE when values come from their drand round alone, checked as they are recorded
    # (engine/commit_reveal.py); RULE_SEED, the class default a snapshot pickled before it finds, for the seed's.
    rule: int = commit_reveal.RULE_SEED
    slot_rule: int = lottery_slots.ONE_ROLL_PER_WHEEL  # engine/chance/lottery_slots.py: from campaign.created

    def pending(self) -> list[Binding]:
        return [b for b in self.bindings if b.values is None]

    def to_dict(self) -> dict[str, Any]:
        # The rule is shown only where it is not the old one: an old campaign's public view stays byte for byte.
        return {"source": self.source, "rolls": [b.to_dict() for b in self.bindings],
                **({"commit_reveal_rule": self.rule} if self.rule != commit_reveal.RULE_SEED else {})}


def ask(
    book: ChanceBook, event: Event, label: str, lo: int, hi: int, count: int = 1, *,
    purpose: str = "", seat: str | None = None, meaning: str = "",
) -> Binding:
    """Bind a roll of ``count`` values in lo..hi to the next public value offered, or refuse with the reason."""
    if not (isinstance(lo, int) and isinstance(hi, int) and lo <= hi and hi - lo < 2**31):
        raise Rejection(f"a roll needs a range lo..hi with lo <= hi, not {lo}..{hi}")
    if not 1 <= count <= MAX_VALUES:
        raise Rejection(f"a roll gives 1 to {MAX_VALUES} values at once, not {count}")
    unique = label
    again = 1
    while unique in book.used:
        again += 1
        unique = f"{label}#{again}"
    if book.source == DRAND:
        where = [_first_round(book, event)]
    elif book.source == LOTTERY:
        where = _lottery_slots(book, _offered_dates(event), count * lottery_dice.numbers_per_die(hi - lo + 1))
    elif book.source == COMMIT_REVEAL:
        mixed = offered_round(event)
        if mixed is None and book.rule != commit_reveal.RULE_SEED:
            # Rule 2's values come from the round alone: without one they could only come from the seed, unchecked
            # until the reveal, the very window rule 2 closes.
            raise Rejection("no future drand round was offered to bind this roll to; the shell offers one with every event")
        if mixed is not None:
            book.used.append(unique)
            unique = commit_reveal.with_round(unique, mixed[len(DRAND_PREFIX):])
        where = [unique] + ([mixed] if mixed is not None else [])
    else:
        raise Rejection(f"unknown source of chance '{book.source}'")
    book.used.append(unique)
    book.used.extend(w for w in where if w != unique and w not in book.used)
    binding = Binding(book.next_id, unique, lo, hi, count, book.source, where, purpose, seat, meaning)
    book.next_id += 1
    book.bindings.append(binding)
    return binding


def rule_of(source: str, setup: dict[str, Any]) -> int:
    """The commit-reveal rule a new book follows, from ``campaign.created`` (engine/commit_reveal.py)."""
    return commit_reveal.rule_of(setup) if source == COMMIT_REVEAL else commit_reveal.RULE_SEED


def record_beacon(beacons: dict[str, str], data: dict[str, Any]) -> None:
    """Keep a ``beacon.recorded`` event's randomness by round (any game's beacons: the book's or its own table).
    The signature stays in the log for ``legatus verify``; a round, once recorded, never changes."""
    round_no, randomness = str(data.get("round", "")), str(data.get("randomness", ""))
    if not round_no.isdigit() or len(randomness) != 64 or any(c not in "0123456789abcdef" for c in randomness):
        raise Rejection("beacon.recorded needs a round number and its randomness (64 lowercase hex digits)")
    known = beacons.get(round_no)
    if known is not None and known != randomness:
        raise Rejection(f"round {round_no} is already recorded with another randomness; a beacon never changes")
    beacons[round_no] = randomness


def record(book: ChanceBook, event: Event) -> bool:
    """Take in a public value from the shell (a draw, a beacon, seed numbers); False if the event is none of those.

    A value, once recorded, is never changed: a different one for the same draw, round or label is refused.
    """
    data = event.data
    if event.kind == "beacon.recorded":
        record_beacon(book.beacons, data)
        return True
    if event.kind == "random.recorded":
        numbers = data.get("numbers")
        if not isinstance(numbers, dict) or not numbers:
            raise Rejection("random.recorded needs numbers: {label: [values]}")
        for label, values in numbers.items():
            if isinstance(values, int) and not isinstance(values, bool):
                values = [values]
            if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise Rejection(f"the values of '{label}' must be a list of whole numbers, not {values!r}")
            if book.rule != commit_reveal.RULE_SEED:
                _check_at_once(book, str(label), values)
            early = commit_reveal.waits_for_round(str(label), book.beacons)
            if early:
                raise Rejection(early)
            known = book.numbers.get(str(label))
            if known is not None and known != values:
                raise Rejection(f"'{label}' is already recorded as {known}; a recorded number is never changed")
            book.numbers[str(label)] = list(values)
        return True
    if event.kind == "draw.cancelled":
        _cancel_draw(book, event)
        return True
    if event.kind == "draw.recorded":
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
        return True
    return False


def _check_at_once(book: ChanceBook, label: str, values: list[int]) -> None:
    """Rule 2: values only for a label a roll is bound to, and only its round's."""
    binding = next((b for b in book.bindings if b.source == COMMIT_REVEAL and b.label == label), None)
    if binding is None:
        raise Rejection(f"no roll of this campaign is bound to '{label}': no number can be recorded for it")
    wrong = commit_reveal.check_at_once(label, values, binding.count, binding.lo, binding.hi, book.beacons)
    if wrong:
        raise Rejection(wrong)


def settle(book: ChanceBook, event: Event) -> list[Binding]:
    """Give every pending roll whose public value is known its values; the newly settled ones, in binding order."""
    settled = []
    for binding in book.pending():
        values = _values(book, binding, event)
        if values is not None:
            binding.values = values
            settled.append(binding)
    return settled


def needs(book: ChanceBook) -> list[Need]:
    wanted: dict[tuple[str, str], None] = {}
    for binding in book.pending():
        if binding.source == DRAND:
            round_no = binding.where[0][len(DRAND_PREFIX):]
            if round_no not in book.beacons:
                wanted[(DRAND, round_no)] = None
        elif binding.source == LOTTERY:
            for slot in binding.where:
                date = slot.split("|", 1)[0]
                if date not in book.draws:
                    wanted[(LOTTERY, date)] = None
        elif binding.label not in book.numbers:
            round_no = commit_reveal.mixing_round(binding.label)
            if round_no is not None and round_no not in book.beacons:
                wanted[(DRAND, round_no)] = None
            else:
                wanted[(COMMIT_REVEAL, binding.label)] = None
    ranges = {b.label: (b.lo, b.hi, b.count) for b in book.pending() if b.source == COMMIT_REVEAL}
    return [Need(source, key, *ranges[key], mix=_mix(book, key)) if source == COMMIT_REVEAL else Need(source, key)
            for source, key in wanted]


def _mix(book: ChanceBook, label: str) -> str:
    round_no = commit_reveal.mixing_round(label)
    return book.beacons.get(round_no, "") if round_no is not None else ""


def carry(before: ChanceBook, after: ChanceBook) -> None:
    """After an undo: what was handed out or seen stays so (a slot seen is never bound again)."""
    for key in before.used:
        if key not in after.used:
            after.used.append(key)
    for date, numbers in before.draws.items():
        after.draws.setdefault(date, numbers)
    for round_no, randomness in before.beacons.items():
        after.beacons.setdefault(round_no, randomness)
    for label, values in before.numbers.items():
        after.numbers.setdefault(label, values)
    after.next_id = max(after.next_id, before.next_id)


def ledger_entry(binding: Binding, turn: int | None = None, outcome: str | None = None) -> dict[str, Any]:
    """A binding as the boundary's ledger entry (engine/ruleset.py ``Ruleset.ledger``): what /ledger and verify read."""
    key = binding.where[0][len(DRAND_PREFIX):] if binding.source == DRAND else (
        binding.label if binding.source == COMMIT_REVEAL else binding.where[0].split("|")[0])
    slots = [[*s.split("|")[:2], int(s.split("|")[2]), f"{binding.purpose or binding.label} (roll #{binding.id})"]
             for s in binding.where] if binding.source == LOTTERY else []
    return {
        "id": binding.id, "turn": turn, "purpose": binding.purpose or binding.label, "seat": binding.seat,
        "source": binding.source, "key": key, "where": describe(binding), "slots": slots,
        "values": None if binding.values is None else list(binding.values),
        "outcome": (outcome or "drawn") if binding.values is not None else "pending", "meaning": binding.meaning,
        # How the values follow from the public value, for anyone re-deriving them (the campaign site's browser check).
        "derive": {"label": binding.label, "lo": binding.lo, "hi": binding.hi, "count": binding.count},
    }


def describe(binding: Binding) -> str:
    """Where a roll's values come from, in words, for the binding message and the ledger."""
    if binding.source == DRAND:
        return f"drand quicknet round {binding.where[0][len(DRAND_PREFIX):]}, label '{binding.label}'"
    if binding.source == LOTTERY:
        return "lottery " + ", ".join(_slot_words(s) for s in binding.where)
    round_no = commit_reveal.mixing_round(binding.label)
    mixed = f", mixed with drand quicknet round {round_no}" if round_no is not None else ""
    return f"commit-reveal label '{binding.label}'{mixed}"


def _slot_words(slot: str) -> str:
    date, wheel, position = slot.split("|")
    return f"{date} {wheel} #{position}"


# --- binding ---------------------------------------------------------------------------------------------------


def _first_round(book: ChanceBook, event: Event) -> str:
    first = offered_round(event)
    if first is None:
        raise Rejection("no future drand round was offered to bind this roll to; the shell offers one with every event")
    return first


def offered_round(event: Event) -> str | None:
    """The earliest drand round the shell offered with the event ("drand:<round>"), or None."""
    rounds = [d for d in event.draws if d.startswith(DRAND_PREFIX) and d[len(DRAND_PREFIX):].isdigit()]
    return min(rounds, key=lambda d: int(d[len(DRAND_PREFIX):])) if rounds else None


def _offered_dates(event: Event) -> list[str]:
    dates = sorted(d for d in event.draws if not d.startswith(DRAND_PREFIX))
    if not dates:
        raise Rejection("no future lottery draw is known to bind this roll to; the GM must import the coming draws first")
    return dates


def _lottery_slots(book: ChanceBook, dates: list[str], wanted: int, avoid: Sequence[str] = ()) -> list[str]:
    """``wanted`` free slots, no two on one wheel of one draw (nor on a wheel of a draw in ``avoid``, the slots the
    roll keeps); a draw's free wheels used before the next draw's."""
    wheels = [w for w in WHEELS if w != "RN"]  # the Nazionale wheel did not exist before 2005
    if book.slot_rule == lottery_slots.ONE_NUMBER_PER_WHEEL:
        return _first_numbers(book, dates, wanted, wheels)
    taken: list[str] = []
    kept = [s.rsplit("|", 1)[0] + "|" for s in avoid]
    used = set(book.used)
    for date in dates:
        for position in range(1, 6):
            for wheel in wheels:
                if len(taken) == wanted:
                    return taken
                key = f"{date}|{wheel}|{position}"
                if key in used or any(t.startswith(f"{date}|{wheel}|") for t in taken) or f"{date}|{wheel}|" in kept:
                    continue
                # A wheel already used by this roll in this draw is skipped above; one used by another roll is fine.
                taken.append(key)
        if len(taken) == wanted:
            return taken
    if len(taken) == wanted:
        return taken
    raise Rejection(
        f"the coming lottery draws offered ({', '.join(dates)}) have too few free slots for this roll "
        f"({wanted} numbers on separate wheels); the GM must import later draws first"
    )


def _first_numbers(book: ChanceBook, dates: list[str], wanted: int, wheels: list[str]) -> list[str]:
    """Rule 2: the first number of each wheel no roll of the campaign has used on that draw, draw after draw."""
    used = set(book.used)
    taken: list[str] = []
    for date in dates:
        for wheel in wheels:
            if len(taken) == wanted:
                return taken
            if not lottery_slots.wheel_used(used, date, wheel):
                taken.append(f"{date}|{wheel}|1")
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
    waiting = [b for b in book.pending() if b.source == LOTTERY and any(s.split("|")[0] == day for s in b.where)]
    if not waiting:
        raise Rejection(f"nothing in this campaign waits for the draw of {day}")
    later = [d for d in _offered_dates_or_none(event) if d > day]
    book.cancelled.append(day)
    for binding in waiting:
        kept = [s for s in binding.where if s.split("|")[0] != day]
        lost = len(binding.where) - len(kept)
        fresh = _lottery_slots(book, later, lost, avoid=kept) if later else []
        if len(fresh) < lost:
            raise Rejection(f"no later lottery draw is known to bind the rolls of {day} to again; import the coming draws first")
        book.used.extend(fresh)
        # Slot order is value order (a pair per value): the replacements take the places of the slots lost.
        replacements = iter(fresh)
        binding.where = [next(replacements) if s.split("|")[0] == day else s for s in binding.where]


# --- settling --------------------------------------------------------------------------------------------------


def _values(book: ChanceBook, binding: Binding, event: Event) -> list[int] | None:
    if binding.source == DRAND:
        randomness = book.beacons.get(binding.where[0][len(DRAND_PREFIX):])
        if randomness is None:
            return None
        return derive.values(bytes.fromhex(randomness), binding.label, binding.count, binding.lo, binding.hi)
    if binding.source == COMMIT_REVEAL:
        values = book.numbers.get(binding.label)
        if values is None:
            return None
        if len(values) != binding.count or not all(binding.lo <= v <= binding.hi for v in values):
            raise Rejection(
                f"'{binding.label}' needs {binding.count} values in {binding.lo}..{binding.hi}, not {values}"
            )
        return list(values)
    return _lottery_values(book, binding, event)


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
        later = [d for d in _offered_dates_or_none(event) if d > max(s.split("|")[0] for s in binding.where)]
        extra = _lottery_slots(book, later, refused * per) if later else []
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


def _offered_dates_or_none(event: Event) -> list[str]:
    return sorted(d for d in event.draws if not d.startswith(DRAND_PREFIX))
