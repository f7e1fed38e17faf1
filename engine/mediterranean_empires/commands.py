"""Slash commands of Mediterranean Empires: the orders whose arguments are areas and powers, so that a player on
Discord picks them from autocomplete (``names("area")``, ``names("power")``) instead of spelling "Provence County".

Each command is only another way to write an order line: it is turned into the seed's words and read by the same
parser as a typed order (engine/mediterranean_empires/parse.py), so a command and a typed line never disagree.
"""
from __future__ import annotations

from collections.abc import Callable

from engine.ruleset import Argument, CommandSpec

POWER = Argument("power", "power", "the power (autocompleted)")
AREA = Argument("area", "area", "the area (autocompleted)")
ATTEMPTS = ("alliance", "vassalage", "rebellion")

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("activate", "Operations: activate a power's units in an area",
                (POWER, AREA, Argument("units", help="only these units, e.g. '2 field armies' (default: all)", optional=True)),
                example="/activate France Provence County"),
    CommandSpec("move", "Operations: move the active force to an adjacent area",
                (Argument("to", "area", "the area to move to (autocompleted)"),), example="/move Genoa"),
    CommandSpec("recruit", "Recruitment: buy units of a power in an area you control",
                (Argument("units", help="e.g. '2 levies', 'a field army', 'a fleet'"), POWER, AREA),
                example="/recruit 2 levies France Vienne"),
    CommandSpec("place", "Set-up (3.1-3.2): place units of one of your powers, or its King, in an area",
                (Argument("units", help="e.g. '2 levies', 'a fleet', 'king'"), POWER, AREA),
                example="/place 2 levies France Albi"),
    CommandSpec("attempt", "Political phase: an alliance, vassalage or rebellion attempt on a power",
                (Argument("kind", "choice", "what is attempted", ATTEMPTS), Argument("target", "power", "the power"),
                 Argument("using", help="e.g. 'the King of France, the Pope and 1 TP'", optional=True, rest=True)),
                example="/attempt alliance Genoa using 1 TP"),
)

# Each command's line in the seed's words, from its arguments in the order of its spec.
LINES: dict[str, Callable[[list[str]], str]] = {
    "activate": lambda a: f"activate {a[2] + ' of ' if len(a) > 2 else ''}{a[0]} in {a[1]}",
    "move": lambda a: f"move to {a[0]}",
    "recruit": lambda a: f"recruit {a[0]} of {a[1]} in {a[2]}",
    "place": lambda a: f"place {'the King' if a[0].lower() in ('king', 'the king') else a[0]} of {a[1]} in {a[2]}",
    "attempt": lambda a: (f"attempt {a[0]} {({'alliance': 'with', 'vassalage': 'on'}).get(a[0].lower(), 'in')} {a[1]}"
                          + (f" using {' '.join(a[2:])}" if len(a) > 2 else "")),
}


def command_line(name: str, args: list[str]) -> str:
    """The order line a command stands for; ValueError with its usage when arguments are missing."""
    spec = next(c for c in COMMANDS if c.name == name)
    needed = sum(1 for a in spec.arguments if not a.optional)
    if len(args) < needed:
        raise ValueError(f"/{name} needs {needed} argument(s): {spec.usage()}, e.g. {spec.example}")
    if name == "attempt" and args[0].lower() not in ATTEMPTS:
        raise ValueError(f"'{args[0][:40]}' is not an attempt: write alliance, vassalage or rebellion, e.g. {spec.example}")
    return LINES[name](args)
