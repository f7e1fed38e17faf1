"""Commit–reveal as a source: a roll is bound to a label of the campaign's committed seed (engine/commit_reveal.py).

The label is mixed with the first drand round the shell offers (it ends in "@drand:<round>"): the roll waits for
that round's beacon, then the shell records the values in a ``random.recorded`` event. Under ``commit_reveal_rule``
2 a roll binds only with a round and its values must be the round's alone, checked as they are recorded; under
rule 1 (campaigns created before) they come from the seed and are checked once the GM reveals it.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine import commit_reveal
from engine.chance.source import Rounds
from engine.chance.sources import drand as drand_source
from engine.events import Event, Rejection
from engine.ruleset import Need

if TYPE_CHECKING:
    from engine.chance.book import Binding, ChanceBook

NAME = "commit-reveal"


def round_to_mix(event: Event, rule: int) -> str | None:
    """The drand round ("drand:<round>") a label bound with ``event`` is mixed with, None for the seed alone (what
    the shell offered decides); refused under rule 2 when no round was offered."""
    mixed = drand_source.offered_round(event)
    if mixed is None and rule != commit_reveal.RULE_SEED:
        # Rule 2's values come from the round alone: without one they could only come from the seed, unchecked
        # until the reveal, the very window rule 2 closes.
        raise Rejection("no future drand round was offered to bind this roll to; the shell offers one with every event")
    return mixed


def mixed(label: str, round_offered: str) -> str:
    """The label mixed with an offered round: "siege" and "drand:50" make "siege@drand:50"."""
    return commit_reveal.with_round(label, drand_source.round_of(round_offered))


class CommitReveal:
    name = NAME
    offered = True
    verifiable = True  # once the seed is revealed (rule 1), or as each value is recorded (rule 2)
    drand = True  # its labels are mixed with drand rounds
    lottery = False
    seed = True
    clocked = False  # a label is public when its round is (``waits_for``), or when the seed is revealed
    margin = drand_source.SOURCE.margin  # a mixed label's values wait for its round
    records: tuple[str, ...] = ("random.recorded",)
    span: int | None = None  # values derived from a seed (and a round's randomness)
    values_words = "commit-reveal numbers"

    def created_fields(self) -> dict[str, Any]:
        # Each roll is also mixed with a future drand round: the seed's holder cannot foresee it either. The rule of
        # its numbers (commit_reveal_rule) is the shell's to write, with the seed it keeps.
        return {"mix": drand_source.NAME}

    def rounds_offered(self, created: Mapping[str, Any]) -> bool:
        # Campaigns created before labels were mixed (no "mix") keep binding to the seed alone.
        return created.get("mix") == drand_source.NAME

    def configure(self, book: ChanceBook, setup: Mapping[str, Any]) -> None:
        book.rule = commit_reveal.rule_of(dict(setup))

    def bind(self, book: ChanceBook, event: Event, label: str, lo: int, hi: int, count: int, *,
             avoid: Sequence[str] = (), whole_wheel: bool = False) -> tuple[str, list[str]]:
        round_offered = round_to_mix(event, book.rule)
        if round_offered is None:
            return label, [label]
        book.used.append(label)  # the unmixed label is handed out too
        return mixed(label, round_offered), [mixed(label, round_offered), round_offered]

    def record(self, book: ChanceBook, event: Event) -> None:
        numbers = event.data.get("numbers")
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

    def values(self, book: ChanceBook, binding: Binding, event: Event) -> list[int] | None:
        values = book.numbers.get(binding.label)
        if values is None:
            return None
        if len(values) != binding.count or not all(binding.lo <= v <= binding.hi for v in values):
            raise Rejection(
                f"'{binding.label}' needs {binding.count} values in {binding.lo}..{binding.hi}, not {values}"
            )
        return list(values)

    def wanted(self, book: ChanceBook, bindings: Sequence[Binding]) -> list[Need]:
        # A label waits for its round's beacon first (mixed), then for its values.
        wanted: dict[tuple[str, str], Binding] = {}
        for binding in bindings:
            if binding.label in book.numbers:
                continue
            round_no = commit_reveal.mixing_round(binding.label)
            if round_no is not None and round_no not in book.beacons:
                wanted.setdefault((drand_source.NAME, round_no), binding)
            else:
                wanted.setdefault((NAME, binding.label), binding)
        return [Need(source, key) if source != NAME else
                Need(NAME, key, b.lo, b.hi, b.count, mix=_mix(book, key)) for (source, key), b in wanted.items()]

    def key(self, binding: Binding) -> str:
        return binding.label

    def slots(self, binding: Binding) -> list[list[Any]]:
        return []

    def describe(self, binding: Binding) -> str:
        round_no = commit_reveal.mixing_round(binding.label)
        mixed = f", mixed with drand quicknet round {round_no}" if round_no is not None else ""
        return f"commit-reveal label '{binding.label}'{mixed}"

    def waits_for(self, key: str) -> tuple[str, str] | None:
        """A mixed label waits for its drand round; one drawn from the seed alone is public at no set time."""
        round_no = commit_reveal.mixing_round(key)
        return None if round_no is None else (drand_source.NAME, round_no)

    def moment(self, key: str, rounds: Rounds) -> dt.datetime | None:
        return None  # a label's values are public when its round is (``waits_for``), or when the GM reveals the seed


SOURCE = CommitReveal()


def _mix(book: ChanceBook, label: str) -> str:
    round_no = commit_reveal.mixing_round(label)
    return book.beacons.get(round_no, "") if round_no is not None else ""


def _check_at_once(book: ChanceBook, label: str, values: list[int]) -> None:
    """Rule 2: values only for a label a roll is bound to, and only its round's."""
    binding = next((b for b in book.bindings if b.source == NAME and b.label == label), None)
    if binding is None:
        raise Rejection(f"no roll of this campaign is bound to '{label}': no number can be recorded for it")
    wrong = commit_reveal.check_at_once(label, values, binding.count, binding.lo, binding.hi, book.beacons)
    if wrong:
        raise Rejection(wrong)
