"""The government and religion tracks: arrows, flips (a revolution or a conversion) and the buildings they destroy,
and how many buildings a level allows; the happiness and safety tracks."""
from __future__ import annotations

from collections import Counter

from engine.events import Rejection
from engine.trading_mediterranean.rules_data import OPPOSITE, TRACK_OF, Rules
from engine.trading_mediterranean.state import Civ, Track


def move(rules: Rules, track: Track, arrows: Counter[str]) -> tuple[Track, bool]:
    """Opposite arrows cancel; what is left moves the marker toward its side or back. Passing the start space the
    board flips: one step past 0 is the other side's 0 (a revolution puts the marker on 0), so a marker on level L
    pushed back by k > L stands on k - L - 1 of the other side. The marker stops at the track's end."""
    net = arrows[track.side] - arrows[OPPOSITE[track.side]]
    level = track.level + net
    if level >= 0:
        return Track(track.side, min(level, rules.track_length)), False
    return Track(OPPOSITE[track.side], min(-level - 1, rules.track_length)), True


def standing_on(rules: Rules, civ: Civ, side: str) -> list[str]:
    """The buildings a civilization has standing of one side (democracy, dictatorship, venus, mars)."""
    return [b for b in civ.buildings if rules.building(b).side == side]


def apply_arrows(rules: Rules, civ: Civ, arrows: Counter[str]) -> list[str]:
    """Move both tracks; a flip destroys every building of the previous side (no cubes are lost). Returns what
    happened, in words."""
    said = []
    for name in ("government", "religion"):
        old: Track = getattr(civ, name)
        new, flipped = move(rules, old, arrows)
        setattr(civ, name, new)
        if flipped:
            lost = standing_on(rules, civ, old.side)
            civ.buildings = [b for b in civ.buildings if b not in lost]
            said.append(f"{civ.seat}'s {name} flips from {old.side} to {new.side} (level {new.level})"
                        + (f": {', '.join(lost)} destroyed" if lost else ""))
        elif new != old:
            said.append(f"{civ.seat}'s {name} moves to {new.side} {new.level}")
    return said


def revolt(rules: Rules, civ: Civ, track: str) -> list[str]:
    """A voluntary revolution (government) or conversion (religion) in the civic phase: the board flips, the marker
    goes to 0, the buildings of the old side are destroyed."""
    if track not in ("government", "religion"):
        raise Rejection(f"'{track}' is not a track that flips: say government (a revolution) or religion (a conversion)")
    old: Track = getattr(civ, track)
    lost = standing_on(rules, civ, old.side)
    civ.buildings = [b for b in civ.buildings if b not in lost]
    setattr(civ, track, Track(OPPOSITE[old.side], 0))
    return [f"{civ.seat} turns {track} from {old.side} to {OPPOSITE[old.side]}, on 0"
            + (f": {', '.join(lost)} destroyed" if lost else "")]


def allowance(rules: Rules, civ: Civ, side: str) -> int:
    """How many buildings of ``side`` the civilization may have: its marker's level on that side, else none."""
    track: Track = getattr(civ, TRACK_OF[side])
    return rules.allowance[track.level] if track.side == side else 0


def step(rules: Rules, civ: Civ, track: str, by: int) -> None:
    """Happiness or safety, kept between the track's ends."""
    value = getattr(civ, track) + by
    setattr(civ, track, max(rules.status_floor, min(rules.status_ceiling, value)))
