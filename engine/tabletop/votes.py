"""Votes: a question put to some seats, with the options, a deadline and a default. An option wins as soon as more
than half of the seats asked chose it; at the deadline, a majority of the seats asked or else the default (the
seats that did not vote count for nobody)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.events import Rejection


@dataclass
class Vote:
    question: str
    options: tuple[str, ...]
    voters: tuple[str, ...]
    default: str
    ballots: dict[str, str | None] = field(default_factory=dict)  # None: the seat abstained
    result: str | None = None
    how: str = ""

    def waiting(self) -> list[str]:
        return [] if self.result is not None else [s for s in self.voters if s not in self.ballots]

    def public(self) -> dict[str, Any]:
        return {"question": self.question, "options": list(self.options), "voters": list(self.voters),
                "default": self.default, "ballots": dict(self.ballots), "result": self.result, "how": self.how}


def ask(question: str, options: list[str], voters: list[str], default: str) -> Vote:
    if default not in options:
        raise Rejection(f"the default '{default}' is not one of the options ({', '.join(options)})")
    if not voters:
        raise Rejection("a vote asks at least one seat")
    return Vote(question, tuple(options), tuple(voters), default)


def cast(v: Vote, seat: str, option: str | None) -> str | None:
    """A ballot (None: abstain, counted for nobody); the result when it decides the vote."""
    if v.result is not None:
        raise Rejection(f"the vote is decided: {v.result}")
    if seat not in v.voters:
        raise Rejection(f"{seat} is not asked in this vote; the voters are {', '.join(v.voters)}")
    if seat in v.ballots:
        ballot = v.ballots[seat]
        raise Rejection(f"{seat} has voted ({'abstained' if ballot is None else ballot}); a ballot is not changed")
    chosen = None if option is None else next((o for o in v.options if o.lower() == option.strip().lower()), None)
    if chosen is None and option is not None:
        raise Rejection(f"'{option}' is not an option: vote {' or '.join(v.options)}")
    v.ballots[seat] = chosen
    top, n = (Counter(b for b in v.ballots.values() if b is not None).most_common(1) or [(v.default, 0)])[0]
    if n and 2 * n > len(v.voters):
        v.result, v.how = top, f"{n} of {len(v.voters)} seats"
    elif len(v.ballots) == len(v.voters):
        v.result, v.how = v.default, "no majority: the default"
    return v.result


def close(v: Vote) -> str:
    """The deadline: the seats that did not vote count for nobody; no majority gives the default."""
    if v.result is None:
        v.result, v.how = v.default, "the deadline passed without a majority: the default"
    return v.result
