"""Phase 3, Purchase: paying the seed's prices and the end of a player's turn.

A price of N is paid with N goods of N different resources, or with N taxes, never a mix (the seed's table says
"N jetons Bien différents, ou N jetons Impôt"). A legendary good is a good of its resource. Heroes and Wonders
cost the price of the round. At the end of a player's turn every good goes back to the reserve and at most 2
taxes stay."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.events import Rejection
from engine.mare_nostrum_empires.legendary import is_card
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.state import Screen

KEEP_TAXES = 2


def price(rules: RulesData, item: str, round_no: int) -> int:
    if item in rules.tiles:
        return rules.tile_price(round_no)
    if item not in rules.prices:
        raise Rejection(f"'{item}' cannot be bought: buy one of {', '.join(rules.prices)} or a Hero or Wonder")
    return rules.prices[item]


def pay(screen: Screen, seat: str, cost: int, taxes: bool, goods: list[str],
        resource_of: Callable[[str], str | None] = lambda g: g.removeprefix("legendary ")) -> Screen:
    """``seat`` pays ``cost`` with taxes or with the goods named (one per resource, legendary ones written
    "legendary <resource>", or by card face down: ``resource_of`` gives its resource where this fold knows it):
    the screen after, or a refusal that says what was wrong."""
    if taxes:
        if goods:
            raise Rejection(f"pay {cost} taxes or {cost} different goods, not a mix of taxes and goods")
        if screen.taxes < cost:
            raise Rejection(f"{seat} has {screen.taxes} tax{'es' if screen.taxes != 1 else ''}, not the {cost} this "
                            f"costs", hidden_of=seat)
        return Screen(dict(screen.goods), screen.taxes - cost, list(screen.legendary), list(screen.tiles),
                      screen.pyramids)
    if len(goods) != cost:
        raise Rejection(f"this costs {cost} different goods (or {cost} taxes), and {len(goods)} "
                        f"good{'s are' if len(goods) != 1 else ' is'} named")
    resources = [r for r in map(resource_of, goods) if r is not None]
    twice = sorted(r for r, n in Counter(resources).items() if n > 1)
    if twice:
        # Where a face-down card is one of them, the reason tells what it is: for the seat's player alone.
        raise Rejection(f"the goods must all be different: '{twice[0]}' is named {resources.count(twice[0])} times",
                        hidden_of=seat if any(is_card(g) for g in goods) else None)
    plain = dict(screen.goods)
    legendary = list(screen.legendary)
    for good in goods:
        if good.startswith("legendary ") or is_card(good):
            entry = good if is_card(good) else good.removeprefix("legendary ")
            if entry not in legendary:
                raise Rejection(f"{seat} holds no {good if is_card(good) else f'legendary {entry}'}", hidden_of=seat)
            legendary.remove(entry)
        elif plain.get(good, 0) < 1:
            raise Rejection(f"{seat} holds no {good}", hidden_of=seat)
        else:
            plain[good] -= 1
            if not plain[good]:
                del plain[good]
    return Screen(plain, screen.taxes, legendary, list(screen.tiles), screen.pyramids)


def end_of_turn(screen: Screen, keep: int = KEEP_TAXES) -> Screen:
    """Goods (legendary ones too) go back to the reserve; at most ``keep`` taxes stay (2, or a tile's number)."""
    return Screen({}, min(screen.taxes, keep), [], list(screen.tiles), screen.pyramids)
