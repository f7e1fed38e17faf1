"""The cards of a game at the table: its decks, what each seat holds, the deck key, and what the shell must do
for them (``needs``): seal the deck key, record each shuffle's public value, seal each card drawn face down to its
holder, reveal a card played or every sealed thing at the game's end.

The order of events, which ``verify`` can check from the log alone:

1. ``secret.sealed`` ``{"key": "deck-key"}``: the bot seals the deck key (the seal's salt S), before any shuffle
   of a hidden deck is bound; its digest is in the chain, S in the private store.
2. Each shuffle binds a roll (``shuffle.roll_shape``) in the chance book, while that seal or a later event is
   applied: S was fixed before the roll's public value existed. The bot's fold, which knows S, derives the order
   once the value is recorded (``shuffle.permute``); the export's fold learns only the pile's size.
3. A card drawn from a hidden deck waits for ``secret.sealed`` ``{"key": <draw label>, "deck", "seat", "face",
   "sealed"}``, the bot's seal of ``{"card", "deck", "draw"}``: the bot's fold refuses a seal of any other card
   than the one its order gives.
4. A card played is revealed (``secret.revealed``, checked against its digest); at the game's end S and every card
   still sealed are revealed, and ``verify`` replays the log with every content given back: each shuffle is derived
   again, and each card sealed must be the one drawn.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import canonical, secrets
from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.ruleset import NEED_REVEAL, NEED_SEAL, Need
from engine.tabletop import decks as dk
from engine.tabletop import hands, shuffle

KEY = "deck-key"
KEY_CONTENT = {"deck key": "the salt of this seal keys every hidden shuffle of this campaign"}


@dataclass
class Draw:
    label: str
    deck: str
    seat: str
    where: str = dk.TOP


@dataclass
class Table:
    decks: dict[str, dk.Deck]
    holdings: dict[str, hands.Holding]
    key: str | None = None  # the deck key S, as this fold knows it
    key_seq: int | None = None
    key_digest: str | None = None
    key_revealed: bool = False
    unbound: list[str] = field(default_factory=list)  # decks whose first shuffle waits for the deck key
    queue: list[Draw] = field(default_factory=list)  # draws waiting for their deck's order
    sealing: list[tuple[Draw, str | None, str]] = field(default_factory=list)  # (draw, card if known, face) to seal
    due: list[int] = field(default_factory=list)  # sealed events to reveal now (cards played, the game's end)
    # The deck key comes before anything else of the campaign (the bot seals it at the creation): a game sets this
    # for campaigns created since; older logs, whose key was sealed at the first post, fold as they always did.
    key_first: bool = False

    def needs_key(self) -> bool:
        return any(d.spec.hidden for d in self.decks.values())

    def public(self) -> dict[str, Any]:
        return {"decks": {n: d.public() for n, d in sorted(self.decks.items())},
                "holdings": {s: h.public() for s, h in self.holdings.items()},
                "deck_key": {"seq": self.key_seq, "sealed": self.key_digest,
                             **({"revealed": self.key} if self.key_revealed else {})},
                "waiting": [d.label for d in self.queue] + [d.label for d, _, _ in self.sealing]}


def new_table(specs: list[dk.DeckSpec], seats: list[str], money: int = 0, *, key_first: bool = False) -> Table:
    table = Table({s.name: dk.new_deck(s) for s in specs}, {seat: hands.Holding(money) for seat in seats},
                  key_first=key_first)
    table.unbound = [s.name for s in specs]
    return table


def check_key_first(table: Table, event: Event) -> None:
    """Refuse any event before the deck key's seal where the key comes first (``Table.key_first``): a post that
    came before it would let whoever runs the bot see the players' first moves before fixing the key."""
    if not table.key_first or not table.needs_key() or table.key_seq is not None:
        return
    if event.kind == secrets.SEALED and event.data.get("key") == KEY:
        return
    raise Rejection(f"the deck key is sealed first, when the campaign is created; '{event.kind}' (event "
                    f"#{event.seq}) cannot come before it")


def bind_shuffles(table: Table, book: chance.ChanceBook, event: Event) -> list[str]:
    """Bind the first shuffle of every deck that can be bound now (a hidden deck once the deck key is sealed)."""
    said = []
    for name in list(table.unbound):
        deck = table.decks[name]
        if deck.spec.hidden and table.key_seq is None:
            continue
        table.unbound.remove(name)
        said.append(_bind(table, book, event, deck, [list(p) for p in deck.spec.piles], "shuffle"))
    return said


def reshuffle(table: Table, book: chance.ChanceBook, event: Event, deck_name: str) -> str:
    """The discard pile shuffled under the draw pile (its cards were face up: the multiset is public)."""
    deck = deck_of(table, deck_name)
    return _bind(table, book, event, deck, [dk.reshuffle_pile(deck)], "reshuffle")


def reshuffle_whole(table: Table, book: chance.ChanceBook, event: Event, deck_name: str) -> str:
    """The whole deck, its draw pile and its discard pile, gathered and shuffled again (a game's rule: Trading in the
    Mediterranean's Piracy). A fold that knows the draw pile's order (the bot's; ``verify``'s once the deck key is
    revealed) shuffles its cards; another keeps only their number, as for any hidden order."""
    deck = deck_of(table, deck_name)
    if not deck.ready():
        raise Rejection(f"the {deck.name} deck is being shuffled: it waits for its public value")
    unknown = ["?"] * deck.size if deck.pile is None else list(deck.pile)
    cards = sorted(unknown + deck.discard)
    deck.discard, deck.size = [], 0
    if deck.pile is not None:
        deck.pile = []
    return _bind(table, book, event, deck, [cards], "gathering")


def _bind(table: Table, book: chance.ChanceBook, event: Event, deck: dk.Deck, piles: list[list[str]], what: str) -> str:
    lo, hi, count = shuffle.roll_shape(book.source)
    label = f"{deck.name}.{what}{len(deck.shuffles) + 1}"
    b = chance.ask(book, event, label, lo, hi, count, purpose=f"{what} of the {deck.name} deck",
                   meaning="the order of the pile: engine/tabletop/shuffle.py" + (", keyed by the deck key" if deck.spec.hidden else ""))
    deck.shuffles.append(dk.Shuffle(b.label, b.id, piles))
    return f"The {deck.name} deck's {what} is bound to {chance.describe(b)}."


def deck_of(table: Table, name: str) -> dk.Deck:
    deck = table.decks.get(name)
    if deck is None:
        raise Rejection(f"there is no deck '{name}': the decks are {', '.join(sorted(table.decks))}")
    return deck


def deal(table: Table, deck_name: str, seat: str, where: str = dk.TOP) -> Draw:
    """Queue a draw for ``seat``; ``advance`` makes it once the deck's order is known (and seals it if hidden)."""
    deck = deck_of(table, deck_name)
    pending = sum(1 for d in table.queue if d.deck == deck_name)
    draw = Draw(f"{deck_name}.{deck.drawn + pending + 1}", deck_name, seat, where)
    table.queue.append(draw)
    return draw


def advance(table: Table, book: chance.ChanceBook, event: Event) -> list[str]:
    """Bind the shuffles that can be bound, settle those whose value is known, then make the queued draws, in
    order, as far as possible."""
    said = bind_shuffles(table, book, event)
    chance.settle(book, event)  # a value may be known already (a beacon recorded before the binding)
    for deck in table.decks.values():
        for s in deck.shuffles:
            if s.done:
                continue
            values = next((b.values for b in book.bindings if b.id == s.roll), None)
            if values is None:
                break
            hidden = deck.spec.hidden
            if hidden and table.key is None:
                dk.place(deck, s, None)
            else:
                key = shuffle.shuffle_key(s.label, values, table.key if hidden else None)
                dk.place(deck, s, [shuffle.permute(p, key, f"{s.label}.{i}") for i, p in enumerate(s.piles)])
            said.append(f"The {deck.name} deck is shuffled ({deck.size} cards)" + (
                "; its order stays hidden." if hidden else f": from the top, {', '.join(deck.pile or [])}."))
    while table.queue:
        draw = table.queue[0]
        deck = table.decks[draw.deck]
        if not deck.ready() or deck.name in table.unbound:  # unbound: its first shuffle waits for the deck key
            break
        table.queue.pop(0)
        card = dk.take(deck, draw.where)
        if deck.spec.hidden:
            face = deck.spec.face(card) if card is not None else ""
            table.sealing.append((draw, card, face))
            continue
        assert card is not None  # an open deck's order is known to every fold once settled
        table.holdings[draw.seat].cards.append(hands.Held(draw.label, deck.name, deck.spec.face(card), card=card, revealed=True))
        said.append(f"{draw.seat} draws {card} from the {draw.where} of the {deck.name} deck.")
    return said


def needs(table: Table) -> list[Need]:
    if table.needs_key() and table.key_seq is None:
        return [Need(NEED_SEAL, KEY, content=canonical.dumps({"content": KEY_CONTENT, "public": {}}))]
    out = [Need(NEED_REVEAL, str(seq)) for seq in table.due]
    for draw, card, face in table.sealing[:1]:  # one at a time: each seal's order in the log is the draws'
        if card is not None:
            content = {"card": card, "deck": draw.deck, "draw": draw.label}
            public = {"deck": draw.deck, "seat": draw.seat, "face": face, "from": draw.where}
            out.append(Need(NEED_SEAL, draw.label, content=canonical.dumps({"content": content, "public": public})))
    return out


def on_sealed(table: Table, event: Event) -> list[str]:
    """A ``secret.sealed`` of the bot: the deck key, or the next card drawn face down."""
    key, digest = str(event.data.get("key", "")), str(event.data.get("sealed", ""))
    if event.actor != "legatus":
        raise Rejection("only the bot seals the deck key and the cards drawn")
    if len(digest) != 64:
        raise Rejection("a seal carries the digest of its content (64 lowercase hex digits)")
    if key == KEY:
        if table.key_seq is not None:
            raise Rejection(f"the deck key is already sealed (event #{table.key_seq}); it is sealed once")
        if event.secret is not None:
            secrets.check(event.secret.get("content"), event.secret.get("salt"), digest)
            if event.secret.get("content") != KEY_CONTENT:
                raise Rejection("the deck key's seal must hold the deck key's content")
            table.key = str(event.secret["salt"])
        table.key_seq, table.key_digest = event.seq, digest
        return [f"The deck key is sealed (digest {digest[:12]}…): every hidden shuffle is keyed by it, and it is "
                "revealed at the game's end."]
    if not table.sealing or table.sealing[0][0].label != key:
        waiting = table.sealing[0][0].label if table.sealing else "none"
        raise Rejection(f"no card drawn as '{key}' waits for its seal (the next is {waiting})")
    draw, card, face = table.sealing[0]
    shown = str(event.data.get("face", ""))
    spec = table.decks[draw.deck].spec
    if event.data.get("seat") != draw.seat or event.data.get("deck") != draw.deck:
        raise Rejection(f"the seal of '{key}' names another deck or seat than the draw ({draw.deck}, {draw.seat})")
    if card is None and shown not in spec.faces_shown():
        raise Rejection(f"'{shown}' is not a face of the {draw.deck} deck")
    if card is not None:
        if event.secret is not None:
            secrets.check(event.secret.get("content"), event.secret.get("salt"), digest)
            if event.secret.get("content") != {"card": card, "deck": draw.deck, "draw": draw.label}:
                raise Rejection(f"the card sealed as '{key}' is not the one its shuffle puts there")
        if shown != face:
            raise Rejection(f"the seal of '{key}' shows the face '{shown}', not the card's '{face}'")
    table.sealing.pop(0)
    table.holdings[draw.seat].cards.append(hands.Held(draw.label, draw.deck, shown, event.seq, digest, card))
    return [f"{draw.seat} draws a card from the {draw.where} of the {draw.deck} deck, face down"
            + (f" (it shows {shown})" if shown != draw.deck else "") + f": {draw.label}, sealed {digest[:12]}…"]


def reveal(table: Table, seat: str, card_id: str) -> hands.Held:
    """Ask for a sealed card's reveal (played, shown): the shell publishes it before the game goes on."""
    held = table.holdings[seat].find(card_id)
    if held is None:
        raise Rejection(f"{seat} holds no card '{card_id}'")
    if held.seq is not None and not held.revealed and held.seq not in table.due:
        table.due.append(held.seq)
    return held


def reveal_all(table: Table) -> None:
    """The game's end: the deck key and every card still sealed."""
    wanted = ([table.key_seq] if table.key_seq is not None and not table.key_revealed else []) + [
        h.seq for hold in table.holdings.values() for h in hold.cards if h.seq is not None and not h.revealed]
    for seq in wanted:
        if seq is not None and seq not in table.due:
            table.due.append(seq)


def on_revealed(table: Table, event: Event) -> list[str] | None:
    """A ``secret.revealed`` of something this table sealed: None if it is not one of its seals."""
    seq = event.data.get("seq")
    if seq == table.key_seq and table.key_seq is not None:
        if seq not in table.due:
            raise Rejection("the deck key is revealed at the game's end, not before")
        secrets.check(event.data.get("content"), event.data.get("salt"), str(table.key_digest))
        table.key, table.key_revealed = str(event.data["salt"]), True
        table.due.remove(seq)
        return [f"The deck key is revealed ({table.key}): anyone can now derive every shuffle again."]
    held = next((h for hold in table.holdings.values() for h in hold.cards if h.seq == seq and h.seq is not None), None)
    if held is None:
        return None
    if seq not in table.due:
        raise Rejection(f"the card sealed in event #{seq} is not due to be revealed: it stays with its holder")
    card = reveal_held(table, held, event, seq)
    return [f"Card {held.id} is revealed: {card} (it matches digest {str(held.digest)[:12]}…)."]


def reveal_held(table: Table, held: hands.Held, event: Event, seq: int) -> str:
    """A due sealed card's reveal checked against its seal, its face and its draw, then marked revealed: its card.
    (A card held, or one a game keeps elsewhere, e.g. put back on a deck.)"""
    content = secrets.check(event.data.get("content"), event.data.get("salt"), str(held.digest))
    card = str(content.get("card"))
    if held.card is not None and held.card != card:
        raise Rejection(f"the card revealed for event #{seq} is not the one sealed")
    if table.decks[held.deck].spec.face(card) != held.face or content.get("draw") != held.id:
        raise Rejection(f"the card revealed for event #{seq} does not match its face or its draw")
    held.card, held.revealed = card, True
    table.due.remove(seq)
    return card


def sealed_seqs(table: Table) -> set[int]:
    return {h.seq for hold in table.holdings.values() for h in hold.cards if h.seq is not None} | (
        {table.key_seq} if table.key_seq is not None else set())
