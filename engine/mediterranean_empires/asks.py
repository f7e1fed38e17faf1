"""What the game asks of a side now, in the words a player types: shared by the prompts (ruleset.py) and the
refusal of a line that is no order (play.py), so that a player who typed something else is told what would do."""
from __future__ import annotations

from engine.mediterranean_empires.state import State, Waiting

PHASE_ASK = {
    "stratagems": "draw a stratagem marker ('draw')",
    "political": "a political attempt ('attempt alliance with Genoa') or 'pass'",
    "recruitment": "recruit a unit ('recruit a field army of France in Vienne') or 'done'",
    "end of turn": "redistribute units ('redistribute a levy of France from Albi to Vienne') or 'done'",
}


def operations_ask(state: State) -> str:
    return "continue the active force (move, attack, end)" if state.force else "activate a force, or 'end operations'"


def asked_of(state: State, side: str, seat: str) -> str | None:
    """What ``side`` (played from ``seat``) is asked to do now, or None when nothing is."""
    if state.phase == "over":
        return None
    if state.action is not None:
        pending = state.action.pending
        return pending.question if pending.kind is Waiting.ANSWER and pending.seat == seat else None
    if state.to_move != side:
        return None
    if state.phase.startswith("operations"):
        return operations_ask(state)
    return PHASE_ASK.get(state.phase)
