"""When a known outcome makes an undo a second chance: the bindings an undo takes back, and whether any of them was
already public by the clock when the undo was made.

A value is public at its moment, not when the bot records it: a Lotto draw at 20:00 in Rome (it reaches the store
minutes later), a drand round at its time on its chain (its beacon is recorded when a relay answers). An undo in
between would let whoever saw the value bind the roll again to a later one. The engine reads no clock: the undo
event's own ``at`` (stamped by the shell) is its "now", so a replay gives the same verdict as the shell did.

A lottery draw counts only in a live campaign: a historical one binds to draws held long ago, which anyone could
read before the binding (``verify`` says so), so the clock adds nothing there. drand rounds are real time whatever
the campaign's clock.

The rule is versioned in ``campaign.created`` (``undo_rules``): campaigns created before it keep folding as they
did; ``legatus verify`` flags a late undo in any campaign (engine/verify_takebacks.py).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.chance import registry

# campaign.created's field for the undo rules a campaign follows: 2 = an undo is refused once a bound value is
# public by the clock, and a roll bound after an undo takes a fresh id. Absent (older campaigns): 1.
UNDO_RULES = "undo_rules"
CLOCK_RULES = 2
QUICKNET = ("quicknet", 1692803367, 3)  # name, genesis, period: the chain a log naming none uses


@dataclass(frozen=True)
class Public:
    """A binding whose value was public by a given time: which roll, where its value comes from, since when."""

    roll: str  # "roll #7 (siege)" or "order of play and events (turn-3)"
    where: str  # "the lottery draw of 2023-01-05 (wheel BA, 1st number)", "drand quicknet round 123"
    since: dt.datetime
    since_words: str  # "2023-01-05 20:00 Rome (2023-01-05T19:00:00+00:00)"


def follows_clock_rules(created: Mapping[str, Any]) -> bool:
    value = created.get(UNDO_RULES)
    return isinstance(value, int) and not isinstance(value, bool) and value >= CLOCK_RULES


def removed(before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ledger entries of ``before`` that ``after`` no longer holds: the bindings a take-back removed. An entry
    is one binding: its id and where its values come from (an old campaign's reused id is another binding)."""
    kept = {_identity(e) for e in after}
    return [dict(e) for e in before if _identity(e) not in kept]


def _identity(entry: Mapping[str, Any]) -> tuple[str, str, str, str]:
    return str(entry.get("id")), str(entry.get("source")), str(entry.get("key")), str(entry.get("where"))


def roll_words(entry: Mapping[str, Any]) -> str:
    roll_id = str(entry.get("id"))
    purpose = str(entry.get("purpose") or "")
    return f"roll #{roll_id} ({purpose})" if roll_id.isdigit() else f"{purpose} ({roll_id})"


def chain_of(created: Mapping[str, Any]) -> tuple[str, int, int]:
    """(name, genesis, period) of the drand chain ``campaign.created`` names; quicknet when none or unreadable."""
    named = created.get("drand_chain")
    try:
        return str(named["name"]), int(named["genesis"]), int(named["period"])  # type: ignore[index]  # any shape: a wrong one is answered below
    except (KeyError, TypeError, ValueError):
        return QUICKNET


def public_moment(entry: Mapping[str, Any], created: Mapping[str, Any]) -> Public | None:
    """When the entry's value became public, or None when no clock makes it so (a commit-reveal label drawn from
    the seed alone; a lottery draw of a historical campaign). The moment is the source's (engine/chance/registry.py)."""
    name, genesis, period = chain_of(created)
    value = registry.behind(str(entry.get("source")), str(entry.get("key")))
    if value is None:
        return None
    source, key = value
    if not source.lottery:  # a round is real time whatever the campaign's clock
        moment = source.moment(key, (genesis, period))
        if moment is None:
            return None
        return Public(roll_words(entry), f"{source.name} {name} round {key}", moment, moment.isoformat())
    if created.get("clock") != "live":
        return None
    slots = [s for s in entry.get("slots") or () if isinstance(s, (list, tuple)) and len(s) >= 3]
    dates = sorted({str(s[0]) for s in slots}) or [key]
    local = source.moment(dates[0], (genesis, period))
    if local is None:
        return None
    moment = local.astimezone(dt.timezone.utc)
    on_day = [s for s in slots if str(s[0]) == dates[0]]
    if 0 < len(on_day) <= 3:
        detail = " (" + "; ".join(f"wheel {s[1]}, {_ordinal(s[2])} number" for s in on_day) + ")"
    else:
        detail = f" ({len(on_day)} numbers)" if on_day else ""
    return Public(roll_words(entry), f"the lottery draw of {local.date().isoformat()}{detail}", moment,
                  f"{local.strftime('%Y-%m-%d %H:%M')} Rome ({moment.isoformat()})")


def _ordinal(position: Any) -> str:
    # A game's ledger names positions as numbers; anything else is shown as it is rather than refused.
    n = str(position)
    return {"1": "1st", "2": "2nd", "3": "3rd"}.get(n, f"{n}th" if n.isdigit() else n)


def when(at: str) -> dt.datetime | None:
    """The shell's timestamp of an event, or None when it cannot be read (no time zone is no time)."""
    try:
        moment = dt.datetime.fromisoformat(at) if at else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


def public_by(entries: Iterable[Mapping[str, Any]], created: Mapping[str, Any], at: str) -> tuple[list[Public], bool]:
    """The entries public by the time ``at`` (earliest first), and whether ``at`` could be read at all. An unreadable
    time with any entry that has a public moment counts as late: nothing proves the undo came before."""
    moments = sorted((p for p in (public_moment(e, created) for e in entries) if p is not None), key=lambda p: p.since)
    moment = when(at)
    if moment is None:
        return moments, False
    return [p for p in moments if p.since <= moment], True


def refusal(entries: list[dict[str, Any]], created: Mapping[str, Any], at: str, *, player: bool) -> str | None:
    """Why this undo must be refused (a removed binding's value was public by its time), or None."""
    late, readable = public_by(entries, created, at)
    if not late:
        return None
    first = late[0]
    more = f" (and {len(late) - 1} more)" if len(late) > 1 else ""
    if not readable:
        said = (f"this undo carries no readable time ({at or 'none'}), so nothing shows it came before "
                f"{first.roll}{more}, bound to {first.where}, was public (from {first.since_words})")
    else:
        said = (f"{first.roll} is bound to {first.where}, public since {first.since_words}, before this undo ({at})"
                f"{more}, so its outcome may be known")
    if player:
        return f"{said}; ask the GM to void it (/gm void <reason>): the void and the outcome it discards stay on record"
    return (f"{said}. To set it aside, void it with its reason (/gm void <reason>): the void and the outcome it "
            "discards stay on record")
