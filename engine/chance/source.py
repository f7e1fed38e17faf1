"""What a source of chance must say, so the book, the shell and ``verify`` can use it without naming it.

A source is one module of ``engine/chance/sources/`` holding one object that satisfies ``Source``, listed in
``engine/chance/registry.py``. The book (engine/chance/book.py) keeps what every source shares: a roll's label,
range and id, the keys handed out once (``used``), and the public values recorded; a source decides where a roll's
values come from and when they are public:

* ``rounds_offered`` and ``lottery``: what the shell offers with each event (a drand round, the coming draws);
* ``bind``: where a roll is bound, from what the shell offered in ``event.draws`` (the shell's clock never reaches
  the engine), before that value can be known;
* ``records`` / ``record``: the events that bring its public values into the book, each refused if it would
  change a value already recorded;
* ``values``: a roll's values once its public value is known (None while it is not);
* ``wanted``: what its pending rolls wait for, as the boundary's ``Need`` the shell answers;
* ``key`` / ``slots`` / ``describe``: the binding as the ledger, ``/ledger`` and ``verify`` show it;
* ``waits_for`` / ``moment``: when a binding's value becomes public by the clock (``verify``'s timing checks and
  the refusal of an undo once a value is public, engine/takeback.py, both read it here);
* the properties the shell, the games and ``verify`` read: whether a campaign may choose it, whether anyone can
  check it from public data, whether it needs drand rounds or a seed, whether its values have a moment of the clock,
  the range one public number covers (``span``), its values in words, and what it writes into a new
  ``campaign.created`` (``created_fields``) and reads from it (``configure``).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from engine.events import Event
from engine.ruleset import Need

if TYPE_CHECKING:
    from engine.chance.book import Binding, ChanceBook

# A drand chain's round times: (genesis, period), seconds. The chain itself is chosen by the caller
# (engine/chance/pinned_chain.py for verify; the log's claim for an undo's refusal, engine/takeback.py).
Rounds = tuple[int, int]


@runtime_checkable  # so a test can hold every registered source to it without mypy
class Source(Protocol):
    name: str  # as ``campaign.created`` writes it in ``randomness``, and as a binding and a ledger entry name it
    offered: bool  # a campaign may choose it (Discord's and the CLI's choices); False: scenario tests only
    verifiable: bool  # anyone can check every value from public data; False: ``verify`` never passes a campaign
    drand: bool  # its rolls bind to drand rounds (its own or mixed in): the shell pins a chain and offers rounds
    lottery: bool  # its rolls bind to lottery draws: the shell offers the coming draws
    seed: bool  # the shell keeps a secret seed for it and commits to it in ``campaign.created``
    clocked: bool  # its own values are public at a moment of the clock (``moment``): a draw's time, a round's
    margin: dt.timedelta  # how long before its value is public a live binding must be made (``verify``)
    records: tuple[str, ...]  # the event kinds that bring its public values into the book
    # The range one of its public numbers covers (the lottery's 1..90: a wider roll takes several numbers, a game that
    # picks one of many takes 1..span); None: a value of any range costs one public value.
    span: int | None
    values_words: str  # what its public values are, in words a refusal can use: "drand rounds"

    def created_fields(self) -> dict[str, Any]:
        """What a new campaign drawing from it records in ``campaign.created`` (its newest rules)."""
        ...

    def rounds_offered(self, created: Mapping[str, Any]) -> bool:
        """Whether the shell offers a campaign created with ``created`` a future drand round with each event."""
        ...

    def configure(self, book: ChanceBook, setup: Mapping[str, Any]) -> None:
        """Set a new book's rules from ``campaign.created``: a campaign keeps the rules it was created under."""
        ...

    def bind(self, book: ChanceBook, event: Event, label: str, lo: int, hi: int, count: int, *,
             avoid: Sequence[str] = (), whole_wheel: bool = False) -> tuple[str, list[str]]:
        """The roll's label (a source may extend it) and ``where`` its values will come from, or a Rejection; it
        changes nothing of the book before it is sure to succeed. ``avoid`` and ``whole_wheel`` are the lottery's (the
        slots a throw already holds; a wheel of its own under a policy that keeps them for whoever asks): a source
        without slots ignores them."""
        ...

    def record(self, book: ChanceBook, event: Event) -> None:
        """Take in one of ``records``: a public value, never changed once recorded."""
        ...

    def values(self, book: ChanceBook, binding: Binding, event: Event) -> list[int] | None:
        """The roll's values, once its public value is recorded (None while it waits)."""
        ...

    def wanted(self, book: ChanceBook, bindings: Sequence[Binding]) -> list[Need]:
        """What these pending rolls of this source wait for, each once, in the order of the first roll that waits for
        it (empty when nothing the shell can give). Asked for a run of rolls at once: a book asks after every event."""
        ...

    def key(self, binding: Binding) -> str:
        """The binding's public value in one word: a draw's date, a round, a label."""
        ...

    def slots(self, binding: Binding) -> list[list[Any]]:
        """The lottery slots a binding reads, as the ledger lists them ([date, wheel, position, purpose])."""
        ...

    def describe(self, binding: Binding) -> str:
        """Where a roll's values come from, in words, for the binding message and the ledger."""
        ...

    def waits_for(self, key: str) -> tuple[str, str] | None:
        """The public value with a clock behind a ledger key: (source, key), its own or another source's (a mixed
        commit-reveal label waits for its drand round), or None when no clock makes it public."""
        ...

    def moment(self, key: str, rounds: Rounds) -> dt.datetime | None:
        """When the value ``key`` of a clocked source is public (None if the key cannot be read, or not clocked)."""
        ...
