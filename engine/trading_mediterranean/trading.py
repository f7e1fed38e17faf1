"""The trading phase's own rules on the tabletop: the window (live: the seed's four minutes; forum: hours), the
choice of cards to warehouse, and the cards spent when it closes. Offers, answers, counters and promises are the
tabletop's (engine/tabletop/trades.py); a card's bottom never shows in anyone's view but its holder's.

A warehouse choice may name only cards the seat holds, at most 3 (5 with the upgrade), and no card whose bottom
says MAY NOT WAREHOUSE. Only the bot's fold knows a bottom: it refuses such a choice with a reason told to the
holder alone (``hidden_of``), so the log never holds one; when the cards are revealed at the game's end,
``findings`` checks every warehouse choice again from the public log.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.events import Event, Rejection
from engine.tabletop import decks as dk
from engine.tabletop import hands, windows
from engine.tabletop import table as tb
from engine.trading_mediterranean import resolution
from engine.trading_mediterranean.rules_data import Rules
from engine.trading_mediterranean.state import Civ

LIVE, FORUM = "live", "forum"
FORUM_HOURS = (1, 336)  # a forum window: an hour to two weeks


@dataclass
class Warehouses:
    stored: dict[str, list[str]] = field(default_factory=dict)  # seat -> card ids kept back this turn
    history: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # every choice made, for the findings
    spent: dict[str, str] = field(default_factory=dict)  # card id -> card, for every card spent and revealed


def open_trading(rules: Rules, seats: list[str], event: Event, mode: str, forum_hours: int = 24) -> windows.Window:
    if mode == LIVE:
        return windows.open_window("trading", seats, event, rules.trading_minutes * 60)
    if mode != FORUM:
        raise Rejection(f"the trading phase is '{LIVE}' (a group online together) or '{FORUM}', not '{mode}'")
    lo, hi = FORUM_HOURS
    if not lo <= forum_hours <= hi:
        raise Rejection(f"a forum trading window lasts {lo} to {hi} hours, not {forum_hours}")
    return windows.open_window("trading", seats, event, forum_hours * 3600)


def room(rules: Rules, civ: Civ) -> int:
    if not civ.cubes.get("warehouse"):
        return 0
    return rules.warehouse_upgraded if civ.cubes.get("warehouse_upgrade") else rules.warehouse


def choose(rules: Rules, table: tb.Table, window: windows.Window, store: Warehouses, civ: Civ, ids: list[str]) -> str:
    """``warehouse goods.3, civic.7`` (an empty list empties it): replaces the seat's choice for this turn."""
    windows.acting(window, civ.seat)
    hold = table.holdings[civ.seat]
    if len(set(ids)) != len(ids):
        twice = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise Rejection(f"a card is warehoused once: {', '.join(twice)} named twice")
    missing = [i for i in ids if hold.find(i) is None]
    if missing:
        raise Rejection(f"{civ.seat} holds no card {', '.join(missing)}: its cards are "
                        f"{', '.join(h.id for h in hold.cards) or 'none'}")
    space = room(rules, civ)
    if len(ids) > space:
        raise Rejection(f"{civ.seat} may warehouse {space} card(s), not {len(ids)}"
                        + ("" if space else ": the warehouse cube is lost"))
    for i in ids:
        held = hold.find(i)
        assert held is not None
        if held.card is not None and not resolution.warehousable(rules, held.card):
            raise Rejection(f"{i} may not be warehoused: its bottom says MAY NOT WAREHOUSE", hidden_of=civ.seat)
    store.stored[civ.seat] = list(ids)
    store.history.append((civ.seat, tuple(ids)))
    return f"{civ.seat} warehouses " + (", ".join(ids) if ids else "nothing")


def spend(table: tb.Table, store: Warehouses, seat: str) -> list[hands.Held]:
    """The window closed: every card not warehoused is spent and revealed, face up for everyone."""
    kept = set(store.stored.get(seat, []))
    spent = [h for h in table.holdings[seat].cards if h.id not in kept]
    for h in spent:
        tb.reveal(table, seat, h.id)
    return spent


def discard_spent(table: tb.Table, store: Warehouses, seat: str, spent: list[hands.Held]) -> list[str]:
    """Once revealed, the spent cards leave the hand for their discard piles; returns the cards."""
    cards = []
    for h in spent:
        if h.card is None:
            raise Rejection(f"card {h.id} is not revealed yet: it is resolved once the bot has published it")
        table.holdings[seat].cards.remove(h)
        dk.discard(table.decks[h.deck], h.card)
        store.spent[h.id] = h.card
        cards.append(h.card)
    return cards


def findings(rules: Rules, table: tb.Table, store: Warehouses) -> list[str]:
    """At the end, with every card revealed: a warehouse choice that named a card it may not warehouse."""
    known = {h.id: h.card for hold in table.holdings.values() for h in hold.cards if h.card is not None and h.revealed}
    known.update(store.spent)
    out = []
    for seat, ids in store.history:
        for i in ids:
            card = known.get(i)
            if card is not None and not resolution.warehousable(rules, card):
                out.append(f"{seat} warehoused {i} ({card}), which may not be warehoused")
    return out
