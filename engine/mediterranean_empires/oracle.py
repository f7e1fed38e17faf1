"""Every die and every mid-order decision goes through here: ``Oracle.dice`` and ``Oracle.ask``.

The rules never roll: they ask the oracle for the dice under a label ("gt2.a5.ops"). A die the chance book settled is
returned; an unknown one raises ``NeedRoll``, the order is parked and played again from its start once the shell
has bound and recorded the value (engine/chance). Questions to the other player (intercept? avoid combat?) work
the same way (``NeedAnswer``), so an order is a pure function of its text, its dice and its answers.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


class NeedRoll(Exception):
    def __init__(self, label: str, count: int, sides: int) -> None:
        super().__init__(f"roll {label}: {count}d{sides}")
        self.label, self.count, self.sides = label, count, sides


class NeedReveal(Exception):
    """Sealed answers (initiative bids) are all in: the order waits for the shell to reveal them (Need "secret")."""

    def __init__(self, labels: list[str]) -> None:
        super().__init__(f"reveal {', '.join(labels)}")
        self.labels = labels


class NeedMarker(Exception):
    """A marker is claimed (played, spent, bid): the order waits for the reveal of one of ``kinds`` that ``side``
    holds under seal (engine/mediterranean_empires/hand.py)."""

    def __init__(self, side: str, kinds: tuple[str, ...]) -> None:
        super().__init__(f"reveal a {'/'.join(kinds)} marker of Player {side}")
        self.side, self.kinds = side, kinds


class NeedSeal(Exception):
    """A stratagem pick's public value is known: the order waits for the bot to seal the marker it derives."""

    def __init__(self, label: str, side: str, values: list[int], shows: bool) -> None:
        super().__init__(f"seal the pick {label}")
        self.label, self.side, self.values, self.shows = label, side, values, shows


# What ``ask`` returns for a question answered sealed and not revealed yet: the rule must not use it.
SEALED = "(sealed)"


class NeedAnswer(Exception):
    def __init__(self, seat: str, label: str, question: str, choices: tuple[str, ...], default: str,
                 mode: str = "reaction") -> None:
        super().__init__(f"ask {seat}: {question}")
        self.seat, self.label, self.question, self.choices, self.default, self.mode = seat, label, question, choices, default, mode


@dataclass
class Oracle:
    rolls: Mapping[str, list[int]] = field(default_factory=dict)  # label -> values: the book's (chance.Drawn)
    answers: dict[str, Any] = field(default_factory=dict)
    prefix: str = ""
    # Standing orders: given the question's label kind and its context, an answer or None (ask the player).
    standing: Callable[[str, str, dict[str, Any]], str | None] | None = None
    used: list[str] = field(default_factory=list)
    sealed: frozenset[str] = frozenset()  # labels answered under seal, content not revealed yet
    # Markers revealed for the order's claims, in the order claimed ({"seq", "side", "marker"}), and picks sealed.
    revealed: list[dict[str, Any]] = field(default_factory=list)
    picks: dict[str, dict[str, Any]] = field(default_factory=dict)
    cursor: int = 0  # how many of ``revealed`` this run has used

    def claim(self, hand: list[dict[str, Any]], side: str, kinds: tuple[str, ...]) -> dict[str, Any]:
        """The hand entry that backs a claim of one of ``kinds``: an open one, else the next marker revealed for this
        order; else ``NeedMarker`` (the order waits for the reveal)."""
        for entry in hand:
            if entry["seq"] is None and entry["marker"] in kinds:
                return entry
        while self.cursor < len(self.revealed):
            shown = self.revealed[self.cursor]
            self.cursor += 1
            if shown["side"] == side and shown["marker"] in kinds:
                held = next((e for e in hand if e["seq"] == shown["seq"]), None)
                if held is not None:
                    return {**held, "marker": shown["marker"]}
        raise NeedMarker(side, kinds)

    def pick(self, side: str, label: str, shows: bool, sides: int, pool: int) -> dict[str, Any]:
        """A stratagem pick: its public value (a roll under ``label``.pick), then the bot's seal of the marker."""
        values = self.dice(f"{label}.pick", 1, sides)
        key = f"{self.prefix}{label}"
        if key in self.picks:
            return self.picks[key]
        raise NeedSeal(key, side, values, shows)

    def dice(self, label: str, count: int = 1, sides: int = 6) -> list[int]:
        key = f"{self.prefix}{label}"
        self.used.append(key)
        recorded = self.rolls.get(key)  # one walk of the book, not two
        if recorded is None:
            raise NeedRoll(key, count, sides)
        values = list(recorded)
        if len(values) != count or any(not 1 <= v <= sides for v in values):
            raise ValueError(f"roll {key} recorded as {values}, but {count}d{sides} was asked")
        return values

    def die(self, label: str, sides: int = 6) -> int:
        return self.dice(label, 1, sides)[0]

    def ask(self, seat: str, label: str, question: str, choices: Iterable[str], default: str,
            context: dict[str, Any] | None = None, mode: str = "reaction") -> str:
        key = f"{self.prefix}{label}"
        if key in self.answers:
            return str(self.answers[key])
        if key in self.sealed:
            return SEALED
        if self.standing is not None:
            ruled = self.standing(seat, label.split(".")[-1], context or {})
            if ruled is not None:
                return ruled
        raise NeedAnswer(seat, key, question, tuple(choices), default, mode)


class Scripted(Oracle):
    """For tests and examples: dice handed out in the order asked, whatever their label; answers by label suffix."""

    def __init__(self, dice: Iterable[int] = (), answers: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.queue = list(dice)
        self.by_suffix = dict(answers or {})

    def dice(self, label: str, count: int = 1, sides: int = 6) -> list[int]:
        self.used.append(label)
        if len(self.queue) < count:
            raise NeedRoll(label, count, sides)
        out, self.queue = self.queue[:count], self.queue[count:]
        return out

    def claim(self, hand: list[dict[str, Any]], side: str, kinds: tuple[str, ...]) -> dict[str, Any]:
        """Examples of play hold their markers openly: the first one of ``kinds``."""
        for entry in hand:
            if entry["marker"] in kinds:
                return entry
        raise NeedMarker(side, kinds)

    def pick(self, side: str, label: str, shows: bool, sides: int, pool: int) -> dict[str, Any]:
        """The next die is the 1-based place of the marker in the sorted pool of ``pool`` markers."""
        return {"index": self.dice(label, 1, pool)[0] - 1}

    def ask(self, seat: str, label: str, question: str, choices: Iterable[str], default: str,
            context: dict[str, Any] | None = None, mode: str = "reaction") -> str:
        kind = label.split(".")[-1]
        return str(self.by_suffix.get(kind, default))
