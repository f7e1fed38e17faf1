"""Refusals that read a hidden holding, told to its owner alone (issue 22).

The bot's own fold knows every sealed marker and card, so a game refuses at once an order the hand cannot pay for,
and its reason names the hand (``Rejection.hidden_of``: whose). That reason is for the seat's player only: anyone
else who made the order for the seat (the GM's ``/order <seat> ...``, the scheduler's timeout order) learns that
the order cannot be carried out, not the count or kind it would tell; the owner gets the reason, and a transport
shows it to them alone (``LineAnswer.reason_private``), never in the channel.
"""
from __future__ import annotations

from engine.events import Rejection

# Said to a non-owner: the same words whatever the holding, so the refusal tells no count and no kind.
# Said to the seat's player when someone else's order for it was refused so: the order, then the precise reason.
OWNER_TOLD = "An order given for {seat} by someone else was refused; the reason, for you alone:"
HIDDEN = "this order cannot be carried out; why would tell what {seat} keeps hidden, so only {seat}'s player is told"


def public_reason(exc: Rejection) -> str:
    """The reason anyone may read: the bot's own facts refused (a beacon, a reveal) are said in public, and must not
    read a hand either, should a game ever refuse one from it."""
    return exc.reason if exc.hidden_of is None else HIDDEN.format(seat=exc.hidden_of)


def refusal_reason(exc: Rejection, author_seat: str | None) -> tuple[str, bool]:
    """The reason the author of a refused order may read, and whether it is theirs alone (it reads the hidden
    holding of their own seat, so others must not read it where the author does)."""
    if exc.hidden_of is None:
        return exc.reason, False
    if exc.hidden_of == author_seat:
        return exc.reason, True
    return HIDDEN.format(seat=exc.hidden_of), False


def owner_note(exc: Rejection, author_seat: str | None, player: str | None, text: str,
               understood: str) -> tuple[str, str] | None:
    """For a refusal that hid its reason from its author: the seat's player and what they alone are told (the order
    as it was given, and the reason); None when the author read the reason themselves or the seat has no player."""
    if exc.hidden_of is None or exc.hidden_of == author_seat or not player:
        return None
    return player, (f"{OWNER_TOLD.format(seat=exc.hidden_of)}\n\u201c{text.strip()}\u201d: {understood}: refused: "
                    f"{exc.reason}")
