"""What a Hero or Wonder does, as data: an ``effect`` (one of ``EFFECTS``), its ``amount`` and, for some effects,
the ``item`` it bears on (a purchase, a resource, a title). A GM's edited tile reuses an effect with other numbers
(`effect = "price"`, `item = "legion"`, `amount = 2` makes legions cheaper); abilities.py plays them, each at the one
place its phase reads."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# effect -> (what `item` must name, or None when the effect takes none; whether `amount` is needed; the meaning)
EFFECTS: dict[str, tuple[str | None, bool, str]] = {
    "legion_range": (None, True, "once per Military phase, one legion moves up to `amount` provinces"),
    "trireme_range": (None, True, "triremes move up to `amount` seas"),
    "price": ("purchase", True, "`item` costs `amount` tokens instead of its price"),
    "keep_taxes": (None, True, "at the end of the Purchase turn `amount` taxes stay instead of 2"),
    "offer_fewer": (None, True, "a commerce offer may hold `amount` fewer tokens than the face asks (at least 1)"),
    "temple_doubles_goods": (None, False, "a temple also doubles the goods of the caravan in its province"),
    "good_bonus": ("resource", True, "each caravan of `item` gives `amount` more goods"),
    "tax_bonus": (None, True, "`amount` more taxes each Production"),
    "attack_bonus": (None, True, "in a land battle one attacks, `amount` added to the dice"),
    "landing_bonus": (None, True, "legions attacking after crossing by trireme chain add `amount` to the dice"),
    "fortress_points": (None, True, "one's fortress adds `amount` instead of 5"),
    "lone_defender_cancels": (None, True, "one legion defending a province alone cancels `amount` more hits"),
    "capital_cancels": (None, True, "one's legions fighting in one's own capital cancel `amount` more hits"),
    "defence_dice": (None, True, "triremes defending at sea throw `amount` more dice"),
    "trireme_placement": (None, False, "triremes may be placed in any sea touching a province of one's trireme chain"),
    "swap_good": (None, False, "once a round, from the exchange's end to the end of one's Purchase turn, one good "
                               "swapped for a good of another resource from the reserve"),
    "wins_ties": (None, False, "a tie for a title one is in is won"),
    "names_tie": ("title", False, "one names the successor in a tie for the `item` title, holder or not"),
}


class AbilityError(ValueError):
    """A tile's ability that cannot be played, said precisely enough to fix it."""


@dataclass(frozen=True)
class Ability:
    effect: str
    amount: int = 0
    item: str | None = None


def read(body: dict[str, Any], where: str, choices: dict[str, tuple[str, ...]]) -> Ability | None:
    """A tile's ability from its data (None for a tile without `effect`); ``choices``: for each kind of `item`
    (purchase, resource, title) the names it may take."""
    effect = body.get("effect")
    if effect is None:
        return None
    if effect not in EFFECTS:
        raise AbilityError(f"{where}: effect '{effect}' is not one of {', '.join(EFFECTS)}")
    item_kind, needs_amount, _ = EFFECTS[effect]
    amount = body.get("amount", 0)
    if needs_amount and (not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 20):
        raise AbilityError(f"{where}: effect '{effect}' needs an amount of 1 to 20, not {amount!r}")
    item = body.get("item")
    if item_kind is None and item is not None:
        raise AbilityError(f"{where}: effect '{effect}' takes no item, and '{item}' is given")
    if item_kind is not None and item not in choices[item_kind]:
        raise AbilityError(f"{where}: effect '{effect}' needs an item, a {item_kind} of {', '.join(choices[item_kind])}"
                           f", not {item!r}")
    return Ability(str(effect), int(amount) if needs_amount else 0, item)
