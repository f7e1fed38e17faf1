"""Mare Nostrum: Empires' slash commands: the orders whose arguments are provinces, seas, empires and resources,
so a player on Discord picks them from autocomplete. Each is only another way to write an order line, read by the
same parser as a typed one (parse.py), so a command and a typed line never disagree."""
from __future__ import annotations

from collections.abc import Callable

from engine.mare_nostrum_empires.rules_data import BUILDINGS
from engine.ruleset import Argument, CommandSpec

PROVINCE = Argument("province", "province", "the province (autocompleted)")
EMPIRE = Argument("empire", "empire", "the empire (autocompleted)")
TOKEN = Argument("token", "resource", "a resource, 'tax' or 'legendary <resource>' (autocompleted)")
PAY = Argument("pay", help="'taxes', or the goods: 'wine, oil, iron'", rest=True)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("buy", "Purchase: buy an item (influence, legion, trireme, fortress, a building, a Hero or Wonder, "
                       "the Pyramids)",
                (Argument("item", help="what to buy"), Argument("place", "area", "where it goes (autocompleted)",
                                                                optional=True), PAY),
                example="/buy legion Latium taxes"),
    CommandSpec("march", "Military: move legions to an adjacent province, along your trireme chain, or as far as a "
                         "tile allows",
                (Argument("from", "province", "from (autocompleted)"), Argument("to", "province", "to (autocompleted)"),
                 Argument("count", "number", "how many legions (default 1)", optional=True)),
                example="/march Latium Etruria 2"),
    CommandSpec("sail", "Military: move a trireme one sea (or as far as a tile allows), and attack a fleet there if "
                        "you wish",
                (Argument("from", "sea", "from (autocompleted)"), Argument("to", "sea", "to (autocompleted)"),
                 Argument("attack", "empire", "the fleet to fight (autocompleted)", optional=True)),
                example="/sail Mare Tyrrhenum Mare Ionium"),
    CommandSpec("take", "Commerce: take one token from another player's offer", (TOKEN, EMPIRE),
                example="/take oil Greeks"),
    CommandSpec("next", "Purchase or Military: the leader names who plays next", (EMPIRE,), example="/next Greeks"),
    CommandSpec("give", "Commerce: the Trade master gives one token back in the unequal exchange", (TOKEN,),
                example="/give tax"),
    CommandSpec("extra", "Production: what the temple of your legendary city adds, a tax or a legendary good",
                (PROVINCE, Argument("choice", "choice", "tax or legendary", ("tax", "legendary"))),
                example="/extra Judaea legendary"),
    CommandSpec("pillage", "Military: pillage a building (or an enemy fortress) of a province you conquered",
                (Argument("building", "choice", "what to pillage", (*BUILDINGS, "fortress")), PROVINCE,
                 Argument("take", "choice", "a legendary city gives a tax or a legendary good", ("tax", "legendary"),
                          optional=True)),
                example="/pillage legendary Judaea legendary"),
    CommandSpec("occupy", "Military: occupy buildings of a province you conquered with your units there",
                (PROVINCE, Argument("buildings", help="'city, temple'", rest=True)), example="/occupy Judaea caravan"),
    CommandSpec("stand", "Military: stand a legion on the influence marker of a province you conquered",
                (PROVINCE,), example="/stand Judaea"),
    # Not "/convert": another game's /convert takes no argument, and a name two games read differently becomes one
    # free-text parameter on Discord, without autocomplete.
    CommandSpec("convert-marker", "Military: convert the influence marker your legion stood on since your last "
                                  "Military phase", (PROVINCE,), example="/convert-marker Judaea"),
    CommandSpec("name", "Claims: the previous leader names the successor among those tied for a title",
                (EMPIRE, Argument("title", "choice", "the title", ("commerce", "politics", "military"))),
                example="/name Romans politics"),
    CommandSpec("swap", "Purchase, with a tile that allows it: swap one of your goods for one of the reserve",
                (Argument("good", "resource", "the good you give (autocompleted)"),
                 Argument("for", "resource", "the good you take (autocompleted)")),
                example="/swap wine iron"),
)

LINES: dict[str, Callable[[list[str]], str]] = {
    "buy": lambda a: f"buy {a[0]}{f' in {a[1]}' if len(a) > 2 else ''} with {a[-1]}",
    "march": lambda a: f"march {a[2] + ' ' if len(a) > 2 else ''}{a[0]} to {a[1]}",
    "sail": lambda a: f"sail {a[0]} to {a[1]}{f' attack {a[2]}' if len(a) > 2 else ''}",
    "take": lambda a: f"take {a[0]} from {a[1]}",
    "next": lambda a: f"next {a[0]}",
    "swap": lambda a: f"swap {a[0]} for {a[1]}",
    "give": lambda a: f"give {a[0]}",
    "extra": lambda a: f"extra {a[0]} {a[1]}",
    "pillage": lambda a: f"pillage {a[0]} in {a[1]}{f' take {a[2]}' if len(a) > 2 else ''}",
    "occupy": lambda a: f"occupy {a[1]} in {a[0]}",
    "stand": lambda a: f"stand {a[0]}",
    "convert-marker": lambda a: f"convert {a[0]}",
    "name": lambda a: f"name {a[0]} {a[1]}",
}


def command_line(name: str, args: list[str]) -> str:
    """The order line a command stands for; ValueError with its usage when arguments are missing."""
    spec = next(c for c in COMMANDS if c.name == name)
    needed = sum(1 for a in spec.arguments if not a.optional)
    if len(args) < needed:
        raise ValueError(f"/{name} needs {needed} argument(s): {spec.usage()}, e.g. {spec.example}")
    return LINES[name](args)
