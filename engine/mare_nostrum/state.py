"""The state of a Mare Nostrum campaign: what the fold over the event log produces.

Plain mutable dataclasses; the rules copy the state before changing it, so ``apply`` stays pure. The copy
(``State.__deepcopy__``) shares what no event can change any more: the records of closed turns (history, their
battles and rolls) and, through the chance book's own copy, its settled rolls, recorded values and older keys. So
applying an event costs about the same at turn 1 and at turn 500.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from engine.chance.book import Binding, ChanceBook

_T = TypeVar("_T")


def _shallow(obj: _T) -> _T:
    """``copy.copy`` of one of these dataclasses without the reduce protocol (several times faster): their fields
    live in ``__dict__``. Applying one event copies every nation and province, so this is most of its cost."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


@dataclass
class NationState:
    name: str
    player: str | None
    stability: int
    alive: bool = True
    fate: str | None = None  # how it left the game
    actions: int = 0  # actions left this turn
    actions_total: int = 0
    passed: bool = False
    event: str | None = None  # this turn's random event's name
    event_number: int | None = None
    event_province: str | None = None  # the province an invasion strikes
    # Effects of this turn's event that last the turn ("siege_train", "naval_technology", ...).
    effects: list[str] = field(default_factory=list)
    # Event choices still open this turn ("earthquake", "great_blaze", "defensive_artworks").
    choices: list[str] = field(default_factory=list)
    defensive_artworks: str | None = None  # the province that counts as fortified this turn
    # Builds declared this turn, completed when the player ends their turn: [kind, place].
    pending_builds: list[list[str]] = field(default_factory=list)
    # Nations that may not attack this nation this turn (a peace treaty it imposed on them).
    peace_with: list[str] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> "NationState":
        # Applying an event copies every nation: a shallow copy and the few lists (of strings) beat the generic deepcopy.
        new = _shallow(self)
        new.effects, new.choices, new.peace_with = list(self.effects), list(self.choices), list(self.peace_with)
        new.pending_builds = [list(b) for b in self.pending_builds]
        return new


@dataclass
class ProvinceState:
    owner: str | None  # None: independent
    fortification: bool = False
    suburbs: bool = False
    temple: bool = False
    held_by: str | None = None  # the invader force holding an independent province, if it took it

    def __deepcopy__(self, memo: dict[int, Any]) -> "ProvinceState":
        return _shallow(self)  # every field is a string or a bool


# The randomness sources of a campaign (the ``randomness`` of ``campaign.created``, the chance book's source), and
# the ``draw`` of a Roll bound to the commit-reveal seed rather than to a lottery slot.
LOTTERY = "lottery"
COMMIT_REVEAL = "commit-reveal"
DRAND = "drand"
RANDOMNESS = (LOTTERY, COMMIT_REVEAL, DRAND)

# Battles still to be decided: the turn cannot close while one of these is open.
OPEN_BATTLE = ("to_fight", "waiting_roll", "claimed", "disputed", "siege")


@dataclass
class Battle:
    id: int
    turn: int
    kind: str  # "land", "amphibious", "alliance", "invasion", "naval", "pirates"
    province: str | None  # the land target; None for a purely naval battle
    sea: str | None
    attacker: str  # a nation, an invader force, or "Pirates"
    attacker_nation: str | None  # the nation whose side attacks (the ally; None for invaders/pirates)
    attacker_player: str | None  # who plays the attacking army
    attacker_army: str
    defender: str | None  # a nation, or None for an independent province / pirates
    defender_army: str
    base: str | None = None
    # Fleets engaged, for naval battles and the naval phase of an amphibious attack.
    attacker_fleets: int = 0
    defender_fleets: int = 0
    # The side the naval phase of an amphibious attack is fighting now (a nation or "Pirates"): every fleet in the sea
    # that is not the attacker's is "an enemy fleet" and is fought in turn, the defender's first.
    naval_opponent: str | None = None
    status: str = "to_fight"  # waiting_roll, to_fight, claimed, disputed, siege, won, lost, held, aborted, draw
    claimed_by: str | None = None  # the player who reported their own victory, awaiting the other's word
    winner: str | None = None
    reported_by: str | None = None
    notes: list[str] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Battle":
        new = _shallow(self)
        new.notes = list(self.notes)
        return new


@dataclass
class Roll:
    """A roll as Mare Nostrum's rules read it: its binding in the campaign's chance book (its id, purpose, nation and
    meaning, where its number comes from, and the number once known), and what only the game says of it."""

    turn: int
    binding: Binding
    ref: int | None = None  # the battle it decides
    target: str | None = None  # the nation a peace treaty is offered to
    outcome: str | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "Roll":
        # The book is copied first (``State.__deepcopy__``): a binding it copied is in ``memo``, one it shares is not.
        new = _shallow(self)
        new.binding = memo.get(id(self.binding), self.binding)
        return new

    @property
    def id(self) -> int:
        return self.binding.id

    @property
    def purpose(self) -> str:  # "peace_treaty", "alliance", "siege", "naval_attacker", "naval_defender", ...
        return self.binding.purpose

    @property
    def nation(self) -> str | None:
        return self.binding.seat

    @property
    def meaning(self) -> str:  # what the ranges of numbers will mean, announced with the binding
        return self.binding.meaning

    @property
    def number(self) -> int | None:
        values = self.binding.values
        return None if values is None else values[0]

    @property
    def draw(self) -> str:
        """A lottery roll's date (YYYY-MM-DD), a drand roll's "drand:<round>", or COMMIT_REVEAL."""
        source = self.binding.source
        if source == LOTTERY:
            return self.binding.where[0].split("|", 1)[0]
        return self.binding.where[0] if source == DRAND else COMMIT_REVEAL

    @property
    def wheel(self) -> str:
        return self.binding.where[0].split("|")[1] if self.binding.source == LOTTERY else ""

    @property
    def position(self) -> int:
        return int(self.binding.where[0].split("|")[2]) if self.binding.source == LOTTERY else 0

    @property
    def label(self) -> str | None:
        """The label a drand or commit-reveal roll's number is derived from (a lottery roll's is never read)."""
        return None if self.binding.source == LOTTERY else self.binding.label

    def where(self) -> str:
        """Where the number comes from, for messages: '2023-01-05 PA', or the commit-reveal label."""
        if self.draw == COMMIT_REVEAL:
            return f"commit-reveal '{self.label}'"
        return f"{self.draw} {self.wheel}"

    def source(self) -> str:
        """The same, as a phrase: 'the draw of 2023-01-05 (PA)', or 'the commit-reveal label '...''."""
        if self.draw == COMMIT_REVEAL:
            return f"the commit-reveal label '{self.label}'"
        return f"the draw of {self.draw} ({self.wheel})"


@dataclass
class GmRoll:
    """A GM's ad-hoc roll (/roll 2d6 label): its dice, each bound to one or two lottery slots (Roll)."""

    id: int
    turn: int
    dice: str  # canonical, e.g. "3d6+1"
    label: str
    by: str
    # Per die, the ids of the Rolls it was made from, in order: a refused pair adds the next pair after it.
    slots: list[list[int]] = field(default_factory=list)
    values: list[int | None] = field(default_factory=list)
    total: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "GmRoll":
        new = _shallow(self)
        new.slots, new.values = [list(s) for s in self.slots], list(self.values)
        return new


@dataclass
class TurnRecord:
    """A line of history per closed turn, for charts and the final reckoning."""

    turn: int
    provinces: dict[str, int]
    stability: dict[str, int]


@dataclass
class State:
    ruleset: str
    gm: str
    digest: str
    turn: int = 0
    phase: str = "setup"  # setup, awaiting_draw, orders, battles, closed, over
    turn_draw: str | None = None
    requested: str | None = None
    order_of_play: list[str] = field(default_factory=list)
    current: int = 0  # index in order_of_play of the nation to act
    nations: dict[str, NationState] = field(default_factory=dict)
    provinces: dict[str, ProvinceState] = field(default_factory=dict)
    fleets: dict[str, dict[str, int]] = field(default_factory=dict)  # sea -> nation -> count
    pirates: list[str] = field(default_factory=list)  # seas with pirates
    attacked: list[str] = field(default_factory=list)  # provinces attacked this turn
    naval_attacked: list[str] = field(default_factory=list)  # "sea|side" fleets attacked this turn
    battles: list[Battle] = field(default_factory=list)
    # The campaign's rolls as its chance book holds them (bound, and settled from the draws, beacons and numbers it
    # records), before the rolls that read them: a copy of the state copies the book first (``Roll.__deepcopy__``).
    book: ChanceBook = field(default_factory=ChanceBook)
    rolls: list[Roll] = field(default_factory=list)
    gm_rolls: list[GmRoll] = field(default_factory=list)
    history: list[TurnRecord] = field(default_factory=list)
    winner: str | None = None
    locked: str | None = None  # orders locked by the GM: the reason given
    next_id: int = 1
    # Campaigns under the clock rules (engine/takeback.py): an id once handed out is never handed out again, not
    # even after an undo, so a roll bound again is another roll. Older campaigns reuse it and fold as they did.
    fresh_ids: bool = False
    # Where the rolls beyond the order of play and the events come from: LOTTERY, COMMIT_REVEAL or DRAND.
    randomness: str = LOTTERY
    commitment: str | None = None  # commit-reveal: SHA-256 of the seed, published at creation
    seed: str | None = None  # commit-reveal: the seed, once the GM revealed it (then no roll binds any more)
    # How many battles, rolls and GM rolls are final (those of closed turns): see ``seal``.
    sealed: tuple[int, int, int] = (0, 0, 0)

    def seal(self) -> None:
        """Mark every battle, roll and GM roll made so far as final: called at the close of a turn, which
        ``close_turn`` refuses while a battle is open or a roll waits for its number (a GM roll's dice are settled
        with its last number). From then on a copy of the state shares them instead of copying them."""
        self.sealed = (len(self.battles), len(self.rolls), len(self.gm_rolls))

    def open_rolls(self) -> list[Roll]:
        """The rolls made since the last turn closed: only these can still wait for their number (``seal``), so
        what the game waits for is found without walking every roll of the campaign."""
        return self.rolls[self.sealed[1]:]

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        new = _shallow(self)
        memo[id(self)] = new
        sealed = dict(zip(SHARED_RECORDS, self.sealed))
        old, copied = self.__dict__, new.__dict__
        for name in _field_names():
            value = old[name]
            if name in sealed:
                # The sealed records (those of closed turns) are shared; those made since are copied.
                cut = sealed[name]
                copied[name] = value[:cut] + [copy.deepcopy(r, memo) for r in value[cut:]]
            elif name in SHALLOW:
                copied[name] = copy.copy(value)
            elif value is None or type(value) in _IMMUTABLE:
                pass  # the shallow copy holds it already
            elif name == "nations":
                copied[name] = {k: n.__deepcopy__(memo) for k, n in value.items()}
            elif name == "provinces":
                copied[name] = {k: _shallow(p) for k, p in value.items()}
            elif name in STRING_LISTS:
                copied[name] = list(value)
            elif name == "fleets":
                copied[name] = {sea: dict(counts) for sea, counts in value.items()}
            else:
                copied[name] = copy.deepcopy(value, memo)
        return new

    def new_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def owned(self, nation: str) -> list[str]:
        return [name for name, p in self.provinces.items() if p.owner == nation]

    def alive_nations(self) -> list[str]:
        return [n for n, s in self.nations.items() if s.alive]

    def acting(self) -> str | None:
        if self.phase != "orders" or self.current >= len(self.order_of_play):
            return None
        return self.order_of_play[self.current]

    @property
    def commit_reveal_rule(self) -> int:
        """commit-reveal: 2 for a campaign whose numbers come from their drand round alone, checked as they are
        recorded (engine/commit_reveal.py); 1 for the seed's own, and for every other campaign."""
        return self.book.rule

    @property
    def draws(self) -> dict[str, dict[str, list[int]]]:
        """The lottery draws recorded (the turn's own and the rolls'), as the book keeps them: date -> wheel -> numbers."""
        return self.book.draws

    def gm_roll(self, roll_id: int) -> GmRoll:
        for g in reversed(self.gm_rolls):  # the one asked for is nearly always of the open turn
            if g.id == roll_id:
                return g
        raise KeyError(roll_id)

    def roll(self, roll_id: int) -> Roll:
        for r in reversed(self.rolls):  # the one asked for is nearly always of the open turn
            if r.id == roll_id:
                return r
        raise KeyError(roll_id)

    def battle(self, battle_id: int) -> Battle:
        for b in reversed(self.battles):  # the one asked for is nearly always of the open turn
            if b.id == battle_id:
                return b
        raise KeyError(battle_id)


# The state's fields a copy shares element by element (see ``State.__deepcopy__``), in the order of ``sealed``.
SHARED_RECORDS = ("battles", "rolls", "gm_rolls")
# Fields whose elements no event changes once written: a shallow copy is a full one. A TurnRecord is written once, at
# the close of its turn. (The book copies itself, sharing its settled rolls and recorded values: ``ChanceBook``.)
SHALLOW = ("history", "sealed")
# Fields holding lists of strings only: a new list is a full copy. ``fleets`` (sea -> nation -> count) is copied two
# levels deep; any other field not named here goes through the generic deepcopy.
STRING_LISTS = ("order_of_play", "pirates", "attacked", "naval_attacked")
_IMMUTABLE = (str, int, bool, float)
_FIELDS: tuple[str, ...] = ()


def _field_names() -> tuple[str, ...]:
    global _FIELDS
    if not _FIELDS:
        _FIELDS = tuple(f.name for f in fields(State))
    return _FIELDS
