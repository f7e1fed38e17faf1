"""Legendary goods face down (rules version 3, rules_version.py): each is a card of a hidden deck of the reserve
(``engine/tabletop/``: every resource ``legendary_goods`` times), on the table of the row's hidden deck
(hidden_row.py), drawn face down and sealed to its holder.

The deck key is sealed by the bot when the campaign is created, before anything else; the deck's shuffle is bound
to the campaign's public chance when the first legendary good is owed (so a game that never deals one binds no
roll for it), so nobody, the operator included, can choose
or foresee which good comes. Behind a screen a legendary good is named by its card's id (``legendary.3``), never by
what it is: its holder's private view shows the resource, everyone else a count. It is shown (its seal revealed,
checked against its digest) when it leaves the screen: put forward in Commerce once every offer is revealed, paid
for a purchase, given in the unequal exchange, or gone back to the reserve at the end of its holder's purchases.
A card gone back lies face up on the reserve's discard pile, shuffled in again when the deck runs short. At the
game's end the deck key and every card still sealed are revealed, and ``verify`` derives every draw again.

The export's fold does not know a sealed card: a price paid with one is checked for different resources by the
bot's fold (and by ``verify``, given every content back); the card's reveal, which follows at once, is public.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import Event, Rejection
from engine.tabletop import decks as dk
from engine.tabletop import table as tb
from engine.tabletop.hands import Held

if TYPE_CHECKING:
    from engine.mare_nostrum_empires.game import Game
    from engine.mare_nostrum_empires.rules_data import RulesData

DECK = "legendary"
PREFIX = DECK + "."
COPIES = "legendary_goods"  # the reserve limit: copies of each resource


def is_card(token: str) -> bool:
    """A legendary good named by its card (rules version 2), not "legendary <resource>" (version 1)."""
    return token.startswith(PREFIX) and token[len(PREFIX):].isdigit()


def add_deck(rules: RulesData, table: tb.Table) -> None:
    """The legendary goods' deck on the campaign's table, keyed by its deck key; its shuffle is bound only once a
    good is owed (``owe``), not with the table's other decks."""
    copies = rules.reserve_limits.get(COPIES, 3)
    spec = dk.DeckSpec(DECK, (tuple(sorted(r for r in rules.resources for _ in range(copies))),), True)
    table.decks[DECK] = dk.new_deck(spec)


def face_down(game: Game) -> bool:
    """Rules version 3 on: legendary goods are cards of the hidden deck."""
    return game.table is not None and DECK in game.table.decks


def _table(game: Game) -> tb.Table:
    assert game.table is not None  # only rules version 3 names legendary goods by card
    return game.table


def held(game: Game, card_id: str) -> Held | None:
    """The card as dealt (its seal and, where this fold knows it, what it is), whoever holds it now."""
    return next((h for hold in _table(game).holdings.values() for h in hold.cards if h.id == card_id), None)


def resource(game: Game, token: str) -> str | None:
    """A legendary good's resource as this fold knows it (None: a card still sealed, in the export's fold)."""
    if not is_card(token):
        return token.removeprefix("legendary ")
    card = held(game, token)
    return None if card is None else card.card


def label(game: Game, token: str) -> str:
    """A token as everyone may read it: a card's resource only once it is revealed."""
    if not is_card(token):
        return token
    card = held(game, token)
    return f"{token} ({card.card})" if card is not None and card.revealed and card.card else token


def show(game: Game, token: str) -> None:
    """Ask for a card's reveal (it leaves its holder's screen): the shell publishes it before the game goes on."""
    card = held(game, token)
    table = _table(game)
    if card is not None and card.seq is not None and not card.revealed and card.seq not in table.due:
        table.due.append(card.seq)


def unshown(game: Game, tokens: list[str]) -> bool:
    """True while one of ``tokens`` is a card whose reveal is still to come."""
    return any(is_card(t) and (c := held(game, t)) is not None and not c.revealed for t in tokens)


def spend(game: Game, tokens: list[str]) -> None:
    """Cards that go back to the reserve (paid, or left at the end of a turn): shown, then discarded face up."""
    for token in tokens:
        card = held(game, token) if is_card(token) else None
        if card is None:
            continue
        if card.revealed and card.card is not None:  # shown already (put forward, taken): discarded at once
            dk.discard(_table(game).decks[DECK], card.card)
        else:
            show(game, token)
            game.spent.append(token)


def owe(game: Game, empire: str, event: Event) -> list[str]:
    """One legendary good dealt to ``empire``, face down; the discard pile is shuffled in first when the deck would
    run short, and with none left anywhere the empire gets none."""
    table = _table(game)
    deck = table.decks[DECK]
    if not deck.shuffles and DECK not in table.unbound:  # the first good owed: the shuffle is bound now
        table.unbound.append(DECK)
    coming = deck.size + sum(len(p) for s in deck.shuffles if not s.done for p in s.piles) + (
        len(deck.spec.cards()) if DECK in table.unbound else 0)
    queued = sum(1 for d in table.queue if d.deck == DECK)
    said = []
    if coming - queued < 1:
        if not deck.discard:
            return [f"The reserve has no legendary good left: the {empire} get none."]
        said.append(tb.reshuffle(table, game.book, event, DECK))
    tb.deal(table, DECK, empire)
    return said


def advance(game: Game, event: Event) -> list[str]:
    """Bind and settle the deck's shuffles and make the draws, only once a legendary good is owed (the deck key
    alone, sealed at creation, binds nothing)."""
    table = _table(game)
    if DECK not in table.unbound and not any(d.deck == DECK for d in table.queue) and all(
            s.done for s in table.decks[DECK].shuffles):
        return []
    return tb.advance(table, game.book, event)


def dealing(game: Game) -> bool:
    """True while a legendary good owed is still to be dealt and sealed: Commerce, which counts every token behind
    the screens, waits for it."""
    table = game.table
    return face_down(game) and table is not None and (any(d.deck == DECK for d in table.queue) or any(
        d.deck == DECK for d, _, _ in table.sealing))


def on_sealed(game: Game, event: Event) -> list[str]:
    """The bot's seal: the deck key, or a legendary good dealt, which goes behind its holder's screen."""
    said = tb.on_sealed(_table(game), event)
    key = str(event.data.get("key", ""))
    if key != tb.KEY:
        seat = str(event.data.get("seat"))
        game.board.screens[seat].legendary.append(key)
        if game.winners:  # the game is over (game.py's OVER: set with its winners)
            # Owed by the event that ended the game (dealt in its fold, sealed only after): the end's reveal of
            # every sealed card has passed it, so it is revealed now, or it would stay sealed for ever. Only a seal
            # after the end meets this, which no game recorded before it had.
            tb.reveal(_table(game), seat, key)
    return said


def on_revealed(game: Game, event: Event) -> list[str] | None:
    """A legendary card's reveal (None: not one of this deck's seals); a card gone back is discarded."""
    card = next((h for hold in _table(game).holdings.values() for h in hold.cards
                 if h.seq == event.data.get("seq") and h.deck == DECK), None)
    if card is None:
        return None
    said = tb.on_revealed(_table(game), event)
    if said is None:
        return None
    if card.id in game.spent and card.card is not None:
        game.spent.remove(card.id)
        dk.discard(_table(game).decks[DECK], card.card)
    return said


def card_for(game: Game, seat: str, words: str, pool: list[str], taken: list[str], *, face_down: bool = False,
             own: bool = True) -> str:
    """The card a player means by "legendary <resource>" among ``pool`` (its screen, or an offer revealed), the
    earliest dealt first and none named twice in one order; a card id is kept as written. Among cards still face
    down (``face_down``) only their holder names one by what it is: anyone else ordering for the seat (the GM)
    would learn from the answer what it holds, so they name the card."""
    if is_card(words):
        return words
    if face_down and not own:
        raise Rejection(f"'{words}': the {seat}' legendary goods are face down, and only their player names one by "
                        f"what it is; to order for the {seat}, name the card ("
                        f"{', '.join(t for t in pool if is_card(t)) or 'they hold none'})")
    wanted = words.removeprefix("legendary ")
    for token in pool:
        if is_card(token) and token not in taken and resource(game, token) == wanted:
            return token
    raise Rejection(f"'{words}': {seat} hold no legendary {wanted} there to name (write 'legendary <resource>' for "
                    f"one you hold, or its card, e.g. 'legendary.3')", hidden_of=seat)
