"""A campaign's state at a glance, for every face: the turn, its phase, who is to play and the standings, read
through the ruleset boundary (``summary``, ``prompts``, ``player_of``, ``picture``), with the whole public view
beside it as JSON. Discord shows it as an embed with the JSON attached (``state.json``); the console prints the JSON.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import canonical

# Discord's embed limits (a field's value, the number of fields): a card stays within them.
FIELD_LIMIT = 1024
FIELDS_LIMIT = 25


@dataclass(frozen=True)
class StateCard:
    title: str  # the turn label
    phase: str
    status: str  # "over: North wins", "playing", "between turns"
    to_play: tuple[str, ...]  # "<seat> (<@1>): <what the game asks>"
    standings: tuple[str, ...]  # "<power> (<@2>): <what the game says of it>"
    public_json: str  # the whole public view, as /state gives it in text
    chain_warning: str = ""  # "test chain: not verifiable ..." (bot/service/chain_warning.py), or nothing

    def fields(self) -> list[tuple[str, str]]:
        """(name, value) pairs, each value within Discord's limit (a long list says how many were left out)."""
        return [*([("Randomness", self.chain_warning[:FIELD_LIMIT])] if self.chain_warning else []),
                ("Phase", self.phase), ("Status", self.status),
                ("To play", _fit(self.to_play) or "nobody now"),
                *([("Standings", _fit(self.standings))] if self.standings else [])]


def state_card(ruleset: Any, state: Any, chain_warning: str = "") -> StateCard:
    summary = ruleset.summary(state)
    to_play = tuple(f"{p.seat} ({ruleset.player_of(state, p.seat) or 'no player'}): {p.what}"
                    for p in ruleset.prompts(state))
    picture = ruleset.picture(state)
    if picture.standings:
        standings = tuple(f"{s.power or 'Held by no one'}{' (' + s.player + ')' if s.player and s.player not in s.text else ''}"
                          f": {s.text}" for s in picture.standings)
    else:
        standings = tuple(f"{power}: {text}" for power, text in picture.legend)
    if summary.over:
        status = f"over: {summary.winner} wins" if summary.winner and summary.winner != "draw" else "over: a draw"
    else:
        status = "playing" if summary.playing else "between turns"
    return StateCard(summary.turn_label, summary.phase, status, to_play, standings,
                     canonical.dumps(ruleset.public_view(state), indent=2), chain_warning)


def _fit(lines: tuple[str, ...], limit: int = FIELD_LIMIT) -> str:
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        line = line if len(line) <= 200 else line[:199] + "…"
        more = f"… and {len(lines) - i} more (see state.json)"
        if used + len(line) + 1 + len(more) > limit and i < len(lines) - 1 or used + len(line) > limit:
            out.append(more)
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)
