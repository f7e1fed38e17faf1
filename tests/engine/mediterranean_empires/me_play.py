"""Playing Mediterranean Empires through its Ruleset, event by event, as the shell would (commit-reveal numbers for
the rolls, order lines for the answers), in the bot's own fold: it seals the pick key on the game's first draw and
every stratagem marker drawn, and reveals a marker claimed, from its private store (``store``), as the service does
(bot/service/public_values.py). Shared by the tests of the rules that ask the players questions."""
from __future__ import annotations

import copy
import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

from engine import secrets
from engine.events import Event
from engine.mediterranean_empires import hand
from engine.mediterranean_empires.ruleset import MediterraneanEmpires
from engine.mediterranean_empires.state import Unit
from engine.rulesets import load_ruleset
from engine.ruleset import Prompt

DATA = Path(__file__).resolve().parents[3] / "data"
SEATS = {"A": "Player A", "B": "Player B"}


def game() -> MediterraneanEmpires:
    return load_ruleset("mediterranean-empires", DATA)  # type: ignore[return-value]


class Play:
    def __init__(self, options: list[str] | None = None, rules_version: int | None = None) -> None:
        self.game = game()
        self.seq = 1
        setup: dict[str, Any] = {"players": {"Player A": "ann", "Player B": "bob"}, "randomness": "commit-reveal"}
        if options is not None:
            setup["options"] = options
        if rules_version is not None:  # absent: version 1, as every campaign created before the field
            setup["rules_version"] = rules_version
        self.state = self.game.initial_state(setup)
        self.messages: list[str] = []
        self.asked: list[Prompt] = []  # every question met by ``drive``, in order
        self.keys: list[str] = []  # the labels of those questions, and of every roll ``drive`` recorded, in order
        # The bot's private store: seq of a sealed event -> {"content", "salt"}; repeatable salts (a test's game).
        self.store: dict[int, dict[str, Any]] = {}
        self._salts = itertools.count(1)
        # The export's fold, while ``twin`` is on: the same events without the private store.
        self.public: Any = None

    def salt(self) -> str:
        return hashlib.sha256(f"me_play salt {next(self._salts)}".encode()).hexdigest()[:32]

    def event(self, kind: str, data: dict[str, Any], secret: dict[str, Any] | None = None) -> None:
        """One event; ``secret``: content sealed with it (the digest goes into the data, the content to ``store``)."""
        sealed = None
        if secret is not None:
            sealed = {"content": secret, "salt": self.salt()}
            data = {**data, "sealed": secrets.digest(secret, sealed["salt"])}
        self.seq += 1
        t = self.game.apply(self.state, Event(self.seq, kind, "x", data, secret=sealed))
        self.state = t.state
        self.messages.extend(t.messages)
        if sealed is not None:
            self.store[self.seq] = sealed
        if self.public is not None:
            seen = self.game.apply(self.public, Event(self.seq, kind, "x", data))
            self.public = seen.state
            assert seen.messages == t.messages, (seen.messages, t.messages)
            assert self.game.public_view(seen.state) == self.game.public_view(t.state), data
            assert self.game.prompts(seen.state) == self.game.prompts(t.state), data

    def twin(self, on: bool = True) -> None:
        """From now on (until ``twin(False)``), fold every event a second time as the export's fold does, knowing
        no sealed marker nor the pick key, and assert that both folds say, ask and show the same: the rules read no
        sealed content. Turn it off before changing the state by hand."""
        if not on:
            self.public = None
            return
        public = copy.deepcopy(self.state)
        for s in public.sides.values():
            for entry in s.hand:
                if entry["seq"] is not None and not entry["revealed"]:
                    entry["marker"] = None
        if public.pick_key is not None and not public.pick_key["revealed"]:
            public.pick_key["salt"] = None
        self.public = public

    def order(self, side: str, text: str) -> None:
        """An order line, with what the shell seals with it (the pick key on the game's first draw: read_post)."""
        posted = self.game.read_post(self.state, "x", text, seat=SEATS[side])
        secret = next((q.secret for q in posted if q.secret is not None and "sealed_answer" not in q.data), None)
        self.event("order", {"seat": SEATS[side], "text": text}, secret)

    def hold(self, side: str, marker: str) -> None:
        """``marker`` into ``side``'s hand from the pool, sealed as a stratagem draw leaves it (the bot's fold knows
        it; the export's would see its digest only): the set-up of a test that starts mid-game."""
        self.seq += 1
        pick = f"test.hold{self.seq}"
        content = {"marker": marker, "pick": pick}
        kept = {"content": content, "salt": self.salt()}
        self.state.unseen.remove(marker)  # out of the pool...
        hand.to_pool(self.state, marker)  # ...but still unseen: a sealed marker of a hand stays in ``unseen``
        hand.seal(self.state, side, self.seq, secrets.digest(content, kept["salt"]), pick, marker)
        self.store[self.seq] = kept

    def _shell(self) -> bool:
        """What the shell does unasked: seal a pick, reveal a claimed marker. False when nothing was due."""
        for need in self.game.needs(self.state):
            if need.source == "seal":
                spec = json.loads(need.content)
                self.event(secrets.SEALED, {"key": need.key, **spec.get("public", {})}, spec["content"])
                return True
            if need.source == "secret":
                self.event(secrets.REVEALED, {"seq": int(need.key), **self.store[int(need.key)]})
                return True
        return False

    def drive(self, dice: list[int], answers: dict[str, Any] | None = None, until: str | None = None,
              fill: int | None = None) -> None:
        """Until the order under way is over: each roll takes the next values from ``dice`` (as many as asked), each
        question the answer given for its kind (the label's last part; a list is used up one by one), else its
        default (what the GM posts when the deadline passes). ``until``: stop at the first question of that kind.
        ``fill``: the value of every die once ``dice`` is used up (rolls whose number the test does not care about)."""
        answers = {k: list(v) if isinstance(v, list) else v for k, v in (answers or {}).items()}
        while self.state.action is not None:
            pending = self.state.action.pending
            if pending.kind in ("seal", "marker"):
                assert self._shell(), f"the shell has nothing to seal or reveal for {pending}"
                continue
            if pending.kind == "roll":
                if fill is not None and len(dice) < pending.count:
                    dice.extend([fill] * (pending.count - len(dice)))
                assert len(dice) >= pending.count, f"no die left for {pending.label}"
                values, dice[:] = dice[: pending.count], dice[pending.count:]
                self.keys.append(pending.label)
                self.event("random.recorded", {"numbers": {pending.label: values}})
                continue
            assert pending.kind == "answer", pending
            prompt = self.game.prompts(self.state)[0]
            self.asked.append(prompt)
            self.keys.append(pending.label)
            kind = pending.label.split(".")[-1]
            if kind == until:
                return
            given = answers.get(kind)
            answer = given.pop(0) if isinstance(given, list) and given else given if isinstance(given, str) else None
            self.event("order", {"seat": pending.seat, "text": answer or prompt.on_timeout})
        assert not dice, f"dice left over: {dice}"

    def seat_pope(self, side: str) -> None:
        """``side`` has taken Rome (one of its major power's field armies alone in the Papal States, the area its own)
        and the Pope sits there for it: the Pope stays only while his player has total control of Rome (12.0)."""
        from engine.mediterranean_empires import turn

        for uid in [u.id for u in self.state.units_in(turn.ROME)]:
            del self.state.units[uid]
        self.put({"A": "France", "B": "Aragon"}[side], "field_army", turn.ROME)
        self.state.owner[turn.ROME] = side
        self.state.pope = self.state.pope_holder = side

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


def battle(defenders: list[str], *, aragon_king: bool = False,
           attackers: tuple[str, ...] = ("field_army", "field_army"), held: tuple[str, ...] = (),
           rules_version: int | None = None) -> Play:
    """French ``attackers`` (two field armies: 4 units on the Field table) attack Aragonese ``defenders`` in Rosselló:
    France activated in Montpellier (OPs 3+3), moved to Rosselló (B's units there do not intercept), attacking; with
    ``aragon_king``, the King of Aragon (military 2) stands with the defenders; ``held``: markers in France's hand,
    sealed, and the pick key sealed as the Stratagem Phase's first draw leaves it (a spoils pick can then be sealed).
    Shared by the combat and losses tests."""
    p = Play(rules_version=rules_version)
    st = p.state
    st.phase, st.to_move = "operations A", "A"
    p.clear("Montpellier", "Rosselló")
    for kind in attackers:
        p.put("France", kind, "Montpellier")
    for kind in defenders:
        p.put("Aragon", kind, "Rosselló")
    if aragon_king:
        st.kings["Aragon"].area = "Rosselló"
    st.owner["Montpellier"], st.owner["Rosselló"] = "A", "B"
    if held:
        salt = p.salt()
        p.seq += 1
        st.pick_key = {"seq": p.seq, "digest": secrets.digest(hand.PICK_KEY_CONTENT, salt), "salt": salt,
                       "revealed": False}
        for marker in held:
            p.hold("A", marker)
    p.order("A", "activate France in Montpellier")
    p.drive([3, 3])
    p.order("A", "move to Rosselló")
    p.drive([], {"intercept": "do not intercept"})
    p.order("A", "attack")
    return p
