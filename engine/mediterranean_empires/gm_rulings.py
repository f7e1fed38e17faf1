"""GM corrections of a Mediterranean Empires game (issue 24): `/gm set treasury <seat> <TP> [reason]` and
`/gm set units <power>/<unit type>/<area> <count> [reason]` (place or remove units). Each is one ``gm.set`` event,
kept in the log with its reason, as Mare Nostrum's `/gm set` is.

A correction is made between actions only: while an action waits for a roll, an answer or a reveal, the numbers
already bound would be read against a board the roll was not bound for, so the GM settles (or voids) the action
first. The GM's word comes from the campaign's first event; the shell checks the GM role too.
"""
from __future__ import annotations

from collections.abc import Callable

from engine.events import Event, Rejection
from engine.names import Resolution
from engine.mediterranean_empires.parse import KIND_WORDS
from engine.mediterranean_empires.rules_data import UNIT_WORDS, RulesData
from engine.mediterranean_empires.state import State, Unit
from engine.ruleset import Argument, CommandSpec, Proposal

KIND = "gm.set"
SETTABLE = ("treasury", "units")
MAX_UNITS = 20  # of one type, one power, one area: above anything the counter mix allows
PLURALS = {"field_army": "field armies", "levy": "levies", "fleet": "fleets"}
SPEC = CommandSpec(
    "gm set", "correct one fact of the game, with the reason",
    (Argument("what", "choice", "treasury, or units (place or remove)", SETTABLE),
     Argument("target", help="a seat ('Player A') for treasury; power/unit type/area for units ('France/levy/Vienne')"),
     Argument("value", help="the treasury in TP, or how many such units the area holds"),
     Argument("reason", optional=True, rest=True)),
    gm_only=True, example='/gm set treasury "Player A" 5 a recruit was paid twice',
)

Resolve = Callable[[str, str], Resolution]


def read(rules: RulesData, resolve: Resolve, args: list[str], text: str) -> Proposal:
    """The typed `/gm set` as its event, or the error naming what was wrong and what would be right."""
    usage = f"usage: {SPEC.usage()}, e.g. {SPEC.example} or /gm set units France/levy/Vienne 2 a misplaced levy"
    if len(args) < 3 or args[0].lower() not in SETTABLE:
        return Proposal(0, text, error=usage)
    what, target_text, value_text, reason = args[0].lower(), args[1], args[2], " ".join(args[3:])
    if what == "treasury":
        found = resolve("seat", target_text)
        if found.name is None:
            return Proposal(0, text, error=found.error or f"unknown seat '{target_text[:40]}'")
        high = rules.max_treasury
        target: str = str(found.name)
    else:
        parts = target_text.split("/")
        if len(parts) != 3:
            return Proposal(0, text, error=f"'{target_text[:60]}': write power/unit type/area, e.g. France/levy/Vienne")
        power, area = resolve("power", parts[0]), resolve("area", parts[2])
        kind = KIND_WORDS.get(parts[1].strip().lower())
        for found, typed in ((power, parts[0]), (area, parts[2])):
            if found.name is None:
                return Proposal(0, text, error=found.error or f"unknown name '{typed[:40]}'")
        if kind is None:
            return Proposal(0, text, error=f"unknown unit type '{parts[1][:40]}': the types are "
                                           f"{', '.join(UNIT_WORDS.values())}")
        high = MAX_UNITS
        target = f"{power.name}/{kind}/{area.name}"
    if not value_text.isdigit() or len(value_text) > 4 or int(value_text) > high:
        return Proposal(0, text, error=f"'{value_text[:40]}' is not a whole number from 0 to {high}")
    data = {"what": what, "target": target, "value": int(value_text), "reason": reason}
    return Proposal(0, text, KIND, data, f"set {what} of {target} to {value_text}")


def apply(rules: RulesData, state: State, event: Event) -> tuple[str, ...]:
    if state.gm and event.actor != state.gm:
        raise Rejection(f"only the GM ({state.gm}) corrects the game")
    if state.action is not None:
        raise Rejection(f"the GM corrects the game between actions: one waits now ({state.action.pending.label}); "
                        "correct it once it is settled, or set it aside with /gm void <reason>")
    if state.force is not None:
        raise Rejection("a force is active: correct its units once its operations end")
    data = event.data
    what, target, value = str(data.get("what")), str(data.get("target")), data.get("value")
    reason = str(data.get("reason") or "") or "no reason given"
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise Rejection(f"'{value}' is not a count of 0 or more")
    if what == "treasury":
        side = rules.seats.get(target)
        if side is None or value > rules.max_treasury:
            raise Rejection(f"a treasury is set for 'Player A' or 'Player B', from 0 to {rules.max_treasury} TP")
        before = state.sides[side].treasury
        state.sides[side].treasury = value
        return (f"GM ruling: the treasury of {target} is set to {value} TP (it was {before}): {reason}.",)
    if what == "units":
        return (_set_units(rules, state, target, value, reason),)
    raise Rejection(f"the GM can set {' or '.join(SETTABLE)}, not '{what}'")


def _set_units(rules: RulesData, state: State, target: str, count: int, reason: str) -> str:
    power, kind, area = (target.split("/") + ["", "", ""])[:3]
    if power not in rules.powers or area not in rules.map.areas or kind not in UNIT_WORDS or count > MAX_UNITS:
        raise Rejection(f"'{target}' is not power/unit type/area of this game, or {count} is over {MAX_UNITS}")
    if (kind == "fleet") != (area in rules.map.seas):
        raise Rejection("fleets are set in a sea, land units in a land area")
    here = sorted(u.id for u in state.units.values() if u.power == power and u.kind == kind and u.area == area)
    before = len(here)
    for uid in here[count:]:  # the newest go first
        del state.units[uid]
    hidden = state.status.get(power) in ("neutral", "vassal")  # a neutral's units stand face down (3.3.1)
    for _ in range(count - before):
        state.units[state.next_unit] = Unit(state.next_unit, power, kind, area, face_down=hidden)
        state.next_unit += 1
    word = UNIT_WORDS[kind] if count == 1 else PLURALS.get(kind, UNIT_WORDS[kind])
    return f"GM ruling: {area} now holds {count} {word} of {power} (it held {before}): {reason}."
