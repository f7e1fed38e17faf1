"""The state of a Mediterranean Empires game: what the fold over the event log produces.

Plain mutable dataclasses; ``apply`` works on a deep copy, so the fold stays pure.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from engine.chance.book import ChanceBook
from engine.mediterranean_empires.rules_data import RulesData

if TYPE_CHECKING:  # the state names an order's class only in a hint: reading a state imports no orders
    from engine.mediterranean_empires.orders import Order

PHASES = ("set-up", "stratagems", "political", "recruitment", "operations A", "operations B", "end of turn", "over")


@dataclass
class Unit:
    id: int
    power: str
    kind: str  # field_army, levy, raider, mercenary, fleet
    area: str
    face_down: bool = False  # a neutral's units (3.3.1)
    done: bool = False  # has completed its operations this game turn (10.0)
    combats: int = 0  # combats fought this game turn (14.1: mercenaries that fight none may mutiny)
    redistributed: bool = False  # moved in this End of Turn Phase (5.2: once per unit)


@dataclass
class Force:
    """The force activated now (10.0): one power's units moving and fighting together on the OPs rolled for it."""

    side: str
    power: str
    ids: list[int]  # its units: fleets, or land units
    area: str
    ops: int  # OPs left
    naval: bool
    king: str | None  # the power whose King moves with it, if he was activated with it
    based: bool  # a fleet force has reached a sea next to a friendly city (11.1): it may do more than move
    label: str  # the labels of its rolls begin with it (the order's)
    start: str  # its initial area: no unit joins it there once its OP roll is made (10.0)
    cargo: list[int] = field(default_factory=list)  # land units a fleet force carries (11.2)
    steps: int = 0  # its moves and attacks so far: each one's rolls are labelled by its number


@dataclass
class King:
    power: str
    diplomacy: int
    military: int
    area: str | None  # None: not on the map (dead, or no area to place the new one)
    diplomacy_used: bool = False  # 7.0: a King modifies one political roll per game turn
    died_turn: int | None = None


@dataclass
class SideState:
    side: str  # "A" or "B"
    treasury: int
    # Stratagem markers held (9.0), sealed or open: engine/mediterranean_empires/hand.py.
    hand: list[dict[str, Any]] = field(default_factory=list)
    attempts_left: list[str] = field(default_factory=lambda: ["alliance", "vassalage", "rebellion"])
    pope_used: bool = False
    set_aside: list[list[Any]] = field(default_factory=list)  # crusaders: [power, kind]
    recruited_allies: list[str] = field(default_factory=list)  # allied powers recruited from this turn
    recruits_here: dict[str, int] = field(default_factory=dict)  # units recruited per area this turn
    levy_half: bool = False  # paid half a TP for one levy, the second of the pair is free (6.2)
    gained: int = 0  # TP gained in this Recruitment Phase (income, Gold, Trade): what Piracy reduces (12.0)
    done: bool = False  # finished the current joint step (recruitment, redistribution)


class Waiting(StrEnum):
    """What an order under way waits for (``Pending.kind``)."""

    NONE = "none"  # nothing yet: the order has not been played
    ROLL = "roll"  # a die bound to a public value
    ANSWER = "answer"  # a seat's decision (intercept? avoid combat? a bid)
    REVEAL = "reveal"  # the reveal of the sealed initiative bids
    MARKER = "marker"  # the reveal of a claimed stratagem marker
    SEAL = "seal"  # the bot's seal of a stratagem pick


@dataclass
class Pending:
    """A decision or a roll an order waits for: the order is played again from ``base`` once it is known."""

    kind: Waiting
    label: str
    seat: str | None = None
    question: str = ""
    choices: tuple[str, ...] = ()
    default: str | None = None
    count: int = 0
    sides: int = 0
    mode: str = "reaction"
    # "seal": what the bot's fold derived for the pick ({"content", "public"}), None in the export's fold.
    content: dict[str, Any] | None = None

    def describe(self) -> str:
        """What the game waits for, in words that follow "waiting for" (a refusal, the status card)."""
        if self.kind is Waiting.ANSWER:
            return f"{self.seat} to answer: {self.question}"
        if self.kind is Waiting.REVEAL:
            return "the reveal of the sealed initiative bids"
        if self.kind is Waiting.MARKER:
            return f"the reveal of a {' or '.join(self.choices)} marker of {self.seat}"
        if self.kind is Waiting.SEAL:
            return "the bot's seal of a stratagem pick"
        if self.kind is Waiting.ROLL:
            return f"the roll '{self.label}'"
        return "nothing"


@dataclass
class Action:
    """An order under way: the order, the answers and rolls gathered so far, and the state it began from."""

    side: str
    order: "Order"
    base: "State"
    pending: Pending
    answers: dict[str, Any] = field(default_factory=dict)
    # Answers given under seal (initiative bids): label -> {"seq", "digest", "seat", "choices", and "answer" only in
    # the bot's own fold, which holds the content}. Moved to ``answers`` when the shell reveals them.
    sealed: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Markers revealed for this order's claims, in the order claimed: {"seq", "side", "marker"}.
    revealed: list[dict[str, Any]] = field(default_factory=list)
    # Stratagem picks sealed for this order: label -> {"seq", "digest", "marker" (None when sealed and unknown),
    # "shown"}.
    picks: dict[str, dict[str, Any]] = field(default_factory=dict)
    # How many of the order's messages have been announced: a parked order is played again from its start, and
    # says again what it said before; only what follows is new (the dice of an interception before "counterattack?").
    announced: int = 0


@dataclass
class State:
    turn: int = 1
    phase: str = "stratagems"
    players: dict[str, str] = field(default_factory=dict)  # seat -> user
    gm: str = ""  # the GM named in campaign.created: whose corrections (gm.set) the game takes
    units: dict[int, Unit] = field(default_factory=dict)
    # The majors' units still to place in the set-up (3.1-3.2), by id; each keeps the data's area, the standard set-up.
    unplaced: dict[int, Unit] = field(default_factory=dict)
    next_unit: int = 1
    status: dict[str, str] = field(default_factory=dict)  # power -> major/ally/vassal/neutral
    side_of: dict[str, str | None] = field(default_factory=dict)  # power -> A/B/None
    owner: dict[str, str] = field(default_factory=dict)  # land area -> "A"/"B" or the power that holds it
    start_control: dict[str, str | None] = field(default_factory=dict)  # side in total control after set-up
    kings: dict[str, King] = field(default_factory=dict)
    king_pool: dict[str, list[list[int]]] = field(default_factory=dict)
    sides: dict[str, SideState] = field(default_factory=dict)
    # Stratagem markers nobody has shown: the pool and both hands' sealed markers (hand.py), sorted.
    unseen: list[str] = field(default_factory=list)
    # The bot's pick key: {"seq", "digest", "salt" (the bot's fold, or once revealed), "revealed"} (hand.py).
    pick_key: dict[str, Any] | None = None
    drawn_this_phase: dict[str, int] = field(default_factory=dict)
    played: list[list[str]] = field(default_factory=list)  # [side, marker] kept face up until end of turn
    pope: str | None = None  # the side whose Pope marker stands in Rome
    pope_holder: str | None = None  # the last side to hold the Pope marker (8.2 rolls for it)
    plague: bool = False
    political_round: int = 1
    to_move: str = "A"  # in alternating joint steps
    first: str | None = None  # who chose to go first in recruitment/redistribution
    standing: dict[str, list[str]] = field(default_factory=dict)  # seat -> standing orders
    action: Action | None = None
    actions_done: int = 0  # orders that used dice or answers: numbers their labels
    force: Force | None = None  # the force activated now
    winner: str | None = None
    vp: dict[str, int] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    # Every roll bound to a public value, and its values once settled; the dice an order asks for by label are read
    # there (chance.Drawn): a state pickled before keeps an unused ``rolls`` copy of them. ``initial_state`` gives it
    # the campaign's source; a bare State (a rule test's) has a drand book.
    book: ChanceBook = field(default_factory=ChanceBook)
    options: list[str] = field(default_factory=list)  # campaign options chosen at creation (options.py)
    rules_version: int = 1  # the reading of the seed the campaign follows (rules_version.py)

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        from engine.mediterranean_empires.fastcopy import copy_state

        return copy_state(self, memo)

    def units_in(self, area: str) -> list[Unit]:
        return [u for u in self.units.values() if u.area == area]


def new_state(rules: RulesData) -> State:
    """The set-up of 3.1-3.3 as the data places it (a legal placement the players may change by GM edits)."""
    st = State()
    for p in rules.powers.values():
        st.status[p.name] = p.status
        st.side_of[p.name] = p.side
        for area in p.areas:
            st.owner[area] = p.side if p.status == "major" and p.side is not None else p.name
        for area, kind in p.units:
            st.units[st.next_unit] = Unit(st.next_unit, p.name, kind, area, face_down=p.status in ("neutral", "vassal"))
            st.next_unit += 1
        if p.king is not None:
            st.kings[p.name] = King(p.name, p.king[0], p.king[1], p.king_at)
        st.king_pool[p.name] = [list(k) for k in p.king_pool]
    for side, tp in rules.treasury.items():
        st.sides[side] = SideState(side, tp)
    st.unseen = sorted(m for m, n in rules.markers.items() for _ in range(n))
    return st
