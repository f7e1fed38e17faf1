"""Fixed values, for scenario tests: a roll takes the next values of a list given in ``campaign.created``.

``{"randomness": "fixed", "fixed_values": [3, 3, 5, 2]}``: the first roll of two values reads 3 and 3, the next
5 and 2, each known the moment the roll is bound. A rules test can then say which dice fall instead of searching
for a beacon that gives them. Everyone knew the values before every binding, so the source is never offered to a
campaign (``offered``) and ``legatus verify`` never passes a log drawing from it (``verifiable``).

The values are kept in the book's recorded numbers under "fixed:<index>" (0-based), and a roll's ``where`` names
the indexes it reads; an index handed out is never handed out again, even after an undo, as any source's key.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.chance.source import Rounds
from engine.events import Event, Rejection
from engine.ruleset import Need

if TYPE_CHECKING:
    from engine.chance.book import Binding, ChanceBook

NAME = "fixed"
PREFIX = "fixed:"
CREATED_KEY = "fixed_values"  # in campaign.created: the list of values, in the order rolls take them


class Fixed:
    name = NAME
    offered = False
    verifiable = False
    drand = False
    lottery = False
    seed = False
    clocked = False
    margin = dt.timedelta(0)
    records: tuple[str, ...] = ()
    span: int | None = None  # each value is given whole
    values_words = "fixed values"

    def created_fields(self) -> dict[str, Any]:
        return {}

    def rounds_offered(self, created: Mapping[str, Any]) -> bool:
        return False

    def configure(self, book: ChanceBook, setup: Mapping[str, Any]) -> None:
        given = setup.get(CREATED_KEY)
        if not isinstance(given, list) or not given or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in given):
            raise Rejection(f"a campaign drawing from fixed values lists them in campaign.created as "
                            f"\"{CREATED_KEY}\": [whole numbers], not {str(given)[:60]}")
        for index, value in enumerate(given):
            book.numbers[f"{PREFIX}{index}"] = [value]

    def bind(self, book: ChanceBook, event: Event, label: str, lo: int, hi: int, count: int, *,
             avoid: Sequence[str] = (), whole_wheel: bool = False) -> tuple[str, list[str]]:
        start = sum(1 for key in book.used if key.startswith(PREFIX))
        keys = [f"{PREFIX}{index}" for index in range(start, start + count)]
        given = sum(1 for key in book.numbers if key.startswith(PREFIX))
        if keys[-1] not in book.numbers:
            raise Rejection(f"'{label}' needs {count} fixed value(s), but only {max(given - start, 0)} of the {given} "
                            f"given in campaign.created are left")
        for key in keys:
            value = book.numbers[key][0]
            if not lo <= value <= hi:
                raise Rejection(f"fixed value #{int(key[len(PREFIX):]) + 1} is {value}, outside the range {lo}..{hi} "
                                f"of '{label}'")
        return label, keys

    def record(self, book: ChanceBook, event: Event) -> None:
        return None  # its values are all given when the campaign is created

    def values(self, book: ChanceBook, binding: Binding, event: Event) -> list[int] | None:
        return [book.numbers[key][0] for key in binding.where]

    def wanted(self, book: ChanceBook, bindings: Sequence[Binding]) -> list[Need]:
        return []

    def key(self, binding: Binding) -> str:
        return binding.where[0]

    def slots(self, binding: Binding) -> list[list[Any]]:
        return []

    def describe(self, binding: Binding) -> str:
        first, last = (int(w[len(PREFIX):]) + 1 for w in (binding.where[0], binding.where[-1]))
        which = f"#{first}" if first == last else f"#{first} to #{last}"
        return f"fixed value(s) {which} given in campaign.created, label '{binding.label}' (known in advance: not verifiable)"

    def waits_for(self, key: str) -> tuple[str, str] | None:
        return None  # known from the campaign's creation: no clock makes it public

    def moment(self, key: str, rounds: Rounds) -> dt.datetime | None:
        return None


SOURCE = Fixed()
