"""What a waiting step does when its time runs out: the order line the shell's deadline posts for the seat
(``Prompt.on_timeout``, given by the GM for it), one documented reading per step. Each reads only what everyone
sees, so the prompt is the same in every fold; the offer alone is chosen behind the screen (``offer default``,
read against the seat's own tokens by the bot's fold).

* A temple's extra in a legendary city: a tax (the choice that reveals nothing).
* The Trade master's token: the first token still free in the data's order, turned to its smaller face (the least
  an exchange asks of everyone).
* An offer: taxes first, then goods in the data's order of resources, legendary goods last (the tokens least
  particular to an empire first).
* A pick: the first token of the first player it may take from, in seating order.
* The unequal exchange: the first token the Trade master took.
* A leader naming who plays next: the first empire still to play, in seating order.
* A tie at Claims: the one who names the successor (the previous leader, or a tile's holder) names itself if it is
  among the tied, else the first of them in seating order.
"""
from __future__ import annotations

from engine.mare_nostrum_empires import commerce, legendary
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.state import Screen

OFFER = "default"  # "offer default": the offer a deadline makes


def extra(province: str) -> str:
    return f"extra {province} tax"


def token(rules: RulesData, free: list[str]) -> str:
    first = free[0]
    return f"token {first} {min(rules.commerce[first])}"


def offer(rules: RulesData, screen: Screen, count: int) -> list[str]:
    """The tokens of the default offer, from what the seat holds: ``count`` of them, or all it holds when a tile
    lets it take part with fewer (a seat with fewer than it may put forward sits out)."""
    held = commerce.token_list(screen)
    order = ["tax", *rules.resources, *sorted((t for t in held if t != "tax" and t not in rules.resources),
                                              key=lambda t: (not legendary.is_card(t), _card_number(t), t))]
    return [name for name in order for _ in range(held[name])][:count]


def _card_number(token: str) -> int:
    return int(token[len(legendary.PREFIX):]) if legendary.is_card(token) else 0


def take(ex: commerce.Exchange, seat: str) -> str:
    target = commerce.targets(ex, seat)[0]
    return f"take {ex.offers[target][0]} from {target}"


def give(ex: commerce.Exchange) -> str:
    return f"give {ex.taken[ex.master][0]}"


def next_player(left: list[str]) -> str:
    return f"next {left[0]}"


def name(title: str, chooser: str, tied: list[str]) -> str:
    return f"name {chooser if chooser in tied else tied[0]} {title}"
