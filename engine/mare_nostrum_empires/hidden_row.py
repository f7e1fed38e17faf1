"""The Heroes and Wonders row face down for real (rules version 2, rules_version.py): the general tiles are a hidden
deck of the tabletop (engine/tabletop/), so the next tile to turn up is known to nobody, the operator included,
until it does.

The deck key is sealed by the bot when the campaign is created, before anything else; the row's shuffle is bound to
the campaign's public chance once it is sealed, and its order is HMAC-keyed by that key (engine/tabletop/
shuffle.py): whoever runs the bot fixed the key before the public value existed, so it can neither choose the
order nor, holding the public value, read it from the log; a player with the export knows only how many tiles are
left. Each tile turned up (the five of the start, then each gap at the end of a Purchase phase, in slot order) is a
draw of the row's "seat": the bot seals it (``secret.sealed``, checked by its fold against the order) and reveals it
at once (``secret.revealed``, checked against the digest); only then does it stand face up. At the game's end the
deck key is revealed and ``verify`` derives the shuffle again: every tile sealed must be the one it gives.

Older campaigns (version 1) keep the open shuffle of tiles.py, bound at the first event."""
from __future__ import annotations

from collections.abc import Callable

from engine.events import Event
from engine.mare_nostrum_empires.game import Game
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.tiles import FACE_UP, Row, row_tiles
from engine.tabletop import decks as dk
from engine.tabletop import table as tb

Say = Callable[..., None]
DECK = "row"
SEAT = "row"  # the row's face-up slots: the table's seat that holds the tiles turned up


def deck_spec(rules: RulesData) -> dk.DeckSpec:
    return dk.DeckSpec(DECK, (tuple(sorted(row_tiles(rules))),), True)


def new_table(rules: RulesData, empires: tuple[str, ...]) -> tb.Table:
    return tb.new_table([deck_spec(rules)], [*empires, SEAT], key_first=True)


def _table(game: Game) -> tb.Table:
    assert game.table is not None  # only rules version 2 has the hidden row
    return game.table


def _turn(game: Game, row: Row, slot: int) -> None:
    draw = tb.deal(_table(game), DECK, SEAT)
    row.turning[draw.label] = slot
    row.unseen -= 1


def advance(rules: RulesData, game: Game, event: Event, say: Say) -> None:
    """The row laid out at the start (five draws queued), then the table moved on: the shuffle bound once the deck
    key is sealed, the draws made once its value is known (each waits for the bot's seal, then its reveal)."""
    if game.row is None:
        game.row = Row([None] * FACE_UP, [], unseen=len(row_tiles(rules)))
        for slot in range(FACE_UP):
            _turn(game, game.row, slot)
    for line in tb.advance(_table(game), game.book, event):
        say(line)


def refill(game: Game) -> None:
    """The end of the Purchase phase: each gap gets the next face-down tile, in slot order (turned up by its seal
    and reveal, which follow at once)."""
    row = game.row
    assert row is not None
    for slot, tile in enumerate(row.face_up):
        if tile is None and slot not in row.turning.values() and row.unseen > 0:
            _turn(game, row, slot)


def on_sealed(game: Game, event: Event) -> list[str]:
    """The bot's seal of the deck key or of a tile drawn: the table checks it; a tile is revealed at once."""
    said = tb.on_sealed(_table(game), event)
    key = str(event.data.get("key", ""))
    if event.data.get("deck") == DECK and game.row is not None and key in game.row.turning:
        tb.reveal(_table(game), SEAT, key)
    return said


def on_revealed(game: Game, event: Event, say: Say) -> bool:
    """A ``secret.revealed`` of the table (the deck key, or a tile: it stands face up in its slot); False if it is
    not one of the table's seals."""
    said = tb.on_revealed(_table(game), event)
    if said is None:
        return False
    for line in said:
        say(line)
    row = game.row
    held = next((h for h in _table(game).holdings[SEAT].cards if h.seq == event.data.get("seq")), None)
    if row is not None and held is not None and held.id in row.turning:
        row.face_up[row.turning.pop(held.id)] = held.card
        say(f"The row turns up {held.card}.")
    return True


def end(game: Game) -> None:
    """The game's end: the deck key is revealed, so anyone can derive the row's order again."""
    tb.reveal_all(_table(game))
