"""Every die and every mid-order decision goes through here: ``Oracle.dice`` and ``Oracle.ask``.

The rules never roll: they ask the oracle for the dice under a label ("gt2.a5.ops"). A die already recorded is
returned; an unknown one raises ``NeedRoll``, the order is parked and played again from its start once the shell
has bound and recorded the value (engine/chance). Questions to the other player (intercept? avoid combat?) work
the same way (``NeedAnswer``), so an order is a pure function of its text, its dice and its answers.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
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


# What ``ask`` returns for a question answered sealed and not revealed yet: the rule must not use it.
SEALED = "(sealed)"


class NeedAnswer(Exception):
    def __init__(self, seat: str, label: str, question: str, choices: tuple[str, ...], default: str,
                 mode: str = "reaction") -> None:
        super().__init__(f"ask {seat}: {question}")
        self.seat, self.label, self.question, self.choices, self.default, self.mode = seat, label, question, choices, default, mode


@dataclass
class Oracle:
    rolls: dict[str, list[int]] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    prefix: str = ""
    # Standing orders: given the question's label kind and its context, an answer or None (ask the player).
    standing: Callable[[str, str, dict[str, Any]], str | None] | None = None
    used: list[str] = field(default_factory=list)
    sealed: frozenset[str] = frozenset()  # labels answered under seal, content not revealed yet

    def dice(self, label: str, count: int = 1, sides: int = 6) -> list[int]:
        key = f"{self.prefix}{label}"
        self.used.append(key)
        if key not in self.rolls:
            raise NeedRoll(key, count, sides)
        values = list(self.rolls[key])
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

    def ask(self, seat: str, label: str, question: str, choices: Iterable[str], default: str,
            context: dict[str, Any] | None = None, mode: str = "reaction") -> str:
        kind = label.split(".")[-1]
        return str(self.by_suffix.get(kind, default))
