"""Decks declared as data: cards and counts, which face of a card everyone sees, one pile or piles stacked by turn;
a deck's state (draw pile, discard pile, shuffles) and the moves on it (draw from the top or the bottom, discard,
reshuffle). How the order is derived is ``shuffle``; what the game waits for and seals is ``table``.

In a hidden deck the order of the draw pile is known only to a fold that holds the deck key (the bot's, or
``verify``'s once the key is revealed): the export's fold knows the pile's size and what was discarded, nothing
else, and the public view never shows more, so both folds show the same public state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.events import Rejection

MAX_COPIES = 500  # copies of one card in a deck: a bound on what data can ask a fold to shuffle
TOP, BOTTOM = "top", "bottom"


@dataclass(frozen=True)
class DeckSpec:
    """A deck as the game's data declares it."""

    name: str
    # The cards of each pile, sorted: one pile, or several stacked (the first on top: "stacked by turn").
    piles: tuple[tuple[str, ...], ...]
    hidden: bool  # drawn face down and sealed to the holder; the order known only with the deck key
    faces: tuple[tuple[str, str], ...] = ()  # card -> what everyone sees of it held (default: the deck's name)

    def face(self, card: str) -> str:
        return dict(self.faces).get(card, self.name if self.hidden else card)

    def cards(self) -> list[str]:
        return sorted(c for pile in self.piles for c in pile)

    def faces_shown(self) -> list[str]:
        return sorted({self.face(c) for c in self.cards()})


def spec_from_data(name: str, data: dict[str, Any]) -> DeckSpec:
    """A deck from data: ``{"cards": {card: count}}`` or ``{"piles": [{card: count}, ...]}`` (stacked, top first),
    ``"hidden": true|false`` and ``"faces": {card: public face}``. Refused with what was wrong."""
    if not isinstance(data, dict):
        raise Rejection(f"deck '{name}' must be a table of cards, not {data!r}")
    raw_piles = data.get("piles") if "piles" in data else [data.get("cards")]
    if not isinstance(raw_piles, list) or not raw_piles:
        raise Rejection(f"deck '{name}': 'piles' must be a list of tables of cards (card = count)")
    piles = []
    for i, pile in enumerate(raw_piles, start=1):
        if not isinstance(pile, dict) or not pile:
            raise Rejection(f"deck '{name}', pile {i}: a pile is a table of cards (card = count), not {pile!r}")
        cards = []
        for card, count in pile.items():
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COPIES:
                raise Rejection(f"deck '{name}': card '{card}' has count {count!r}; a count is 1 to {MAX_COPIES}")
            cards += [str(card)] * count
        piles.append(tuple(sorted(cards)))
    hidden = data.get("hidden", True)
    if not isinstance(hidden, bool):
        raise Rejection(f"deck '{name}': 'hidden' is true or false, not {hidden!r}")
    faces = data.get("faces") or {}
    every = {c for p in piles for c in p}
    unknown = sorted(str(c) for c in faces if c not in every) if isinstance(faces, dict) else ["(not a table)"]
    if unknown:
        raise Rejection(f"deck '{name}': faces name card(s) not in the deck: {', '.join(unknown)}")
    return DeckSpec(name, tuple(piles), hidden, tuple(sorted((str(c), str(f)) for c, f in faces.items())))


@dataclass
class Shuffle:
    """One shuffle: its roll's label and binding, and the piles it orders (their cards are public: the deck's
    data, or a discard pile that lay face up)."""

    label: str
    roll: int
    piles: list[list[str]]
    done: bool = False


@dataclass
class Deck:
    spec: DeckSpec
    pile: list[str] | None = None  # the draw pile, top first, as this fold knows it; None: not known here
    size: int = 0
    discard: list[str] = field(default_factory=list)
    shuffles: list[Shuffle] = field(default_factory=list)
    drawn: int = 0  # draws so far: names each draw's label

    @property
    def name(self) -> str:
        return self.spec.name

    def ready(self) -> bool:
        """Every shuffle of this deck has its order: draws can go on."""
        return all(s.done for s in self.shuffles)

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"size": self.size, "discard": list(self.discard), "hidden": self.spec.hidden,
                               "shuffles": [{"label": s.label, "roll": s.roll, "done": s.done} for s in self.shuffles]}
        if not self.spec.hidden and self.pile is not None:
            out["pile"] = list(self.pile)  # an open deck's order is public once its value is
        return out


def new_deck(spec: DeckSpec) -> Deck:
    return Deck(spec, [])


def place(deck: Deck, shuffle: Shuffle, ordered: list[list[str]] | None) -> None:
    """A settled shuffle's piles go under what is left of the draw pile (``ordered`` None: this fold cannot know
    the order, it keeps the size only)."""
    shuffle.done = True
    deck.size += sum(len(p) for p in shuffle.piles)
    if ordered is None or deck.pile is None:
        deck.pile = None
        return
    for pile in ordered:
        deck.pile.extend(pile)


def take(deck: Deck, where: str = TOP) -> str | None:
    """The next card from the top or the bottom: the card where this fold knows the order, else None."""
    if where not in (TOP, BOTTOM):
        raise Rejection(f"a card is drawn from the top or the bottom, not '{where}'")
    if not deck.ready():
        raise Rejection(f"the {deck.name} deck is being shuffled: it waits for its public value")
    if deck.size == 0:
        raise Rejection(f"the {deck.name} deck is empty" + (": reshuffle its discard pile" if deck.discard else ""))
    deck.size -= 1
    deck.drawn += 1
    if deck.pile is None:
        return None
    return deck.pile.pop(0 if where == TOP else -1)


def discard(deck: Deck, card: str) -> None:
    if card not in deck.spec.cards():
        raise Rejection(f"'{card}' is not a card of the {deck.name} deck")
    deck.discard.append(card)


def reshuffle_pile(deck: Deck) -> list[str]:
    """The discard pile taken up to be shuffled under the draw pile (the caller binds the shuffle's roll)."""
    if not deck.discard:
        raise Rejection(f"the {deck.name} deck has no discard pile to reshuffle")
    cards, deck.discard = sorted(deck.discard), []
    return cards
