"""Production on the tabletop: the goods decks as hidden decks (engine/tabletop/), each card sealed to its holder.

Basic and luxury cards are dealt from the top, civic cards from the bottom. Waldorf's rule is applied once a civic
card's seal is in the log: its face (the card's type, printed on the front) is public there, so the bot's fold and
the export's fold both see a third card of one type, take it back, put it on top of the draw pile and deal another.
The card put back keeps its seal; its content is revealed at the game's end with the rest (``put_back``), so
``verify`` derives every deal, the refused ones included. A deck that runs short is reshuffled from its discard
pile, bound to the public randomness like any shuffle.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.tabletop import hands
from engine.tabletop import decks as dk
from engine.tabletop import table as tb
from engine.trading_mediterranean.production import keeps, owed, put_on_top
from engine.trading_mediterranean.rules_data import Rules
from engine.trading_mediterranean.state import Civ

CIVIC = "civic"


@dataclass
class Dealing:
    civic_kept: dict[str, Counter[str]] = field(default_factory=dict)  # seat -> civic types kept this turn
    refused_in_a_row: dict[str, int] = field(default_factory=dict)
    put_back: list[hands.Held] = field(default_factory=list)  # civic cards put back on top, still sealed
    short: dict[str, int] = field(default_factory=dict)  # civic cards a seat could not be dealt (no legal card)


def where_from(deck: str) -> str:
    return dk.BOTTOM if deck == CIVIC else dk.TOP


def _ensure(table: tb.Table, book: chance.ChanceBook, event: Event, deck_name: str, wanted: int) -> list[str]:
    """Reshuffle the discard pile under the draw pile when the draws queued would exhaust the deck."""
    deck = table.decks[deck_name]
    queued = sum(1 for d in table.queue if d.deck == deck_name)
    if deck.size - queued < wanted and deck.discard:
        return [tb.reshuffle(table, book, event, deck_name)]
    return []


def start(rules: Rules, table: tb.Table, book: chance.ChanceBook, event: Event, civs: list[Civ]) -> tuple[Dealing, list[str]]:
    """Queue this turn's production, seat by seat in turn order."""
    dealing = Dealing({c.seat: Counter() for c in civs}, {c.seat: 0 for c in civs})
    said: list[str] = []
    totals: Counter[str] = Counter()
    for civ in civs:
        totals.update(owed(rules, civ))
    for deck_name, n in sorted(totals.items()):
        said += _ensure(table, book, event, deck_name, n)
    for civ in civs:
        for deck_name, n in owed(rules, civ).items():
            for _ in range(n):
                tb.deal(table, deck_name, civ.seat, where_from(deck_name))
    return dealing, said


def on_sealed(table: tb.Table, book: chance.ChanceBook, dealing: Dealing, event: Event) -> list[str]:
    """A seal of the bot: the table checks it; a civic card that would be a third of its type is put back."""
    said = tb.on_sealed(table, event)
    if event.data.get("deck") != CIVIC:
        return said
    seat, label = str(event.data.get("seat")), str(event.data.get("key"))
    hold = table.holdings[seat]
    held = hold.find(label)
    assert held is not None  # on_sealed has just given it to the seat
    kept = dealing.civic_kept.setdefault(seat, Counter())
    if keeps(kept, held.face):
        kept[held.face] += 1
        dealing.refused_in_a_row[seat] = 0
        return said
    hold.cards.remove(held)
    deck = table.decks[CIVIC]
    put_on_top(deck, held.card)
    dealing.put_back.append(held)
    refused = dealing.refused_in_a_row.get(seat, 0) + 1
    dealing.refused_in_a_row[seat] = refused
    said.append(f"{seat} may not be dealt a third {held.face}: {label} goes back on top of the civic deck")
    if refused > deck.size + len(deck.discard):
        dealing.short[seat] = dealing.short.get(seat, 0) + 1
        said.append(f"No civic card {seat} may keep is left: {seat} is dealt one card fewer")
        return said
    said += _ensure(table, book, event, CIVIC, 1)
    tb.deal(table, CIVIC, seat, dk.BOTTOM)
    return said


def reveal_at_end(table: tb.Table, dealing: Dealing) -> None:
    """The game's end: every card sealed is revealed, those put back on top included."""
    tb.reveal_all(table)
    for held in dealing.put_back:
        if held.seq is not None and not held.revealed and held.seq not in table.due:
            table.due.append(held.seq)


def on_revealed(table: tb.Table, dealing: Dealing, event: Event) -> list[str] | None:
    """A ``secret.revealed``: a card held (the table's) or a card put back, checked against its seal and its face;
    None if it is neither."""
    said = tb.on_revealed(table, event)
    if said is not None:
        return said
    seq = event.data.get("seq")
    held = next((h for h in dealing.put_back if h.seq == seq), None)
    if held is None:
        return None
    if seq not in table.due:
        raise Rejection(f"the card sealed in event #{seq} is revealed at the game's end, not before")
    card = tb.reveal_held(table, held, event, seq)
    return [f"Card {held.id}, put back on top in production, is revealed: {card}."]
