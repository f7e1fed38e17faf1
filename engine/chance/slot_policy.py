"""Which lottery slots of a draw a game's rolls may take, and in which order: the policy a game gives its chance book
when its rules fix their own (Mare Nostrum's: the nations' wheels give only their 4th and 5th numbers, the turn
itself reads their first three; engine/mare_nostrum/slots.py).

A book without a policy walks every wheel's 1st number, then their 2nd, ... (``lottery.BOOK_ORDER``). Under slot
rule 2 (engine/chance/lottery_slots.py, one number per wheel of a draw) a wheel with a policy gives its first allowed
position, and only while none of its allowed positions is used; a policy that keeps wheels for whoever asks
(``wheels_on_request``, Mare Nostrum's: only the GM's dice) gives a wheel that way to a roll asking for a whole wheel
alone, which then owns it (its other allowed positions are handed out with it), and walks ``order`` for the others.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.chance import lottery_slots
from engine.lotto import WHEELS

ROLL_WHEELS = tuple(w for w in WHEELS if w != "RN")  # the Nazionale wheel did not exist before 2005


@dataclass(frozen=True)
class SlotPolicy:
    order: tuple[tuple[str, int], ...]  # (wheel, position) of one draw, in the order rolls take them
    wheels_on_request: bool = False  # under rule 2, only rolls asking for a whole wheel take one

    def __post_init__(self) -> None:
        # A game's own table, fixed in its code: a mistake in it is the game's bug, said plainly at once.
        if not self.order:
            raise ValueError("a slot policy needs at least one (wheel, position)")
        if len(set(self.order)) != len(self.order):
            raise ValueError(f"a slot policy names a slot twice: {self.order}")
        for wheel, position in self.order:
            if wheel not in ROLL_WHEELS or position not in lottery_slots.POSITIONS:
                raise ValueError(f"no roll slot ({wheel!r}, {position!r}): wheels {' '.join(ROLL_WHEELS)}, positions 1-5")

    def wheels(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Each wheel with its allowed positions in order, wheels in the order of their first slot (rule 2's walk)."""
        positions: dict[str, list[int]] = {}
        for wheel, position in self.order:
            positions.setdefault(wheel, []).append(position)
        return tuple((wheel, tuple(ps)) for wheel, ps in positions.items())
