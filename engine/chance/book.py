"""The chance book every game keeps in its state: rolls asked for by label and range, bound before their
public value exists, and settled from it.

A game asks ``ask(book, event, label, lo, hi, count)`` while it applies an event. The roll is bound at once to
a public value still to come, chosen by the campaign's source of chance (``book.source``) from what the shell
offered in ``event.draws`` (the shell's clock never reaches the engine). The sources are registered in
engine/chance/registry.py, one module each in engine/chance/sources/ (the protocol: engine/chance/source.py):

* ``drand``: the first offered round; values derived from the beacon's randomness and the label;
* ``lottery``: slots of the first offered draws with enough free ones, by the campaign's slot rule;
* ``commit-reveal``: a label of the committed seed, mixed with the first offered drand round.

The book keeps what every source shares: the rolls, the keys handed out (a slot, a label or a round used once is
never handed out again, even after an undo: ``carry``) and the public values recorded, each never changed.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import Any

from engine import commit_reveal
from engine.chance import lottery_slots, registry
from engine.chance.slot_policy import SlotPolicy
from engine.chance.source import Source
from engine.chance.used_keys import UsedKeys, used_keys
from engine.chance.sources import commit_reveal as commit_reveal_source
from engine.chance.sources import drand as drand_source
from engine.chance.sources import lottery as lottery_source
from engine.events import Event, Rejection
from engine.ruleset import Need

LOTTERY, DRAND, COMMIT_REVEAL = lottery_source.NAME, drand_source.NAME, commit_reveal_source.NAME
SOURCES = registry.NAMES
DRAND_PREFIX = drand_source.PREFIX
MAX_VALUES = 200  # values in one roll: a game's largest volley, and a bound on what one event can ask
offered_round = drand_source.offered_round
record_beacon = drand_source.record_beacon


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
    used: UsedKeys = field(default_factory=UsedKeys)  # slots, labels and rounds ever handed out
    draws: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # lottery: date -> wheel -> numbers
    beacons: dict[str, str] = field(default_factory=dict)  # drand: round -> randomness (hex)
    numbers: dict[str, list[int]] = field(default_factory=dict)  # commit-reveal: label -> values
    cancelled: list[str] = field(default_factory=list)  # lottery dates ruled not held (draw.cancelled)
    next_id: int = 1
    # commit-reveal: RULE_AT_ONCE when values come from their drand round alone, checked as they are recorded
    # (engine/commit_reveal.py); RULE_SEED, the class default a snapshot pickled before it finds, for the seed's.
    rule: int = commit_reveal.RULE_SEED
    slot_rule: int = lottery_slots.ONE_ROLL_PER_WHEEL  # engine/chance/lottery_slots.py: from campaign.created
    # The lottery slots a game's rules let its rolls take (engine/chance/slot_policy.py); None: every wheel's 1st
    # number, then their 2nd, ... A class default, so a snapshot pickled before it finds None.
    slot_policy: SlotPolicy | None = None
    # Every binding before this index has its values (``settle`` moves it on): a settled roll never changes again, so
    # what waits is looked for after it only, and a copy shares the rolls before it. Not compared: it says nothing a
    # fold differs by (a snapshot pickled before it finds the class default, 0).
    settled_upto: int = field(default=0, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        # Whoever sets the keys (the constructor, a copy, a test) gets them indexed: ``ask`` looks each label up.
        super().__setattr__(name, used_keys(value) if name == "used" else value)

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A snapshot pickled before the keys were indexed holds them as a plain list.
        self.__dict__.update(state)
        if "used" in state:
            self.used = state["used"]

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceBook:
        # A game copies its state for every event: the settled rolls and the recorded values never change again, so
        # the copy shares them and copies the rest, and applying an event costs the same at turn 500 as at turn 1
        # (a generic deepcopy walked every roll and every key ever handed out). A copied binding goes into ``memo``,
        # so a game's record that points at it (Mare Nostrum's Roll) follows it to the copy.
        new = object.__new__(ChanceBook)
        new.__dict__.update(self.__dict__)
        cut = min(self.settled_upto, len(self.bindings))
        bindings = self.bindings[:cut]
        for binding in self.bindings[cut:]:
            twin = replace(binding, where=list(binding.where),
                           values=None if binding.values is None else list(binding.values))
            memo[id(binding)] = twin
            bindings.append(twin)
        new.__dict__.update(
            bindings=bindings, used=used_keys(self.used).copy(),
            draws=dict(self.draws), beacons=dict(self.beacons), numbers=dict(self.numbers),
            cancelled=list(self.cancelled),
        )
        memo[id(self)] = new
        return new

    def pending(self) -> list[Binding]:
        return [b for b in self.bindings[self.settled_upto:] if b.values is None]

    def advance(self) -> None:
        """Move ``settled_upto`` past the leading rolls that have their values."""
        cut, bindings = self.settled_upto, self.bindings
        while cut < len(bindings) and bindings[cut].values is not None:
            cut += 1
        self.settled_upto = cut

    def to_dict(self) -> dict[str, Any]:
        # The rule is shown only where it is not the old one: an old campaign's public view stays byte for byte.
        return {"source": self.source, "rolls": [b.to_dict() for b in self.bindings],
                **({"commit_reveal_rule": self.rule} if self.rule != commit_reveal.RULE_SEED else {})}


class Drawn(Mapping[str, list[int]]):
    """A book's settled rolls as a read-only mapping label -> values: what a game that asks its dice by label (an
    order played again from its start, engine/mediterranean_empires/oracle.py) reads, with no copy of its own.
    A lookup walks the rolls from the newest: the die an order asks for is almost always among the last bound."""

    def __init__(self, book: ChanceBook) -> None:
        self._bindings = book.bindings  # the book's own list: a roll settled later is seen at once

    def __getitem__(self, label: str) -> list[int]:
        for binding in reversed(self._bindings):
            if binding.label == label:
                if binding.values is None:
                    break
                return binding.values
        raise KeyError(label)

    def __iter__(self) -> Iterator[str]:
        return (b.label for b in self._bindings if b.values is not None)

    def __len__(self) -> int:
        return sum(1 for b in self._bindings if b.values is not None)


def new_book(source: str, setup: Mapping[str, Any]) -> ChanceBook:
    """A campaign's book, drawing from ``source`` by the rules its ``campaign.created`` data (``setup``) names."""
    drawing = registry.get(source)
    if drawing is None:
        raise Rejection(f"unknown randomness '{source[:40]}': use {', '.join(SOURCES)}")
    book = ChanceBook(source=source)
    drawing.configure(book, setup)
    return book


def numbered(label: str, again: int) -> str:
    """The book's label for the ``again``-th roll asked under ``label`` (the first keeps it as it is)."""
    return f"{label}#{again}"


def ask(
    book: ChanceBook, event: Event, label: str, lo: int, hi: int, count: int = 1, *,
    purpose: str = "", seat: str | None = None, meaning: str = "",
    roll_id: int | None = None, again: Callable[[str, int], str] = numbered, after: str = "",
    avoid: Sequence[str] = (), whole_wheel: bool = False,
) -> Binding:
    """Bind a roll of ``count`` values in lo..hi to the next public value offered, or refuse with the reason.

    A game that numbers its rolls itself (one counter shared with its battles, shown in its public view) gives the
    id, ``roll_id``; one whose labels take another suffix when asked again gives ``again``; ``after``: a lottery
    roll binds only to draws later than that date (a turn's rolls come after the draw the turn itself reads).
    lo..hi = 1..90 gives a lottery roll its raw numbers, one slot each, and a drand roll the numbers its label
    derives on that range."""
    if not (isinstance(lo, int) and isinstance(hi, int) and lo <= hi and hi - lo < 2**31):
        raise Rejection(f"a roll needs a range lo..hi with lo <= hi, not {lo}..{hi}")
    if not 1 <= count <= MAX_VALUES:
        raise Rejection(f"a roll gives 1 to {MAX_VALUES} values at once, not {count}")
    if roll_id is not None and roll_id < book.next_id:
        # Ids only grow (a game's counter, shared with what else it numbers): one below the next is used or passed.
        raise Rejection(f"roll #{roll_id} comes before this book's next id #{book.next_id}; a roll's id is never reused")
    unique = label
    times = 1
    while unique in book.used or unique in book.numbers:
        times += 1
        unique = again(label, times)
    source = registry.get(book.source)
    if source is None:
        raise Rejection(f"unknown source of chance '{book.source}'")
    if after:
        offered = tuple([d for d in event.draws if d > after or d.startswith(DRAND_PREFIX)])
        if len(offered) != len(event.draws):  # a game's every roll asks this: copy the event only when it must
            event = replace(event, draws=offered)
    unique, where = source.bind(book, event, unique, lo, hi, count, avoid=avoid, whole_wheel=whole_wheel)
    used = book.used
    used.append(unique)
    for key in where:  # each once: a key twice in ``where`` goes in once
        if key != unique and key not in used:
            used.append(key)
    number = book.next_id if roll_id is None else roll_id
    binding = Binding(number, unique, lo, hi, count, book.source, where, purpose, seat, meaning)
    book.next_id = max(book.next_id, number + 1)
    book.bindings.append(binding)
    return binding


def rule_of(source: str, setup: dict[str, Any]) -> int:
    """The commit-reveal rule a new book follows, from ``campaign.created`` (engine/commit_reveal.py)."""
    return commit_reveal.rule_of(setup) if source == COMMIT_REVEAL else commit_reveal.RULE_SEED


def record(book: ChanceBook, event: Event) -> bool:
    """Take in a public value from the shell (a draw, a beacon, seed numbers); False if the event is none of those.

    A value, once recorded, is never changed: a different one for the same draw, round or label is refused. Every
    book keeps every source's values (a commit-reveal label mixed with a round waits for its beacon).
    """
    source = registry.recording(event.kind)
    if source is None:
        return False
    source.record(book, event)
    return True


def settle(book: ChanceBook, event: Event, then: Callable[[Binding], None] | None = None) -> list[Binding]:
    """Give every pending roll whose public value is known its values; the newly settled ones, in binding order.

    ``then``: the game's rule for a roll, called as soon as that roll has its values and before the next one gets
    theirs (Mare Nostrum's rules read a roll's pair as it stands at that moment). A roll it binds waits for the next
    call: the rolls looked at are those pending when the call began."""
    settled = []
    for binding in book.pending():
        values = _source_of(binding).values(book, binding, event)
        if values is not None:
            binding.values = values
            settled.append(binding)
            if then is not None:
                then(binding)
    book.advance()
    return settled


def needs(book: ChanceBook) -> list[Need]:
    """What the book's pending rolls wait for, each once, in the order of the first roll waiting for it."""
    wanted: dict[tuple[str, str], Need] = {}
    # A book's rolls share its source: the runs of one source (all of them, but in a book built by hand) are asked
    # together, which keeps the binding order.
    for _, run in groupby(book.pending(), key=lambda b: b.source):
        rolls = list(run)
        for need in _source_of(rolls[0]).wanted(book, rolls):
            wanted.setdefault((need.source, need.key), need)
    return list(wanted.values())


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
    source = _source_of(binding)
    return {
        "id": binding.id, "turn": turn, "purpose": binding.purpose or binding.label, "seat": binding.seat,
        "source": binding.source, "key": source.key(binding), "where": source.describe(binding),
        "slots": source.slots(binding),
        "values": None if binding.values is None else list(binding.values),
        "outcome": (outcome or "drawn") if binding.values is not None else "pending", "meaning": binding.meaning,
        # How the values follow from the public value, for anyone re-deriving them (the campaign site's browser check).
        "derive": {"label": binding.label, "lo": binding.lo, "hi": binding.hi, "count": binding.count},
    }


def describe(binding: Binding) -> str:
    """Where a roll's values come from, in words, for the binding message and the ledger."""
    return _source_of(binding).describe(binding)


def _source_of(binding: Binding) -> Source:
    source = registry.get(binding.source)
    if source is None:  # ``ask`` binds none: only a book built by hand could hold one
        raise Rejection(f"unknown source of chance '{binding.source}'")
    return source
