"""How a question to a seat is said (a reaction, a bid, a sealed order), the same on every face: the game's own
words, the one-click answers, and what happens if no answer comes in time (``Prompt.on_timeout``)."""
from __future__ import annotations

from engine.ruleset import BID, REACTION, VOTE


def is_question(mode: str) -> bool:
    """A prompt that asks for an answer (a reaction, a bid, a vote), not for a seat's orders (in turn, sealed, in a
    window): those are "your turn"."""
    return mode in (REACTION, BID, VOTE)


def question_text(seat: str, what: str, choices: tuple[str, ...], on_timeout: str | None) -> str:
    answers = f" Answer {' or '.join(repr(c) for c in choices)}." if choices else ""
    late = f" If no answer comes in time: {on_timeout!r}." if on_timeout else " If no answer comes in time, the GM decides."
    return f"{seat}, {what}{answers}{late}"
