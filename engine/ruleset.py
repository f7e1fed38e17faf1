"""The boundary between the shell and a game: what every ruleset provides.

Legatus hosts several games (Mare Nostrum first; later dice-driven two-player wargames, simultaneous
sealed-order games, timed trading). The shell knows only this protocol:

* a game's state is an opaque value, rebuilt by folding ``apply`` over the event log;
* ``read_post`` turns a player's post into proposals, one per order line, each either an event to try
  or an error that names what was wrong; the shell applies proposals one by one and answers each line;
* ``to_act`` says whose move it is: one seat in ordered phases, several in simultaneous ones;
* ``wanted_draws`` lists the public draws the game waits for (lottery dates for now; other sources later).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.events import Event


@dataclass(frozen=True)
class Proposal:
    """One line of a post, as the ruleset read it."""

    line_no: int
    text: str
    kind: str | None = None  # the event kind to try, when the line was understood
    data: dict[str, Any] = field(default_factory=dict)
    understood: str = ""  # the order as understood, in words
    error: str | None = None


@dataclass(frozen=True)
class Transition:
    state: Any
    messages: tuple[str, ...] = ()  # public announcements caused by the event, in order


class Ruleset(Protocol):
    id: str
    title: str

    def initial_state(self, setup: dict[str, Any]) -> Any: ...

    def apply(self, state: Any, event: Event, *, in_place: bool = False) -> Transition:
        """Pure: returns a new state, never changes ``state``; raises Rejection with the reason.

        ``in_place`` lets a replay, which owns its state and drops it on any error, skip the copy.
        """
        ...

    def read_post(self, state: Any, actor: str, text: str, nation: str | None = None) -> list[Proposal]:
        """``nation`` gives the orders for that seat (the GM's /order); else the actor's own seat."""
        ...

    def resolve(self, kind: str, text: str) -> Any:
        """A name typed in a command ("province", "sea", "nation", "side"): has ``name`` or ``error``."""
        ...

    def player_of(self, state: Any, seat: str) -> str | None: ...

    def public_view(self, state: Any) -> dict[str, Any]: ...

    def wanted_draws(self, state: Any) -> list[str]: ...

    def to_act(self, state: Any) -> list[str]: ...

    def seat_of(self, state: Any, user: str) -> str | None: ...

    def carry_over(self, before: Any, after: Any) -> Any:
        """After a GM undo: keep what must survive it (slots of lottery numbers already seen)."""
        ...

    def status(self, state: Any) -> str: ...
