"""Playing Mediterranean Empires through its Ruleset, event by event, as the shell would (commit-reveal numbers for
the rolls, order lines for the answers). Shared by the tests of the rules that ask the players questions."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.events import Event
from engine.mediterranean_empires.ruleset import MediterraneanEmpires
from engine.mediterranean_empires.state import Unit
from engine.rulesets import load_ruleset
from engine.ruleset import Prompt

DATA = Path(__file__).resolve().parents[3] / "data"
SEATS = {"A": "Player A", "B": "Player B"}


def game() -> MediterraneanEmpires:
    return load_ruleset("mediterranean-empires", DATA)  # type: ignore[return-value]


class Play:
    def __init__(self, options: list[str] | None = None) -> None:
        self.game = game()
        self.seq = 1
        setup: dict[str, Any] = {"players": {"Player A": "ann", "Player B": "bob"}, "randomness": "commit-reveal"}
        if options is not None:
            setup["options"] = options
        self.state = self.game.initial_state(setup)
        self.messages: list[str] = []
        self.asked: list[Prompt] = []  # every question met by ``drive``, in order

    def event(self, kind: str, data: dict[str, Any]) -> None:
        self.seq += 1
        t = self.game.apply(self.state, Event(self.seq, kind, "x", data))
        self.state = t.state
        self.messages.extend(t.messages)

    def order(self, side: str, text: str) -> None:
        self.event("order", {"seat": SEATS[side], "text": text})

    def drive(self, dice: list[int], answers: dict[str, Any] | None = None, until: str | None = None,
              fill: int | None = None) -> None:
        """Until the order under way is over: each roll takes the next values from ``dice`` (as many as asked), each
        question the answer given for its kind (the label's last part; a list is used up one by one), else its
        default (what the GM posts when the deadline passes). ``until``: stop at the first question of that kind.
        ``fill``: the value of every die once ``dice`` is used up (rolls whose number the test does not care about)."""
        answers = {k: list(v) if isinstance(v, list) else v for k, v in (answers or {}).items()}
        while self.state.action is not None:
            pending = self.state.action.pending
            if pending.kind == "roll":
                if fill is not None and len(dice) < pending.count:
                    dice.extend([fill] * (pending.count - len(dice)))
                assert len(dice) >= pending.count, f"no die left for {pending.label}"
                values, dice[:] = dice[: pending.count], dice[pending.count:]
                self.event("random.recorded", {"numbers": {pending.label: values}})
                continue
            assert pending.kind == "answer", pending
            prompt = self.game.prompts(self.state)[0]
            self.asked.append(prompt)
            kind = pending.label.split(".")[-1]
            if kind == until:
                return
            given = answers.get(kind)
            answer = given.pop(0) if isinstance(given, list) and given else given if isinstance(given, str) else None
            self.event("order", {"seat": pending.seat, "text": answer or prompt.on_timeout})
        assert not dice, f"dice left over: {dice}"

    def put(self, power: str, kind: str, area: str) -> int:
        st = self.state
        st.units[st.next_unit] = Unit(st.next_unit, power, kind, area)
        st.next_unit += 1
        return st.next_unit - 1

    def clear(self, *areas: str) -> None:
        for uid in [u.id for u in self.state.units.values() if u.area in areas]:
            del self.state.units[uid]

    def kinds(self, area: str, power: str) -> list[str]:
        return sorted(u.kind for u in self.state.units_in(area) if u.power == power)
