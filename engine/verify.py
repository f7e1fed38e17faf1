"""Re-checking a campaign from its exported log and the public lottery results, by anyone.

Three checks: the log's hash chain is whole; every draw the log recorded equals the public draw of that day,
number by number (a difference is reported with the turn and purpose that number served); and the campaign
replayed on the public numbers alone comes out the same, roll by roll.

A commit-reveal campaign (``randomness`` in ``campaign.created``) draws its other rolls from a seed: once the
log holds the revealed seed (``seed.revealed``, which the replay itself checks against the commitment), every
number a ``random.recorded`` event holds is recomputed from the seed and its label, a difference is reported
with the turn and purpose of its roll, and the replay runs on the recomputed numbers. Before the reveal these
rolls cannot be checked: ``awaiting_reveal`` counts them. ``ok`` means that everything that *could* be
checked matches: it stays true while rolls await the reveal (a log can be checked mid-campaign), and the
command line says how many could not be checked yet.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine import commit_reveal
from engine.events import Event, Rejection
from engine.ledger import chain_problems
from engine.log import replay
from engine.ruleset import Ruleset


@dataclass(frozen=True)
class Finding:
    seq: int | None
    turn: int | None
    purpose: str
    detail: str

    def __str__(self) -> str:
        where = [f"event #{self.seq}" if self.seq is not None else "", f"turn {self.turn}" if self.turn else ""]
        head = ", ".join(w for w in where if w)
        return f"{head + ': ' if head else ''}{self.purpose}: {self.detail}"


@dataclass(frozen=True)
class Verification:
    events: int
    draws_checked: int
    rolls: int
    head: str
    findings: tuple[Finding, ...]
    awaiting_reveal: int = 0  # commit-reveal rolls not checkable yet: the seed is not in the log
    numbers_checked: int = 0  # commit-reveal numbers recomputed from the revealed seed

    @property
    def ok(self) -> bool:
        return not self.findings


PublicDraws = dict[str, dict[str, list[int]]]  # "YYYY-MM-DD" -> wheel -> 5 numbers


def slot_uses(ruleset: Ruleset, events: list[Event], view: dict[str, Any]) -> dict[tuple[str, str, int], tuple[int | None, str]]:
    """What each lottery number served: (date, wheel, position) -> (turn, purpose)."""
    uses: dict[tuple[str, str, int], tuple[int | None, str]] = {}
    turn = 0
    nations = getattr(getattr(ruleset, "rules", None), "nations", {})
    for event in events:
        if event.kind == "turn.opened":
            turn += 1
            day = str(event.data["draw"])
            for nation in nations.values():
                uses[(day, nation.wheel, 1)] = (turn, f"order of play of the {nation.name}")
                uses[(day, nation.wheel, 2)] = (turn, f"random event of the {nation.name}")
                uses[(day, nation.wheel, 3)] = (turn, f"third number (event detail) of the {nation.name}")
    for roll in view.get("rolls", []):
        who = f" of the {roll['nation']}" if roll.get("nation") else ""
        uses[(roll["draw"], roll["wheel"], roll["position"])] = (roll["turn"], f"{roll['purpose'].replace('_', ' ')}{who} (roll #{roll['id']})")
    return uses


def verify(ruleset: Ruleset, events: list[Event], public: PublicDraws) -> Verification:
    findings: list[Finding] = [Finding(seq, None, "hash chain", problem) for seq, problem in chain_problems(events)]
    try:
        original = replay(ruleset, [replace(e, hash="") for e in events])
    except Rejection as exc:
        findings.append(Finding(None, None, "replay", f"the log itself does not replay: {exc.reason}"))
        return Verification(len(events), 0, 0, events[-1].hash if events else "", tuple(findings))
    view = ruleset.public_view(original.state)
    uses = slot_uses(ruleset, events, view)
    checked = 0
    seed = next((str(e.data.get("seed", "")) for e in events if e.kind == "seed.revealed"), None)
    labels = {r["label"]: r for r in view.get("rolls", []) if r.get("label")}
    awaiting = 0 if seed is not None else len(labels)
    recomputed = 0
    substituted: list[Event] = []
    for event in events:
        if event.kind == "random.recorded" and seed is not None:
            key = commit_reveal.key(seed)
            fresh: dict[str, int] = {}
            for label, mine in event.data.get("numbers", {}).items():
                theirs = commit_reveal.roll(key, label, 1, 90)
                fresh[label] = theirs
                recomputed += 1
                if mine != theirs:
                    roll = labels.get(label)
                    turn = roll["turn"] if roll else None
                    purpose = (
                        f"{roll['purpose'].replace('_', ' ')}{' of the ' + roll['nation'] if roll.get('nation') else ''} (roll #{roll['id']})"
                        if roll else "a number no roll of the campaign uses"
                    )
                    findings.append(Finding(
                        event.seq, turn, purpose,
                        f"commit-reveal label {label}: the log has {mine}, the revealed seed gives {theirs}",
                    ))
            substituted.append(replace(event, data={**event.data, "numbers": fresh}, hash=""))
            continue
        if event.kind != "draw.recorded":
            substituted.append(replace(event, hash=""))
            continue
        day = str(event.data["date"])
        logged: dict[str, list[int]] = event.data["numbers"]
        official = public.get(day)
        if official is None:
            findings.append(Finding(event.seq, None, f"draw of {day}", "not in the public draws given: cannot be checked"))
            substituted.append(replace(event, hash=""))
            continue
        checked += 1
        for wheel, numbers in sorted(logged.items()):
            if wheel not in official:
                findings.append(Finding(event.seq, None, f"draw of {day}", f"wheel {wheel} is not in the public draws"))
                continue
            for position, (mine, theirs) in enumerate(zip(numbers, official[wheel]), 1):
                if mine != theirs:
                    turn, purpose = uses.get((day, wheel, position), (None, "a number the campaign did not use"))
                    findings.append(Finding(
                        event.seq, turn, purpose,
                        f"draw of {day}, wheel {wheel}, position {position}: the log has {mine}, the public draw has {theirs}",
                    ))
        public_numbers = {w: list(official[w]) for w in logged if w in official}
        substituted.append(replace(event, data={**event.data, "numbers": public_numbers}, hash=""))
    findings.extend(_rederive(ruleset, substituted, view))
    return Verification(
        len(events), checked, len(view.get("rolls", [])), events[-1].hash if events else "", tuple(findings),
        awaiting_reveal=awaiting, numbers_checked=recomputed,
    )


def _rederive(ruleset: Ruleset, events: list[Event], original: dict[str, Any]) -> list[Finding]:
    """Replay on the public numbers and compare every random outcome with the log's."""
    try:
        folded = replay(ruleset, events)
    except Rejection as exc:
        return [Finding(None, None, "replay on the public draws", f"the campaign diverges: {exc.reason}")]
    view = ruleset.public_view(folded.state)
    findings = []
    theirs = {r["id"]: r for r in view.get("rolls", [])}
    for roll in original.get("rolls", []):
        other = theirs.get(roll["id"])
        if other is None or (other["number"], other["outcome"]) != (roll["number"], roll["outcome"]):
            found = f"{other['number']} ({other['outcome']})" if other else "no such roll"
            findings.append(Finding(
                None, roll["turn"], f"{roll['purpose'].replace('_', ' ')} (roll #{roll['id']})",
                f"the log's outcome is {roll['number']} ({roll['outcome']}); on the public draws it is {found}",
            ))
    for key in ("order_of_play", "events", "winner", "provinces", "nations"):
        if view.get(key) != original.get(key) and not findings:
            findings.append(Finding(None, view.get("turn"), "state", f"'{key}' differs when rebuilt on the public draws"))
    return findings
