"""Benchmark: Mare Nostrum: Empires, a round's resolution and a whole game's replay. Prints figures; asserts nothing.

    .venv/bin/python bench/mare_nostrum_empires.py

Plays the scripted 5-player game of tests/engine/mare_nostrum_empires/test_mne_game.py (two rounds, a battle, a
conquest, sealed offers revealed, a victory) through the ruleset alone, then times: the fold of round 1's events
from set-up (a round's resolution: every order checked and played, the phases moving on, the battle fought), the
replay of the whole public log from nothing (sealed content given back only by its reveals), and the picture; for
a campaign of rules version 1 and one of version 2 (the abilities played, the row a hidden deck whose tiles are
sealed and revealed by the bot).
"""
from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.events import Event  # noqa: E402
from tests.engine.mare_nostrum_empires.test_mne_game import FIVE_VALUES, five_player_game  # noqa: E402


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        out.append(time.perf_counter() - began)
    return out


def report(label: str, samples: list[float], events: int = 0) -> None:
    median = statistics.median(samples)
    rate = f"; {events / median:,.0f} events/s" if events else ""
    print(f"{label}: median {median * 1000:.2f} ms, min {min(samples) * 1000:.2f} ms, max {max(samples) * 1000:.2f} "
          f"ms ({len(samples)} runs){rate}")


def main() -> None:
    for version in (None, 2):
        one_version(version)


def one_version(version: int | None) -> None:
    game = five_player_game(version)
    rs = game.rs
    setup: dict[str, Any] = {**game.setup, "fixed_values": FIVE_VALUES}
    events = [Event(e.seq, e.kind, e.actor, e.data) for e in game.events]

    def fold(upto: int) -> Any:
        state = rs.initial_state(setup)
        for e in events[:upto]:
            state = rs.apply(state, e, in_place=True).state
        return state

    state = rs.initial_state(setup)
    round_one = len(events)
    for i, e in enumerate(events, 1):
        state = rs.apply(state, e).state
        if state.round == 2:
            round_one = i
            break
    print(f"Mare Nostrum: Empires, 5 players, rules version {version or 1}: {len(events)} events, {round_one} of them in round 1; "
          f"winners {game.state.winners}")
    report("a round's resolution (round 1, folded from set-up)", timed(lambda: fold(round_one), 30), round_one)
    report("the whole game's replay from its public log", timed(lambda: fold(len(events)), 30), len(events))
    report("the picture of the final board", timed(lambda: rs.picture(game.state), 30))


if __name__ == "__main__":
    main()
