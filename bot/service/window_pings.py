"""Who a post pings: every seat the game asks to act, but, in an open window (``WINDOW`` prompts: every seat acts
at once until a deadline or until all are done), a seat already asked before the post only when something new is
asked of it (its prompt gained a choice: an offer made to it). Otherwise each post of a busy trading window would
ping every seat still trading again; the seat's deadline reminder pings it once more (bot/schedule/scheduler.py)."""
from __future__ import annotations

from collections.abc import Iterable

from engine.ruleset import WINDOW, Prompt


def window_asked(prompts: Iterable[Prompt]) -> dict[str, frozenset[str]]:
    """The seats asked in an open window, with the choices they were given."""
    return {p.seat: frozenset(p.choices) for p in prompts if p.mode == WINDOW}


def pinged_again(prompt: Prompt, asked: dict[str, frozenset[str]]) -> bool:
    """Whether ``prompt`` is worth a ping, given the window prompts before the post (``window_asked``)."""
    if prompt.mode != WINDOW or prompt.seat not in asked:
        return True
    return not frozenset(prompt.choices) <= asked[prompt.seat]
