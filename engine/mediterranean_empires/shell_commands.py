"""The shell's commands Mediterranean Empires has no use for, each answered with what to do instead.

The game has no turns a GM opens or closes (its seven game turns move on as the players finish their phases), its
dice come from the orders that need them, and it has no GM ruling of its own yet: a newcomer who types what the
campaign game (Mare Nostrum) takes is told how this game is played rather than "does not know the event".
"""
from __future__ import annotations

from engine.chance import registry
from engine.mediterranean_empires.state import State

FIRST_ORDER = "Player A begins the game turn with 'draw' (draw a stratagem marker)"
FIRST_SET_UP = ("Player A begins with the set-up (3.1): 'standard set-up', or a unit at a time ('place a levy of "
                "France in Albi'); then Player B (3.2)")


def refusals(state: State) -> dict[str, str]:
    source = registry.get(state.book.source)
    first = FIRST_SET_UP if state.phase == "set-up" else FIRST_ORDER
    out = {
        "turn open": f"a game of Mediterranean Empires has no turn to open: it starts by itself; {first}",
        "turn close": "game turns end by themselves once both players have finished the End of Turn phase ('done')",
        "roll": "the dice come from the orders that need them (an attempt, a battle, a crusade), each bound to "
                "its public value as it is asked for",
        "gm lock": "this game has no lock of the orders; a GM corrects a decision with /gm undo or /gm void",
        "gm unlock": "this game has no lock of the orders; a GM corrects a decision with /gm undo or /gm void",
        "campaign reveal": "this game keeps no seed to reveal: its numbers come from their public values, checked "
                           "as they are recorded",
    }
    if source is not None and not source.lottery:
        why = f"this campaign's dice come from {source.values_words}, not from the lottery"
        out["lotto confirm"] = why
        out["lotto cancelled"] = why
    return out
