"""The slash commands Mare Nostrum adds to the shell's: battle reports, GM rulings, a GM's pass.

The shell builds the Discord commands, the help and the receipts from ``COMMANDS`` and hands each typed line
to ``read_command``, which returns the event to try or the error naming what was wrong.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.ruleset import Argument, CommandSpec, Proposal

SETTABLE = ("stability", "actions", "owner", "fortification", "suburbs", "temple", "fleets")

COMMANDS = (
    CommandSpec(
        "battle", "report who won a land battle fought in Field of Glory",
        (Argument("province", "province", "where the battle was fought", rest=True),
         Argument("winner", "side", "the nation or force that won"),
         # Shown with the report (the shell uploads it once the report is accepted); never read by the rules.
         Argument("screenshot", "attachment", "the end screen of the Field of Glory battle, if you like", optional=True)),
        example="/battle Baetica winner Gauls",
    ),
    CommandSpec(
        "gm pass", "end a nation's turn for it",
        (Argument("nation", "nation"), Argument("reason", optional=True, rest=True)),
        gm_only=True, example="/gm pass Romans away this week",
    ),
    CommandSpec(
        "gm set", "set one fact of the campaign, with the reason",
        (Argument("what", "choice", choices=SETTABLE), Argument("target"), Argument("value"),
         Argument("reason", optional=True, rest=True)),
        gm_only=True, example="/gm set stability Romans 3 plague",
    ),
)

Resolve = Callable[[str, str], Any]  # (kind, text) -> Resolution with name or error
FLAGS = {"yes": True, "on": True, "true": True, "1": True, "no": False, "off": False, "false": False, "0": False}
MAX_COUNT = 1000  # far above any stability, action or fleet count, and far below what breaks anything


def usage(name: str) -> str:
    return next(c.usage() for c in COMMANDS if c.name == name)


def read_command(resolve: Resolve, name: str, args: list[str], text: str) -> Proposal:
    try:
        if name == "battle":
            return _battle(resolve, args, text)
        if name == "gm pass":
            if not args:
                raise _Refused(f"usage: {usage(name)}")
            nation = _name(resolve, "nation", args[0])
            return Proposal(0, text, "gm.pass", {"nation": nation, "reason": " ".join(args[1:])},
                            f"end the turn of the {nation}")
        if name == "gm set":
            return _gm_set(resolve, args, text)
    except _Refused as exc:
        return Proposal(0, text, error=str(exc))
    return Proposal(0, text, error=f"'/{name}' is not a Mare Nostrum command")


class _Refused(Exception):
    pass


def _name(resolve: Resolve, kind: str, text: str) -> str:
    found = resolve(kind, text)
    if getattr(found, "name", None) is None:
        raise _Refused(getattr(found, "error", None) or f"unknown {kind} '{text}'")
    return str(found.name)


def _battle(resolve: Resolve, args: list[str], text: str) -> Proposal:
    lowered = [w.lower() for w in args]
    example = f"usage: {usage('battle')} (for example /battle Baetica winner Gauls)"
    for marker in ("winner", "won", "victor"):
        if marker in lowered:
            i = lowered.index(marker)
            place, rest = args[:i], args[i + 1:]
            if rest and rest[0].lower() == "by":
                rest = rest[1:]
            break
    else:
        # The arguments as ``usage`` lists them (a transport that fills them one by one): province, winner.
        if len(args) != 2:
            raise _Refused(example)
        place, rest = args[:1], args[1:]
    if not place or not rest:
        raise _Refused(example)
    province = _name(resolve, "province", " ".join(place))
    winner_text = " ".join(rest)
    winner = getattr(resolve("side", winner_text), "name", None) or winner_text
    return Proposal(0, text, "battle.reported", {"province": province, "winner": winner},
                    f"battle in {province} won by {winner}")


def _count(text: str) -> int:
    # Nothing the GM sets is below 0 (stability 0 crumbles a nation, 0 actions ends its turn): a minus is a typo.
    if not text.isdigit() or len(text) > 6 or int(text) > MAX_COUNT:
        raise _Refused(f"'{text[:40]}' is not a whole number from 0 to {MAX_COUNT}")
    return int(text)


def _gm_set(resolve: Resolve, args: list[str], text: str) -> Proposal:
    if len(args) < 3:
        raise _Refused(f"usage: {usage('gm set')}")
    what = args[0].lower()
    reason = " ".join(args[3:])
    target: str
    value: Any
    if what in ("stability", "actions"):
        target = _name(resolve, "nation", args[1])
        value = _count(args[2])
    elif what == "fleets":
        if "/" not in args[1]:
            raise _Refused('write the sea and the nation as <sea>/<nation>, e.g. /gm set fleets "Mare Tyrrhenum/Romans" 2')
        sea, nation = args[1].split("/", 1)
        target = f"{_name(resolve, 'sea', sea)}|{_name(resolve, 'nation', nation)}"
        value = _count(args[2])
    elif what == "owner":
        target = _name(resolve, "province", args[1])
        value = None if args[2].lower() in ("independent", "none", "-") else _name(resolve, "nation", args[2])
    elif what in ("fortification", "suburbs", "temple"):
        target = _name(resolve, "province", args[1])
        flag = FLAGS.get(args[2].lower())
        if flag is None:
            raise _Refused(f"'{args[2][:40]}': write yes or no")
        value = flag
    else:
        raise _Refused(f"usage: {usage('gm set')}")
    data = {"what": what, "target": target, "value": value, "reason": reason}
    return Proposal(0, text, "gm.set", data, f"set {what} of {target.replace('|', ' / ')} to {value}")
