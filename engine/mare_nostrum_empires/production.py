"""Phase 1, Production: every empire collects at once what the buildings it controls yield.

A caravan gives one good of its province's resource, doubled by a market its controller also controls; a city or
capital gives one tax, doubled by a temple of the same controller; a legendary city gives one tax and one
legendary good, and with a temple one more of either, as its controller chooses. The first round has none (set-up
has given its yield)."""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import Rejection
from engine.mare_nostrum_empires import abilities
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.state import Board

EXTRA = ("tax", "legendary")


@dataclass
class Yield:
    goods: dict[str, int] = field(default_factory=dict)
    taxes: int = 0
    legendary: int = 0  # legendary goods to draw face down

    def tokens(self) -> int:
        return sum(self.goods.values()) + self.taxes + self.legendary


def due(round_no: int) -> bool:
    return round_no > 1


def legendary_choices(rules: RulesData, board: Board, empire: str) -> list[str]:
    """The provinces where ``empire`` must choose its temple's extra: a tax or a legendary good."""
    return [name for name, prov in board.provinces.items()
            if prov.controller("legendary") == empire and prov.controller("temple") == empire]


def collect(rules: RulesData, board: Board, empire: str, extra: dict[str, str] | None = None) -> Yield:
    """What ``empire`` collects; ``extra`` says, per legendary city with a temple, "tax" or "legendary"."""
    extra = extra or {}
    out = Yield()
    for name, prov in board.provinces.items():
        temple = prov.controller("temple") == empire
        if prov.controller("caravan") == empire:
            good = rules.provinces[name].good
            doubled = abilities.goods_doubled(rules, board, empire, prov.controller("market") == empire, temple)
            out.goods[good] = out.goods.get(good, 0) + (2 if doubled else 1) + abilities.good_bonus(rules, board,
                                                                                                  empire, good)
        if prov.controller("city") == empire or prov.controller("capital") == empire:
            out.taxes += 2 if temple else 1
        if prov.controller("legendary") == empire:
            out.taxes += 1
            out.legendary += 1
            if temple:
                choice = extra.get(name)
                if choice not in EXTRA:
                    city = rules.provinces[name].legendary
                    raise Rejection(f"{empire} must choose what the temple of {city} ({name}) adds: "
                                    f"'{choice}' is neither 'tax' nor 'legendary'" if choice else
                                    f"{empire} must choose what the temple of {city} ({name}) adds: 'tax' or "
                                    f"'legendary'")
                if choice == "tax":
                    out.taxes += 1
                else:
                    out.legendary += 1
    out.taxes += abilities.tax_bonus(rules, board, empire)
    return out
