"""A game of Mare Nostrum: Empires played through the ruleset alone: posts read into proposals, each applied as
an event (sealed offers with a digest and their content, revealed when the game asks), as the shell would."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from engine import secrets
from engine.events import Event, Rejection
from engine.mare_nostrum_empires.game import Game
from engine.mare_nostrum_empires.ruleset import MareNostrumEmpires
from tests.engine.mare_nostrum_empires.mne_board import DATA

PLAYERS = {3: {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat"},
           4: {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat", "Egyptians": "dan"},
           5: {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat", "Egyptians": "dan", "Babylonians": "eve"}}


def ruleset() -> MareNostrumEmpires:
    return MareNostrumEmpires.load(DATA)


class Play:
    def __init__(self, players: int = 3, values: list[int] | None = None, rules_version: int | None = None,
                 rs: MareNostrumEmpires | None = None) -> None:
        """``rules_version``: None for a log written before the field (version 1), as the older games here are;
        ``rs``: the ruleset on edited data (the shipped data by default)."""
        self.rs = rs or ruleset()
        setup: dict[str, Any] = {"players": PLAYERS[players], "gm": "gm", "randomness": "fixed",
                                 "fixed_values": values or [12345, 67890] + [3] * 400}
        if rules_version is not None:
            setup["rules_version"] = rules_version
        self.rules_version = rules_version
        self.setup = setup
        self.state: Game = self.rs.initial_state(setup)
        self.events: list[Event] = []
        self.said: list[str] = []
        self.secrets: dict[int, tuple[dict[str, Any], str]] = {}
        self.reveal_due()  # the bot's seals a new campaign needs (the deck key, from rules version 2)

    def _apply(self, kind: str, actor: str, data: dict[str, Any], secret: dict[str, Any] | None = None) -> None:
        event = Event(len(self.events) + 1, kind, actor, data, secret=secret)
        result = self.rs.apply(self.state, event)
        self.state = result.state
        self.events.append(event)
        self.said.extend(result.messages)

    def post(self, actor: str, text: str, nation: str | None = None) -> None:
        """Every line applied in order; the first refusal is raised (what came before it stays applied)."""
        for p in self.rs.read_post(self.state, actor, text, nation):
            if p.error:
                raise Rejection(p.error)
            assert p.kind is not None
            if p.secret is not None:
                seq = len(self.events) + 1
                salt = hashlib.sha256(f"salt-{seq}".encode()).hexdigest()
                data = dict(p.data, sealed=secrets.digest(p.secret, salt))
                self.secrets[seq] = (p.secret, salt)
                self._apply(p.kind, actor, data, {"content": p.secret, "salt": salt})
            else:
                self._apply(p.kind, actor, dict(p.data))
            self.reveal_due()

    def reveal_due(self) -> None:
        """The bot's part: each content due revealed, each seal asked for made (its salt kept as the store would)."""
        while needs := [n for n in self.rs.needs(self.state) if n.source in ("secret", "seal")]:
            need = needs[0]
            if need.source == "secret":
                content, salt = self.secrets[int(need.key)]
                self._apply(secrets.REVEALED, "bot", {"seq": int(need.key), "content": content, "salt": salt})
                continue
            spec = json.loads(need.content or "{}")
            seq = len(self.events) + 1
            salt = hashlib.sha256(f"seal-{seq}".encode()).hexdigest()
            self.secrets[seq] = (spec["content"], salt)
            self._apply(secrets.SEALED, "legatus", {"key": need.key, **spec["public"],
                                                    "sealed": secrets.digest(spec["content"], salt)},
                        {"content": spec["content"], "salt": salt})

    def gm(self, empire: str, text: str) -> None:
        self.post("gm", text, empire)

    def replay(self) -> Game:
        """The public log folded again from scratch, without any sealed content (an export's replay)."""
        state = self.rs.initial_state({**self.setup, "players": dict(self.state.players), "fixed_values": self._values})
        for e in self.events:
            state = self.rs.apply(state, Event(e.seq, e.kind, e.actor, e.data)).state
        return state

    @property
    def _values(self) -> list[int]:
        return [v[0] for k, v in sorted(self.state.book.numbers.items(), key=lambda kv: int(kv[0].split(":")[1]))]


def user(p: Play, empire: str) -> str:
    return p.state.players[empire] or "gm"


def quick_commerce(p: Play, token: str = "I 1") -> None:
    """A Commerce phase played by the prompts: every player offers taxes, each picker takes a tax from the first
    player it may, the Trade master gives a tax if he owes one."""
    p.post(user(p, p.state.board.leaders["commerce"]), f"token {token}")
    count = p.state.commerce.count if p.state.commerce else 0
    for empire in list(p.state.commerce.taking_part if p.state.commerce else []):
        p.post(user(p, empire), "offer " + ", ".join(["tax"] * (count or 0)))
    while p.state.phase == "commerce":
        prompt = p.rs.prompts(p.state)[0]
        if prompt.what.startswith("take one token from "):
            first = prompt.what.removeprefix("take one token from ").split(",")[0].split(" (")[0]
            p.post(user(p, prompt.seat), f"take tax from {first}")
        else:
            p.post(user(p, prompt.seat), "give tax")


def quick_turns(p: Play, plays: dict[str, str] | None = None) -> None:
    """A Purchase or Military phase: the leader names the empires of ``plays`` first, each playing its lines, then
    every other empire that has not played, which only ends its turn."""
    plays = plays or {}
    assert p.state.turns is not None
    leader = p.state.turns.leader
    for empire in [*plays, *(e for e in p.state.board.empires if e not in plays and e not in p.state.turns.done)]:
        p.post(user(p, leader), f"next {empire}")
        p.post(user(p, empire), (plays.get(empire, "") + "\ndone").strip())


def quick_claims(p: Play) -> None:
    """Every tie named by whoever is asked: it names itself if tied, else the first of the tied."""
    for prompt in p.rs.prompts(p.state):
        title = prompt.choices[0].split()[-1]
        tied = [c.split()[1] for c in prompt.choices]
        p.post(user(p, prompt.seat), f"name {prompt.seat if prompt.seat in tied else tied[0]} {title}")
