"""Trading in the Mediterranean's slash commands: each order as a command whose goods, seats, buildings and
developments a player picks from autocomplete on Discord. A command is only another way to write an order line,
read by the same parser as a typed one (parse.py), so a command and a typed line never disagree. A trade's secret
promise is typed, never a command argument (a slash command's options are shown with its answer)."""
from __future__ import annotations

from collections.abc import Callable

from engine.ruleset import Argument, CommandSpec

GIVE = Argument("give", help="what you give: '2 grain', 'civic.3', '3 money', '1 vp'")
GET = Argument("get", "good", help="what you ask: '1 wine', '2 money' (goods autocompleted)")
OFFER = Argument("offer", "number", "the offer's number")
SEAT = Argument("seat", "seat", "a civilization (autocompleted)")
BUILDING = Argument("building", "building", "one of your buildings (autocompleted)")
GOOD = "good"

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("offer", "Trading: offer cards, money or VP for goods, to a civilization or everyone",
                (GIVE, GET, Argument("to", "seat", "a civilization or 'everyone' (autocompleted)")),
                example="/offer 2 grain 1 wine Egypt"),
    CommandSpec("counter", "Trading: answer an offer made to you with another", (OFFER, GIVE, GET),
                example="/counter 3 1 salt 1 dye"),
    CommandSpec("accept", "Trading: accept an offer (with the cards you give, else your first of each good)",
                (OFFER, Argument("with", help="card ids, e.g. 'civic.4, wine.2'", optional=True)),
                example="/accept 3"),
    CommandSpec("decline", "Trading: decline an offer made to you", (OFFER,), example="/decline 3"),
    CommandSpec("withdraw", "Trading: withdraw an offer of yours", (OFFER,), example="/withdraw 3"),
    CommandSpec("warehouse", "Trading: the cards kept back this turn (3, or 5 with the upgrade), or 'nothing'",
                (Argument("cards", GOOD, "goods or card ids: 'wine, dye', 'civic.4' (autocompleted)", rest=True),),
                example="/warehouse wine, dye"),
    CommandSpec("use", "Civic: use a \"give opponent\" building on a civilization", (BUILDING, SEAT),
                example="/use Assembly Egypt"),
    CommandSpec("leave", "Civic: leave a \"give opponent\" building unused", (BUILDING,), example="/leave Assembly"),
    CommandSpec("revolt", "Civic: a revolution, the government board turned over", example="/revolt"),
    CommandSpec("convert", "Civic: a conversion, the religion board turned over", example="/convert"),
    CommandSpec("build", "Purchasing: build a building", (Argument("building", "building", "the building (autocompleted)"),),
                example="/build Forum"),
    CommandSpec("develop", "Purchasing: buy one of the turn's developments",
                (Argument("development", "development", "the development (autocompleted)"),
                 Argument("from", GOOD, "the farm whose worker moves, when none is available", optional=True),
                 Argument("on", GOOD, "a farm's or an industry's good", optional=True),
                 Argument("in", "symbol", "the Scholar's culture row", optional=True),
                 Argument("steps", "number", "a status card's steps on its track (-10 to 10)", optional=True)),
                example="/develop Industry on grain"),
    CommandSpec("points", "Purchasing: buy victory points with money", (Argument("count", "number", "how many VP"),),
                example="/points 2"),
    CommandSpec("vote", "Calamity tie: the victim you name, or 'no one'",
                (Argument("seat", "seat", "a tied civilization or 'no one' (autocompleted)", rest=True),),
                example="/vote Egypt"),
    CommandSpec("lose", "A calamity's victim: the cubes (by place) and buildings it loses",
                (Argument("losses", help="'city, grain farm, Forum'", rest=True),), example="/lose city, grain farm"),
    CommandSpec("bank", "A Bank's use this turn", (Argument("use", "choice", "triple prosperity or ignore poverty",
                                                            choices=("prosperity", "poverty")),),
                example="/bank prosperity"),
    CommandSpec("done", "Done for this window (civic, trading or purchasing)", example="/done"),
)

_DEVELOP_WORDS = ("from", "on", "in", "steps")


def _develop(args: list[str]) -> str:
    extra = [f"{word} {value}" for word, value in zip(_DEVELOP_WORDS, args[1:]) if value]
    return " ".join([f"buy {args[0]}", *extra])


LINES: dict[str, Callable[[list[str]], str]] = {
    "offer": lambda a: f"offer {a[0]} for {a[1]} to {a[2]}",
    "counter": lambda a: f"counter {a[0]} {a[1]} for {a[2]}",
    "accept": lambda a: f"accept {a[0]}" + (f" with {a[1]}" if len(a) > 1 else ""),
    "decline": lambda a: f"decline {a[0]}",
    "withdraw": lambda a: f"withdraw {a[0]}",
    "warehouse": lambda a: f"warehouse {' '.join(a)}",
    "use": lambda a: f"use {a[0]} on {a[1]}",
    "leave": lambda a: f"leave {a[0]}",
    "revolt": lambda a: "revolt",
    "convert": lambda a: "convert",
    "build": lambda a: f"build {a[0]}",
    "develop": _develop,
    "points": lambda a: f"vp {a[0]}",
    "vote": lambda a: f"vote {' '.join(a)}",
    "lose": lambda a: f"lose {' '.join(a)}",
    "bank": lambda a: f"bank {a[0]}",
    "done": lambda a: "done",
}


def command_line(name: str, args: list[str]) -> str:
    """The order line a command stands for; ValueError with its usage when arguments are missing or too many."""
    spec = next(c for c in COMMANDS if c.name == name)
    needed = sum(1 for a in spec.arguments if not a.optional)
    rest = any(a.rest for a in spec.arguments)
    if len(args) < needed or (not rest and len(args) > len(spec.arguments)):
        raise ValueError(f"/{name} takes {needed}{'' if needed == len(spec.arguments) else f' to {len(spec.arguments)}'} "
                         f"argument(s), not {len(args)}: {spec.usage()}, e.g. {spec.example}")
    return LINES[name](args)
