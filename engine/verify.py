"""Re-checking a campaign from its exported log and the public random values, by anyone, for any game.

The checks, all through the ruleset boundary (``ledger``, ``needs``, ``public_view``), never a game's keys:

* the log's hash chain is whole, and (``expect_head``) it holds the event a public anchor ``SEQ:HASH`` named,
  unchanged: a log cut short or rewritten after the anchor was posted is caught;
* every lottery draw the log recorded equals the public draw of that day, number by number (a difference is
  reported with the turn and purpose that number served, from the ledger's slots);
* a commit-reveal campaign whose log holds the revealed seed: every recorded number is recomputed from the
  seed and its label (the range comes from what the game asked for); before the reveal they are counted as
  ``awaiting_reveal``, and the campaign is not ``verified``: any of them could be forged until the reveal. A
  campaign under rule 2 (engine/commit_reveal.py) has no such wait: the fold itself refuses a number that is not
  its drand round's, so each is checked as the log is replayed, seed or no seed;
* the campaign replayed on the public values alone gives every roll the same values and outcome, and the same
  public state;
* sealed contents: once revealed (``secret.revealed``), each is given back to the event that sealed it and the
  campaign is replayed as the bot's own fold ran it, with its private knowledge: the game's own checks run again
  (a stratagem marker the bot sealed must be the one its revealed pick key and the public value derive), and the
  public state must be the same;
* the source: a campaign drawing from a source whose values nobody can check (``verifiable``, engine/chance/
  registry.py: the fixed values of scenario tests) is a finding, whatever else passes;
* drand: every recorded beacon is checked against quicknet's public key, pinned in the code, whatever chain the
  log names; a campaign marked as drawn from a test chain, or a log naming another chain, is a finding
  (engine/chance/pinned_chain.py);
* time: in a live campaign every roll was bound at least ``margin`` before its draw or round (the event that
  bound it carries the shell's timestamp); a historical campaign is reported as not bound in advance; no draw was
  recorded before it was held;
* witnesses (``engine/witness.py``): heads seen outside the bot at a time the operator does not choose (the bot's
  Discord messages, anchors with a time): each must match the log, and each binding's first witness must come
  before its value was public; without any, the output says what is left unchecked;
* the record: every GM void (with its reason and the outcomes it discarded), every draw typed by a GM or taken
  from a single source, is listed;
* take-backs: every undo and void with the bindings it removed, and an undo made once one of them was public by the
  clock is a finding (engine/verify_takebacks.py).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import canonical, commit_reveal
from engine import witness as witnesses_of
from engine.chance import registry
from engine.chance.pinned_chain import campaign_chain
from engine.chance.sources import drand as drand_source
from engine.chance.sources import lottery as lottery_source
from engine.events import Event, Rejection
from engine.ledger import chain_problems
from engine.log import PLAYER_UNDO, UNDO, VOID, replay, start, step
from engine.ruleset import MarksLedger, Ruleset
from engine.verify_takebacks import TakeBack, check as check_takebacks, taken

# A roll must be bound this long before its lottery draw (20:00 in Rome) or drand round: the draw must not
# be under way, and the binding message must be out before anyone could know the numbers. Each source says its own
# (engine/chance/sources/); these two are named for the tests that check the shell's margins agree.
LOTTERY_MARGIN = lottery_source.SOURCE.margin
DRAND_MARGIN = drand_source.SOURCE.margin
DRAND_GENESIS, DRAND_PERIOD = 1692803367, 3  # quicknet


@dataclass(frozen=True)
class Finding:
    seq: int | None
    turn: int | None
    purpose: str
    detail: str
    unchecked: bool = False  # no public value was given to check it against: not a mismatch, not a pass either

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
    head_seq: int = 0
    clock: str = ""  # "live" or "historical" (from campaign.created)
    notes: tuple[str, ...] = ()  # what the record says that is no mismatch: voids, GM-typed draws, historical
    beacons_checked: int = 0
    awaiting_turns: tuple[int, ...] = ()  # the turns of the numbers that wait for the seed
    commit_reveal_rule: int = commit_reveal.RULE_SEED

    @property
    def ok(self) -> bool:
        """No mismatch found. Not the verdict: see ``verified``."""
        return not self.findings

    @property
    def verified(self) -> bool:
        """No mismatch, and nothing left unchecked: a number still waiting for its seed could be forged."""
        return self.ok and not self.awaiting_reveal

    def awaiting_words(self) -> str:
        """The numbers that wait for the seed, said plainly ("" when none)."""
        n = self.awaiting_reveal
        if not n:
            return ""
        turns = self.awaiting_turns
        where = (f" of turn{'s' if len(turns) > 1 else ''} {', '.join(str(t) for t in turns)}" if turns else "")
        return (f"{n} number{'s' if n > 1 else ''}{where} wait{'' if n > 1 else 's'} for {'their' if n > 1 else 'its'} "
                "seed: not verified")

    @property
    def anchor(self) -> str:
        return f"{self.head_seq}:{self.head}"


PublicDraws = dict[str, dict[str, list[int]]]  # "YYYY-MM-DD" -> wheel -> 5 numbers


@dataclass
class _Trace:
    """What a step-by-step fold learns: when each roll was bound, what each slot served, what each label asked."""

    bound_at: dict[str, tuple[int, str, dict[str, Any]]] = field(default_factory=dict)  # roll id -> (seq, at, entry)
    slots: dict[tuple[str, str, int], tuple[int | None, str]] = field(default_factory=dict)
    ranges: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # commit-reveal label -> (lo, hi, count)
    mixes: dict[str, str] = field(default_factory=dict)  # mixed commit-reveal label -> its round's randomness
    voids: list[str] = field(default_factory=list)
    takebacks: list[TakeBack] = field(default_factory=list)
    # Bindings an undo or void removed: still checked for time, while ``bound_at`` keeps the one in effect per id.
    removed_bound: list[tuple[str, tuple[int, str, dict[str, Any]]]] = field(default_factory=list)
    state: Any = None  # the state the whole log folds to: the trace is the replay, done once


def _trace(ruleset: Ruleset, events: list[Event]) -> _Trace:
    trace = _Trace()
    if not events:
        raise Rejection("the log is empty")
    folded, _ = start(ruleset, replace(events[0], hash=""))
    # The ledger is read again only when the game says it may have changed (``ledger_mark``; after an undo or a void
    # always): reading it after every event made a verify quadratic in the campaign's length.
    mark = ruleset.ledger_mark if isinstance(ruleset, MarksLedger) else None
    seen: object = None
    for event in events[1:]:
        if event.kind == "random.recorded":
            for need in ruleset.needs(folded.state):
                if _seeded(need.source):
                    trace.ranges[need.key] = (need.lo, need.hi, need.count)
                    if need.mix:
                        trace.mixes[need.key] = need.mix
        before = ruleset.ledger(folded.state) if event.kind in (UNDO, VOID, PLAYER_UNDO) else None
        effective = folded.effective
        # The trace owns its fold, and a refused event ends it (``verify`` reports it): no copy needed.
        folded, messages = step(ruleset, folded, replace(event, hash=""), in_place=True)
        if before is not None:
            taken_back = taken(event, before, ruleset.ledger(folded.state), effective, folded.effective)
            trace.takebacks.append(taken_back)
            for entry in taken_back.removed:
                if str(entry["id"]) in trace.bound_at:
                    trace.removed_bound.append((str(entry["id"]), trace.bound_at.pop(str(entry["id"]))))
        if event.kind == VOID:
            trace.voids.append(f"event #{event.seq}: " + " ".join(messages))
        if mark is not None and event.kind not in (UNDO, VOID, PLAYER_UNDO):
            now = mark(folded.state)
            if now == seen:
                continue
            seen = now
        else:
            seen = None
        for entry in ruleset.ledger(folded.state):
            key = str(entry["id"])
            if key not in trace.bound_at:
                trace.bound_at[key] = (event.seq, event.at, entry)
            for slot in entry.get("slots") or ():
                day, wheel, position, purpose = slot[0], slot[1], int(slot[2]), str(slot[3])
                trace.slots[(day, wheel, position)] = (entry.get("turn"), purpose)
    trace.state = folded.state
    return trace


def binding_events(ruleset: Ruleset, events: list[Event]) -> dict[str, int]:
    """The event that bound each roll still in effect: roll id -> seq (the campaign site shows it, and the reader's
    browser checks that event's time and offered draws against the roll's draw or round)."""
    return {roll: seq for roll, (seq, _, _) in _trace(ruleset, events).bound_at.items()}


def slot_uses(ruleset: Ruleset, events: list[Event], view: dict[str, Any] | None = None) -> dict[tuple[str, str, int], tuple[int | None, str]]:
    """What each lottery number served: (date, wheel, position) -> (turn, purpose)."""
    return _trace(ruleset, events).slots


def _parse_anchor(anchor: str) -> tuple[int, str] | None:
    seq, sep, digest = anchor.strip().partition(":")
    if not sep or not seq.isdigit() or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest.lower()):
        return None
    return int(seq), digest.lower()


def verify(
    ruleset: Ruleset, events: list[Event], public: PublicDraws, *, expect_head: str | tuple[str, ...] | list[str] | None = None,
    beacon_check: Any = None, witnesses: Sequence[witnesses_of.Witness] = (),
) -> Verification:
    """``beacon_check(data) -> str | None``: a problem with a recorded drand beacon (its signature), or None; by
    default ``beacon_checker(events)``: offline, against the chain the log names."""
    if beacon_check is None:
        beacon_check = beacon_checker(events)
    findings: list[Finding] = [Finding(seq, None, "hash chain", problem) for seq, problem in chain_problems(events)]
    pinned = campaign_chain(events[0].data if events else {})
    if pinned.warning:
        findings.append(Finding(events[0].seq, None, "drand chain", pinned.warning))
    drawing = registry.get(str(events[0].data.get("randomness"))) if events else None
    if drawing is not None and not drawing.verifiable:
        findings.append(Finding(events[0].seq, None, "randomness", f"the campaign draws from '{drawing.name}', values "
                                "known before they were bound (a source for scenario tests): not verifiable"))
    head = events[-1].hash if events else ""
    head_seq = events[-1].seq if events else 0
    anchors = [expect_head] if isinstance(expect_head, str) else list(expect_head or ())
    seen = list(witnesses)
    for anchor in anchors:
        findings.extend(_check_anchor(events, witnesses_of.split_anchor(anchor)[0]))
        seen.extend(_timed_anchor(anchor, findings))
    clock = str(events[0].data.get("clock", "")) if events else ""
    try:
        trace = _trace(ruleset, events)
    except Rejection as exc:
        findings.append(Finding(None, None, "replay", f"the log itself does not replay: {exc.reason}"))
        return Verification(len(events), 0, 0, head, tuple(findings), head_seq=head_seq, clock=clock)
    ledger = ruleset.ledger(trace.state)
    notes = [f"GM void, {v}" for v in trace.voids]
    checked = recomputed = beacons = 0
    seed = next((str(e.data.get("seed", "")) for e in events if e.kind == "seed.revealed"), None)
    labels = {str(e["key"]): e for e in ledger if _seeded(e.get("source"))}
    unmixed = sorted(k for k in labels if commit_reveal.mixing_round(k) is None)
    if unmixed:
        notes.append(f"{len(unmixed)} commit-reveal roll(s) drawn from the seed alone, not mixed with a drand round "
                     f"(e.g. '{unmixed[0]}'): whoever held the seed could foresee them")
    rule = commit_reveal.rule_of(events[0].data)
    if rule == commit_reveal.RULE_SEED and _seeded(events[0].data.get("randomness")):
        # Said even when all is revealed: a first event rewritten to drop the rule (or an old bot) shows here.
        notes.append("campaign.created names no commit_reveal_rule: its numbers are the seed's (the rule of campaigns "
                     "created before rule 2), checkable only once the seed is revealed")
    recorded = [e for e in labels.values() if e.get("values") is not None]
    awaiting = 0 if seed is not None or rule != commit_reveal.RULE_SEED else len(recorded)
    awaiting_turns = tuple(sorted({int(e["turn"]) for e in recorded if isinstance(e.get("turn"), int)})) if awaiting else ()
    if rule != commit_reveal.RULE_SEED:  # the trace's fold refused any number that is not its round's
        recomputed = sum(len(e.data.get("numbers") or {}) for e in events if e.kind == "random.recorded")
    substituted: list[Event] = []
    for event in events:
        if event.kind == "random.recorded" and seed is not None and rule == commit_reveal.RULE_SEED:
            fresh, found, count = _recompute(event, seed, trace, labels)
            findings.extend(found)
            recomputed += count
            substituted.append(replace(event, data={**event.data, "numbers": fresh}, hash=""))
            continue
        if event.kind == "beacon.recorded":
            beacons += 1
            problem = beacon_check(event.data) if beacon_check is not None else None
            if problem:
                findings.append(Finding(event.seq, None, f"drand round {event.data.get('round')}", problem))
        if event.kind == "draw.cancelled":
            _check_cancelled(event, public, findings, notes)
        if event.kind != "draw.recorded":
            substituted.append(replace(event, hash=""))
            continue
        day = str(event.data["date"])
        findings.extend(_recorded_too_soon(event, day))
        source = str(event.data.get("source") or "")
        how = _draw_provenance(source)
        if how:
            notes.append(f"the draw of {day} (event #{event.seq}) was {how}: {source}")
        logged: dict[str, list[int]] = event.data["numbers"]
        official = public.get(day)
        if official is None:
            findings.append(Finding(event.seq, None, f"draw of {day}", "not in the public draws given: cannot be checked",
                                    unchecked=True))
            substituted.append(replace(event, hash=""))
            continue
        checked += 1
        for wheel, numbers in sorted(logged.items()):
            if wheel not in official:
                findings.append(Finding(event.seq, None, f"draw of {day}", f"wheel {wheel} is not in the public draws"))
                continue
            for position, (mine, theirs) in enumerate(zip(numbers, official[wheel]), 1):
                if mine != theirs:
                    turn, purpose = trace.slots.get((day, wheel, position), (None, "a number the campaign did not use"))
                    findings.append(Finding(
                        event.seq, turn, purpose,
                        f"draw of {day}, wheel {wheel}, position {position}: the log has {mine}, the public draw has {theirs}",
                    ))
        public_numbers = {w: list(official[w]) for w in logged if w in official}
        substituted.append(replace(event, data={**event.data, "numbers": public_numbers}, hash=""))
    findings.extend(_rederive(ruleset, substituted, trace.state))
    sealed_findings, sealed_notes = _refold_with_secrets(ruleset, events, trace.state)
    findings.extend(sealed_findings)
    notes.extend(sealed_notes)
    timing, more_notes = _check_times(trace, clock, (pinned.chain.genesis, pinned.chain.period))
    findings.extend(timing)
    notes.extend(more_notes)
    rounds = (pinned.chain.genesis, pinned.chain.period)
    findings.extend(_before_known_rounds(events, rounds))
    found, witness_notes = _check_witnesses(events, trace, clock, rounds, seen, bool(anchors))
    findings.extend(found)
    notes.extend(witness_notes)
    late, listed = check_takebacks(trace.takebacks, events[0].data if events else {})
    findings.extend(Finding(seq, None, purpose, detail) for seq, purpose, detail in late)
    notes.extend(listed)
    rolls = sum(1 for e in ledger if not str(e["id"]).startswith("turn-"))
    return Verification(
        len(events), checked, rolls, head, tuple(findings), awaiting_reveal=awaiting, numbers_checked=recomputed,
        head_seq=head_seq, clock=clock, notes=tuple(notes), beacons_checked=beacons, awaiting_turns=awaiting_turns,
        commit_reveal_rule=rule,
    )


def beacon_checker(events: list[Event]) -> Any:
    """Check a ``beacon.recorded`` event's data offline: its BLS signature is quicknet's signature of that round,
    against the key pinned in the code whatever the log names (engine/chance/pinned_chain.py), and its randomness
    is SHA-256 of that signature. A campaign marked as on a test chain is checked against its own chain, for
    consistency only: ``verify`` never passes it. Nothing is fetched."""
    from engine.chance import drand

    chain = campaign_chain(events[0].data if events else {}).chain

    def check(data: dict[str, Any]) -> str | None:
        round_no, signature = data.get("round"), data.get("signature")
        if not isinstance(signature, str) or not signature:
            return f"no signature recorded: the beacon cannot be checked against the {chain.name} chain"
        try:
            drand.check_beacon(int(str(round_no)), signature, chain)
        except (drand.BadBeacon, ValueError) as exc:
            return f"the signature is not the {chain.name} chain's signature of round {round_no}: {exc}"
        if drand.randomness(signature) != str(data.get("randomness", "")).lower():
            return (f"the randomness {str(data.get('randomness'))[:16]}… is not SHA-256 of the signature "
                    f"({drand.randomness(signature)[:16]}…)")
        return None

    return check


def _draw_provenance(source: str) -> str:
    """What a draw's source says about how far to trust it, when it is not two agreeing fetched sources. The shell
    joins the sources of a draw's wheels with "; ": each part is weighed."""
    kinds = {"gm": "typed by a GM", "single": "taken from one source", "import": "imported, not fetched from two sources"}
    found = [how for prefix, how in kinds.items() if any(part.strip().startswith(prefix) for part in source.split(";"))]
    return " and ".join(found)


def _check_anchor(events: list[Event], anchor: str) -> list[Finding]:
    parsed = _parse_anchor(anchor)
    if parsed is None:
        return [Finding(None, None, "anchor", f"'{anchor[:80]}' is not SEQ:HASH (a number, a colon, 64 hex digits)")]
    seq, digest = parsed
    event = next((e for e in events if e.seq == seq), None)
    if event is None:
        last = events[-1].seq if events else 0
        return [Finding(seq, None, "anchor", f"the log ends at #{last} but event #{seq} was published: the log was cut")]
    if event.hash != digest:
        return [Finding(seq, None, "anchor", f"event #{seq} has hash {event.hash[:16]}…, but {digest[:16]}… was published: "
                                               "the log was rewritten")]
    return []


def _check_cancelled(event: Event, public: PublicDraws, findings: list[Finding], notes: list[str]) -> None:
    """A draw ruled not held must be missing from the public draws: held, its numbers were owed to the rolls bound
    to it, and binding them again was a second chance."""
    day = str(event.data.get("date", ""))
    by = str(event.data.get("by") or event.actor)
    if public.get(day) is not None:
        findings.append(Finding(event.seq, None, f"draw of {day}",
                                f"ruled not held by {by}, but the public draws hold it: its rolls should have taken "
                                "its numbers, not later draws"))
        return
    notes.append(f"the draw of {day} (event #{event.seq}) was ruled not held by {by} "
                 f"({event.data.get('reason') or 'no reason given'}); its rolls were bound again to later draws")


def _recompute(event: Event, seed: str, trace: _Trace, labels: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], list[Finding], int]:
    key = commit_reveal.key(seed)
    fresh: dict[str, Any] = {}
    findings = []
    for label, mine in event.data.get("numbers", {}).items():
        lo, hi, count = trace.ranges.get(label, (1, 90, 1))
        mixing = commit_reveal.mixing_round(label)
        if mixing is not None and label not in trace.mixes:
            findings.append(Finding(event.seq, None, f"commit-reveal label {label}",
                                    f"recorded before drand round {mixing}, which it is mixed with, was recorded"))
            fresh[label] = mine
            continue
        values = commit_reveal.uniform(commit_reveal.mixed_key(key, trace.mixes[label]) if mixing else key, label,
                                       count, lo, hi)
        theirs: Any = values[0] if isinstance(mine, int) and count == 1 else values
        fresh[label] = theirs
        if mine != theirs:
            entry = labels.get(label)
            purpose = (f"{entry['purpose']}{' of the ' + str(entry['seat']) if entry.get('seat') else ''} (roll #{entry['id']})"
                       if entry else "a number no roll of the campaign uses")
            findings.append(Finding(event.seq, entry.get("turn") if entry else None, purpose,
                                    f"commit-reveal label {label}: the log has {mine}, the revealed seed gives {theirs}"))
    return fresh, findings, len(fresh)


def _rederive(ruleset: Ruleset, events: list[Event], original: Any) -> list[Finding]:
    """Replay on the public values and compare every random outcome, then the whole public state."""
    try:
        folded = replay(ruleset, events)
    except Rejection as exc:
        return [Finding(None, None, "replay on the public values", f"the campaign diverges: {exc.reason}")]
    findings = []
    theirs = {str(e["id"]): e for e in ruleset.ledger(folded.state)}
    for entry in ruleset.ledger(original):
        other = theirs.get(str(entry["id"]))
        if other is None or (other.get("values"), other.get("outcome")) != (entry.get("values"), entry.get("outcome")):
            found = f"{_shown(other.get('values'))} ({other.get('outcome')})" if other else "no such roll"
            findings.append(Finding(
                None, entry.get("turn"), f"{entry['purpose']} (roll #{entry['id']})",
                f"the log's outcome is {_shown(entry.get('values'))} ({entry.get('outcome')}); on the public values it is {found}",
            ))
    if not findings and canonical.dumps(ruleset.public_view(folded.state)) != canonical.dumps(ruleset.public_view(original)):
        findings.append(Finding(None, None, "state", "the campaign rebuilt on the public values differs from the log's"))
    return findings


def _refold_with_secrets(ruleset: Ruleset, events: list[Event], original: Any) -> tuple[list[Finding], list[str]]:
    """Replay with every revealed sealed content put back on the event that sealed it (what the bot's fold had)."""
    from engine.secrets import REVEALED, SEALED

    revealed: dict[int, dict[str, Any]] = {}
    for event in events:
        if event.kind == REVEALED and isinstance(event.data.get("seq"), int):
            revealed[int(event.data["seq"])] = {"content": event.data.get("content"), "salt": event.data.get("salt")}
    if not revealed:
        return [], []
    own = [e.seq for e in events if e.kind == SEALED]
    notes = [f"{len(revealed)} sealed content(s) revealed and replayed as the bot's fold ran them"
             + (f"; {sum(1 for s in own if s in revealed)} of the {len(own)} the bot sealed itself (stratagem markers "
                "drawn) are among them" if own else "")]
    with_secrets = [replace(e, hash="", secret=revealed.get(e.seq)) for e in events]
    try:
        folded = replay(ruleset, with_secrets)
    except Rejection as exc:
        return [Finding(None, None, "sealed contents", f"the log with its revealed sealed contents does not replay: "
                                                       f"{exc.reason}")], notes
    if canonical.dumps(ruleset.public_view(folded.state)) != canonical.dumps(ruleset.public_view(original)):
        return [Finding(None, None, "sealed contents", "the campaign replayed with its revealed sealed contents ends "
                                                       "in another public state than the log's")], notes
    return [], notes


def _shown(values: Any) -> str:
    if not values:
        return "none"
    return ", ".join(str(v) for v in values)


def _seeded(source: object) -> bool:
    """Whether a source's values come from the campaign's committed seed (rechecked once it is revealed)."""
    found = registry.get(str(source))
    return found is not None and found.seed


def _check_times(trace: _Trace, clock: str, rounds: tuple[int, int] = (DRAND_GENESIS, DRAND_PERIOD)) -> tuple[list[Finding], list[str]]:
    if clock != "live":
        bound = sum(1 for _, _, e in trace.bound_at.values() if (s := registry.get(str(e.get("source")))) and s.clocked)
        return [], ([f"historical: not bound in advance ({bound} bindings on draws that had already been held)"]
                    if bound else [])
    findings = []
    bindings = [*trace.bound_at.items(), *trace.removed_bound]
    for roll_id, (seq, at, entry) in sorted(bindings, key=lambda item: item[1][0]):
        value = registry.behind(str(entry.get("source")), str(entry.get("key")))  # a mixed label: its round
        if value is None:
            continue
        source, key = value
        moment = source.moment(key, rounds)
        try:
            when = dt.datetime.fromisoformat(at) if at else None
        except ValueError:
            when = None
        if moment is None or when is None or when.tzinfo is None:
            findings.append(Finding(seq, entry.get("turn"), f"{entry['purpose']} (roll #{roll_id})",
                                    f"the time of its binding ({at or 'none'}) or of its draw ({entry.get('key')}) cannot be read"))
            continue
        if when + source.margin > moment:
            findings.append(Finding(
                seq, entry.get("turn"), f"{entry['purpose']} (roll #{roll_id})",
                f"bound at {when.isoformat()}, less than {int(source.margin.total_seconds())} s before its {source.name} value "
                f"({key}, public at {moment.isoformat()}): not bound in advance",
            ))
    return findings, []


def _timed_anchor(anchor: str, findings: list[Finding]) -> list[witnesses_of.Witness]:
    """An anchor given with the time it was seen (``SEQ:HASH@TIME``) is a witness too."""
    parsed = _parse_anchor(witnesses_of.split_anchor(anchor)[0])
    if parsed is None:
        return []  # _check_anchor said what is wrong with it
    made = witnesses_of.anchor_witness(anchor, *parsed)
    if isinstance(made, str):
        findings.append(Finding(None, None, "anchor", made))
        return []
    return [made] if made is not None else []


def _recorded_too_soon(event: Event, day: str) -> list[Finding]:
    """A draw in the log before 20:00 in Rome of its day, by the event's own stamp: its numbers did not exist yet,
    so either the clock was wrong or set back (and a roll "bound in advance" may have been bound to known numbers)."""
    when = witnesses_of.parse_time(event.at) if event.at else None
    moment = lottery_source.SOURCE.moment(day, (DRAND_GENESIS, DRAND_PERIOD))
    if when is None or moment is None or when >= moment:
        return []
    return [Finding(event.seq, None, f"draw of {day}",
                    f"recorded at {witnesses_of.stamp(when)}, before it was held ({witnesses_of.stamp(moment)}, 20:00 "
                    "in Rome): the log's clock was wrong or set back")]


def _bindings(trace: _Trace, rounds: tuple[int, int]) -> list[witnesses_of.Binding]:
    """The live bindings a witness should show in advance, each with its value's time less the margin."""
    out = []
    for _, (seq, _, entry) in sorted(trace.bound_at.items(), key=lambda item: item[1][0]):
        found = registry.public_moment(str(entry.get("source")), str(entry.get("key")), rounds)
        if found is None:
            continue
        source, key, moment = found
        out.append(witnesses_of.Binding(seq, entry.get("turn"), f"{entry['purpose']} (roll #{entry['id']})",
                                        source.name, key, moment, moment - source.margin))
    return out


def _check_witnesses(events: list[Event], trace: _Trace, clock: str, rounds: tuple[int, int],
                     seen: list[witnesses_of.Witness], anchored: bool) -> tuple[list[Finding], list[str]]:
    """Hold the log to its witnesses, and say plainly what is left unchecked without them."""
    bindings = _bindings(trace, rounds) if clock == "live" else []
    problems, unwitnessed, notes = witnesses_of.check(
        {e.seq: e.hash for e in events}, events[-1].seq if events else 0, seen, bindings)
    findings = [Finding(p.seq, p.turn, p.purpose, p.detail) for p in problems]
    if not seen and not anchored:
        notes.append("no anchor given: a log rewritten and re-hashed whole would pass these checks; give "
                     "--expect-head or --witnesses")
    if unwitnessed:
        notes.append(f"{len(unwitnessed)} of {len(bindings)} binding(s) have no witness (a head seen outside the bot "
                     f"at or after them, e.g. from event #{unwitnessed[0].seq}): that they came before their values "
                     "rests on the log's own clock, the operator's; give --witnesses (an export of the campaign's "
                     "channel) or --expect-head SEQ:HASH@TIME")
    return findings, notes


def _before_known_rounds(events: list[Event], rounds: tuple[int, int]) -> list[Finding]:
    """An event stamped before the drand round it says the bot already held: the clock was set back."""
    findings = []
    for event in events:
        when = witnesses_of.parse_time(event.at) if event.known_round is not None and event.at else None
        produced = drand_source.SOURCE.moment(str(event.known_round), rounds) if when is not None else None
        if when is not None and produced is not None and when < produced:
            findings.append(Finding(event.seq, None, "time",
                                    f"stamped {witnesses_of.stamp(when)}, but the bot already held drand round "
                                    f"{event.known_round}, produced at {witnesses_of.stamp(produced)}: the log's clock "
                                    "was set back"))
    return findings
