"""The event envelope: one entry of a campaign's append-only log.

Every order, draw, battle report and GM ruling is an Event. The rules never read ``at`` (the shell's
clock); they read ``draws``, the future draw dates the shell offers for binding rolls, so that a replay
binds every roll to the very same slot. Within the fold, the one reader of ``at`` is the check of an undo against the
moments its rolls' values became public (engine/takeback.py): the undo's own stamp, so a replay agrees.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import canonical


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    actor: str
    data: dict[str, Any] = field(default_factory=dict)
    at: str = ""
    draws: tuple[str, ...] = ()
    # The link in the log's hash chain (engine/ledger.py): set when the event is appended.
    hash: str = ""
    # Sealed content (engine/secrets.py): known to the shell's private store and to one seat, never part of the
    # public log, its export or the hash chain; ``data["sealed"]`` carries its digest. None in an export's replay.
    secret: dict[str, Any] | None = field(default=None, compare=False)
    # The newest drand round whose verified beacon the shell held when it made the event: the event cannot be older
    # than that round (a lower bound on its time that the shell's clock does not give). Absent in older logs.
    known_round: int | None = None

    def to_dict(self, *, with_hash: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "kind": self.kind, "actor": self.actor, "data": self.data}
        if self.at:
            out["at"] = self.at
        if self.draws:
            out["draws"] = list(self.draws)
        if self.known_round is not None:
            out["known_round"] = self.known_round
        if self.hash and with_hash:
            out["hash"] = self.hash
        return out

    def to_line(self) -> str:
        return canonical.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "Event":
        return cls(
            seq=int(raw["seq"]),
            kind=str(raw["kind"]),
            actor=str(raw.get("actor", "")),
            data=dict(raw.get("data") or {}),
            at=str(raw.get("at", "")),
            draws=tuple(raw.get("draws") or ()),
            hash=str(raw.get("hash", "")),
            known_round=int(raw["known_round"]) if raw.get("known_round") is not None else None,
        )


class Rejection(Exception):
    """An event the rules refuse. The message is shown to the user as it is: it names the reason.

    ``hidden_of``: the seat whose hidden holding (a sealed hand, a count of markers) the reason reads, where the
    bot's own fold refused from what only that seat may know. The shell then tells the reason to that seat's player
    alone; anyone else who made the order for it learns only that it cannot be carried out."""

    def __init__(self, reason: str, *, hidden_of: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.hidden_of = hidden_of
