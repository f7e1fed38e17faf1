"""The boundary between the shell and a game: what every ruleset provides, and nothing more.

The shell (Discord, the console, the scheduler, verify, the ledger, the renderers) knows only this module.
A game is a package under ``engine/`` with its data under ``data/``, registered in ``engine/rulesets.py``.

* A game's state is an opaque value, rebuilt by folding ``apply`` over the event log.
* ``read_post`` turns a player's post into proposals, one per order line; ``read_command`` does the same for
  the game's own slash commands (``commands()`` lists them, with help and arguments for autocomplete).
* ``prompts`` says who must act now and how: in turn, as a reaction to another seat's move, sealed (hidden
  until all are in, then revealed at once), in an open window, a vote or a bid; with the time the game
  suggests and the order applied when that time runs out.
* ``seats`` lists the seats (2 to 6 players), each commanding one or more powers; ``private_view`` is what
  only one seat may see (a hand, markers, its own sealed orders); ``public_view`` is what everyone may see.
* ``needs`` lists the public values the game waits for (lottery draws, drand rounds, numbers from a seed):
  chance is asked for by label and range and bound to the campaign's source (``engine/chance/``).
* ``summary`` gives the turn label, phase, whether the game is over and who won, for every face to show;
  ``picture`` gives the map as neutral shapes (grid cells or areas with links) that one renderer draws.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from engine.area_drawing import Drawing
from engine.events import Event
from engine.names import Resolution

# How a seat is asked to act (``Prompt.mode``).
IN_TURN = "turn"  # one seat after another, in an order of play
REACTION = "reaction"  # an answer to another seat's move (intercept? avoid combat?), with a default
SEALED = "sealed"  # orders hidden until every seat has given them, then revealed at once
WINDOW = "window"  # anyone may act until a deadline or until all say they are done
VOTE = "vote"
BID = "bid"  # a sealed amount
MODES = (IN_TURN, REACTION, SEALED, WINDOW, VOTE, BID)


@dataclass(frozen=True)
class Proposal:
    """One line of a post, as the ruleset read it."""

    line_no: int
    text: str
    kind: str | None = None  # the event kind to try, when the line was understood
    data: dict[str, Any] = field(default_factory=dict)
    understood: str = ""  # the order as understood, in words
    error: str | None = None
    # Sealed orders: what only the author's seat may see until the reveal. The public event then carries only
    # the digest of ``secret`` (engine/secrets.py), and the shell keeps ``secret`` in its private store.
    secret: dict[str, Any] | None = None


@dataclass(frozen=True)
class Transition:
    state: Any
    messages: tuple[str, ...] = ()  # public announcements caused by the event, in order
    # Announcements for one seat only (its hand, a sealed marker drawn): {seat: (message, ...)}.
    private: dict[str, tuple[str, ...]] = field(default_factory=dict)


class Said:
    """What one event says while a game applies it: public announcements, and those for one seat only. Call it with
    the text (and the seat); ``transition`` makes the Transition that carries them."""

    def __init__(self) -> None:
        self.public: list[str] = []
        self.private: dict[str, list[str]] = {}

    def __call__(self, text: str, seat: str | None = None) -> None:
        (self.public if seat is None else self.private.setdefault(seat, [])).append(text)

    def transition(self, state: Any) -> Transition:
        return Transition(state, tuple(self.public), {s: tuple(m) for s, m in self.private.items()})


@dataclass(frozen=True)
class Prompt:
    """Who must act now, and how."""

    seat: str
    mode: str = IN_TURN
    what: str = "your orders"  # what is asked, in words ("intercept the Aragonese fleet in the Tyrrhenian Sea?")
    # One-click answers (buttons): each is an order line the shell posts for the seat, e.g. "pass", "intercept".
    choices: tuple[str, ...] = ()
    # The order line applied for the seat when its time runs out ("pass", "do not intercept"); None: wait for the GM.
    on_timeout: str | None = "pass"
    hours: float | None = None  # the time the game suggests; the campaign's settings may override it
    # The whole line the GM's timeout posts for the seat, when the game has a command of its own for it (Mare
    # Nostrum: "/gm pass <seat> timeout", which keeps the reason in the log); None: ``on_timeout`` as the seat's order.
    timeout_line: str | None = None


@dataclass(frozen=True)
class Seat:
    """A player's place at the table: its name, the powers it commands, who plays it."""

    name: str
    powers: tuple[str, ...] = ()
    player: str | None = None
    alive: bool = True


@dataclass(frozen=True)
class Summary:
    """What every face shows of a campaign at a glance."""

    turn: int  # a number that rises with each game turn (threads, history, reminders key on it)
    turn_label: str  # "Turn 3 (284 BC)", "Game turn 2 (1291–1300)"
    phase: str  # "orders", "battles", "stratagems", "closed", ...
    playing: bool = True  # orders are taken now (a thread for the turn makes sense)
    over: bool = False
    winner: str | None = None
    headline: tuple[str, ...] = ()  # lines for a turn's announcement (order of play, events drawn, ...)
    # The lottery draw the game stands at (a historical campaign offers only later draws to bind rolls to).
    draw: str | None = None
    closed_turn: int = 0  # the last game turn that has ended: its results (map, charts) can be posted
    # The seats in their order of play this turn, when the game has one (one seat after another); empty when it has
    # none (sealed orders, a window, two sides alternating). The shell warns the seat after the one playing.
    order: tuple[str, ...] = ()


@dataclass(frozen=True)
class Argument:
    """One argument of a game command. ``kind`` names a vocabulary the ruleset resolves and autocompletes
    (``names(kind)``), or "text", "number", "choice" (then ``choices``), or "attachment": a file the transport
    shows with an accepted command (a screenshot); it never reaches ``read_command`` and cannot be typed."""

    name: str
    kind: str = "text"
    help: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False
    rest: bool = False  # takes the rest of the line


@dataclass(frozen=True)
class CommandSpec:
    """A slash command a game adds (``/battle <province> winner <side>``): the shell builds the Discord command,
    the help and the receipts from it, and hands the typed line to ``read_command``."""

    name: str  # may hold a space for a group: "gm set"
    help: str
    arguments: tuple[Argument, ...] = ()
    gm_only: bool = False
    example: str = ""

    def usage(self) -> str:
        parts = []
        for a in self.arguments:
            if a.kind == "attachment":
                continue  # a file goes with the slash command, it is not typed
            shown = f"<{a.name}>" if not a.choices else "|".join(a.choices)
            parts.append(f"[{shown}]" if a.optional else shown)
        return " ".join([f"/{self.name}", *parts])


# What a ``Need`` asks of the shell besides a source of chance's public value (engine/chance/registry.py names those).
NEED_REVEAL = "secret"  # a sealed content's reveal: key = the seq of the sealed event
NEED_SEAL = "seal"  # a seal of the bot's own: its key and ``content``


@dataclass(frozen=True)
class Need:
    """A public value the game waits for: a lottery draw ("lottery", "2023-01-05"), a drand round ("drand",
    "1234567"), or the number of a commit-reveal label ("commit-reveal", label); or a sealed content due from the
    shell: its reveal (NEED_REVEAL, seq of the sealed event) or a seal of the bot's own (NEED_SEAL, key, content)."""

    source: str
    key: str
    # For a commit-reveal label: the values the shell derives from the seed (engine/chance/derive.py's rule).
    lo: int = 1
    hi: int = 90
    count: int = 1
    # For a commit-reveal label mixed with a drand round (engine/commit_reveal.py): that round's randomness (hex),
    # once recorded; the game asks for the label only then, and for the round's beacon before.
    mix: str = ""
    # For a NEED_SEAL need (the bot seals content of its own, e.g. a stratagem marker drawn): canonical JSON of
    # {"content": what to seal, "public": what the sealing event shows}. Only the bot's fold, which holds the
    # private store, can give it; the shell appends a ``secret.sealed`` event with the digest (engine/secrets.py).
    content: str = ""


@dataclass(frozen=True)
class Space:
    """One space of a map picture: a grid cell group or an area. ``cells`` are (column, row) of a grid map;
    ``at`` is the (x, y) centre of an area map in the map's own units. ``fill`` names who colours it (a power)."""

    name: str
    kind: str = "land"  # "land" or "sea"
    cells: tuple[tuple[int, int], ...] = ()
    at: tuple[float, float] | None = None
    fill: str | None = None
    marks: tuple[str, ...] = ()  # short labels drawn in it: "F" fortified, "2 fleets", "siege", ...
    highlight: bool = False  # attacked, contested: drawn with a warning outline
    glyphs: tuple["Glyph", ...] = ()  # icons drawn in it, in the order given
    role: str = ""  # what the space is to its power: "capital", "home", "border", ... (for a renderer's hints)
    note: str = ""  # one line under the name: "held by the Dardanians"


# The icons a renderer knows how to draw; a game picks from them (``Glyph.kind``, ``Picture.key``).
GLYPHS = ("capital", "fortification", "suburbs", "temple", "battle", "fleet", "pirates")
HIGHLIGHT = "highlight"  # in ``Picture.key``: what a highlighted space means


@dataclass(frozen=True)
class Glyph:
    """An icon in a space: one of ``GLYPHS``, the power it belongs to (a fleet's), and a count (its ships)."""

    kind: str
    power: str | None = None
    count: int = 0


@dataclass(frozen=True)
class Standing:
    """A legend row: a power (None: the spaces nobody holds), what is said of it, its player and count."""

    power: str | None
    text: str
    player: str | None = None
    count: int = 0
    alive: bool = True


@dataclass(frozen=True)
class ChartSeries:
    """A history chart: one value per power at each step. ``steps`` are (x, label under x, {power: value});
    ``top`` makes a level scale (every unit ticked, from 0 up to at least ``top``), else a count scale."""

    kind: str  # "provinces", "stability": what is counted, shown on the y axis
    title: str  # "Provinces per nation"
    steps: tuple[tuple[int, str, dict[str, int]], ...] = ()
    top: int | None = None
    x_name: str = "turn"


@dataclass(frozen=True)
class Picture:
    """A game's map at one moment, in shapes any renderer can draw: no game knowledge needed to paint it."""

    title: str
    subtitle: str = ""
    grid: tuple[int, int] | None = None  # (columns, rows) for a grid map; None for an area map
    spaces: tuple[Space, ...] = ()
    links: tuple[tuple[str, str], ...] = ()  # adjacencies drawn as lines on an area map
    legend: tuple[tuple[str, str], ...] = ()  # (power, text) in the order shown
    powers: tuple[str, ...] = ()  # every power that may colour a space, in a fixed order (stable colours)
    colours: tuple[tuple[str, str], ...] = ()  # (power, "#rrggbb") the game's data asks for
    # Named lines beside the title: ("draw", "lottery draw of 2023-01-10"), ("phase", "Orders: the Romans to play").
    info: tuple[tuple[str, str], ...] = ()
    standings: tuple[Standing, ...] = ()  # the legend with players and counts; ``legend`` when empty
    key: tuple[tuple[str, str], ...] = ()  # (glyph kind or HIGHLIGHT, meaning): what the marks mean
    charts: tuple[ChartSeries, ...] = ()  # the history, one per kind of chart
    # An area map drawn over a real coastline (engine/area_drawing.py); None: areas drawn around their centres alone.
    drawing: Drawing | None = None


class Ruleset(Protocol):
    id: str
    title: str
    # Where the game's rolls come from unless the campaign chooses: "drand" for games that roll a lot and fast,
    # "lottery" for the forum campaigns that mirror the Italian Lotto, "commit-reveal".
    randomness: str

    def initial_state(self, setup: dict[str, Any]) -> Any: ...

    def apply(self, state: Any, event: Event, *, in_place: bool = False) -> Transition:
        """Pure: returns a new state, never changes ``state``; raises Rejection with the reason.

        ``in_place`` lets a replay, which owns its state and drops it on any error, skip the copy.
        """
        ...

    def read_post(self, state: Any, actor: str, text: str, seat: str | None = None) -> list[Proposal]:
        """``seat`` gives the orders for that seat (the GM's /order); else the actor's own seat."""
        ...

    def commands(self) -> list[CommandSpec]:
        """The game's own slash commands (beyond the shell's /turn, /order, /gm undo, /roll, ...)."""
        ...

    def read_command(self, state: Any, actor: str, name: str, args: list[str], *, is_gm: bool) -> Proposal:
        """One of ``commands()`` as typed: the event to try, or the error naming what was wrong."""
        ...

    def names(self, kind: str) -> list[str]:
        """Every name of a vocabulary ("power", "area", "sea", ...) for autocomplete."""
        ...

    def resolve(self, kind: str, text: str) -> Resolution:
        """A name typed in a command: its ``name`` (the canonical name) or its ``error`` (what was wrong)."""
        ...

    def seats(self, state: Any) -> list[Seat]: ...

    def seat_of(self, state: Any, user: str) -> str | None: ...

    def player_of(self, state: Any, seat: str) -> str | None: ...

    def prompts(self, state: Any) -> list[Prompt]: ...

    def to_act(self, state: Any) -> list[str]:
        """The seats that must act now (those of ``prompts``)."""
        ...

    def public_view(self, state: Any) -> dict[str, Any]: ...

    def private_view(self, state: Any, seat: str) -> dict[str, Any]:
        """What only ``seat`` may see; never shown to another seat, nor in /state or the export. It may hold
        ``"choices"``: order lines the seat may give with one click from its private view (a card to play, an offer
        to accept or decline), at most 25 of at most 100 characters; the transports show them as a menu."""
        ...

    def summary(self, state: Any) -> Summary: ...

    def status(self, state: Any) -> str: ...

    def picture(self, state: Any) -> Picture: ...

    def needs(self, state: Any) -> list[Need]:
        """The public values (draws, rounds, seed numbers) the game waits for now."""
        ...

    def wanted_draws(self, state: Any) -> list[str]:
        """The lottery dates among ``needs``."""
        ...

    def ledger(self, state: Any) -> list[dict[str, Any]]:
        """Every roll bound so far, each a dict: id, turn, purpose, seat, source ("lottery", "drand",
        "commit-reveal"), key (its date, round or label), where (in words), values (None while pending), outcome,
        meaning, and for lottery rolls slots ([date, wheel, position, what it served], ...).
        ``engine.chance.book.ledger_entry`` makes one from a chance binding."""
        ...

    def carry_over(self, before: Any, after: Any) -> Any:
        """After a GM undo: keep what must survive it (slots of lottery numbers already seen)."""
        ...


# What a game may add to ``Ruleset``. The shell asks ``isinstance(ruleset, MarksLedger)`` (runtime checkable: it
# looks the method up, as ``getattr`` did), and the type checker then knows the method and its signature.


@runtime_checkable
class MarksLedger(Protocol):
    def ledger_mark(self, state: Any) -> object:
        """A value that changes whenever ``ledger(state)`` gains an entry, loses one or binds one again elsewhere
        (its values filling in need not change it). ``verify`` reads the ledger again only when it changes, or after
        an undo or a void; a game without it has its ledger read after every event."""
        ...


@runtime_checkable
class OffersOptions(Protocol):
    @property
    def options(self) -> dict[str, str]:
        """The campaign options a GM may choose at creation (name -> what it turns on: an optional rule, a
        scenario); ``initial_state`` finds the chosen ones in ``setup["options"]``. A game without it has none."""
        ...


@runtime_checkable
class RefusesShellCommands(Protocol):
    def shell_refusals(self, state: Any) -> dict[str, str]:
        """The shell's commands this game has no use for (``"turn open"``, ``"roll"``, ...), each with what to do
        instead. The shell leaves them out of /help and answers them with that, before anything is tried. A game
        without it takes every shell command."""
        ...


@runtime_checkable
class MarksTimeouts(Protocol):
    def timed_out(self, event: Event) -> str | None:
        """The seat ``event`` passed because its time ran out (what its ``Prompt.timeout_line`` posted), else None.
        The scheduler asks it of the events since a deadline, to tell a seat an earlier run passed for its timeout
        (and died before saying so) from one that played in time. A game without it: the seat played in time."""
        ...


@runtime_checkable
class VersionsRules(Protocol):
    """A game whose reading of its rules changed under campaigns already played: the shell writes the newest into a
    new ``campaign.created`` and the fold follows the one its log recorded (a log without it: the first). A game
    without it records none."""

    rules_version: int


@runtime_checkable
class DigestedRules(Protocol):
    digest: str  # sha256 of the rules files a campaign was created under


@runtime_checkable
class ReadsRulesFiles(Protocol):
    """A game read from rules files whose digest (``rules.digest``, a ``DigestedRules``) a new ``campaign.created``
    records and a fold's snapshot is keyed on; ``rules_digest`` reads it."""

    rules: object


@runtime_checkable
class KeepsGM(Protocol):
    """A game state that keeps its campaign's GM (every game's does; Mare Nostrum's names "gm" when
    ``campaign.created`` names none), whom the fold asks for a GM's undo."""

    gm: str


def rules_digest(ruleset: object) -> str:
    """The digest of the rules files ``ruleset`` was read from, or "" for a game that keeps none."""
    rules = ruleset.rules if isinstance(ruleset, ReadsRulesFiles) else None
    return rules.digest if isinstance(rules, DigestedRules) else ""


def command_as_post(ruleset: Ruleset, state: Any, actor: str, name: str, args: list[str],
                    commands: Sequence[CommandSpec], to_line: Callable[[str, list[str]], str]) -> Proposal:
    """``read_command`` of a game whose slash commands are its typed orders in another form: the command written as
    the line a player would post (``to_line``, which raises ValueError with the reason), read as that post."""
    if name not in {c.name for c in commands}:
        return Proposal(0, f"/{name}", error=f"{ruleset.title} has no command /{name}: post orders instead")
    try:
        line = to_line(name, args)
    except ValueError as exc:
        return Proposal(0, f"/{name}", error=str(exc))
    proposals = ruleset.read_post(state, actor, line)
    return proposals[0] if proposals else Proposal(0, line, error=f"'/{name}' gave no order")
