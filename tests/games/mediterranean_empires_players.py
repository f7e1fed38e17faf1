"""Two scripted players of Mediterranean Empires, playing through the console like people would.

Each reads what it may know (the prompt, the public board, its own private view) and posts one order line in the
seed's words. Some reactions are left to their deadline: the GM then posts the prompt's ``on_timeout`` order with
``/order`` (what the scheduler does when a deadline runs out). Every post, its author and Legatus's answer go into
``transcript``. The drand relay runs on 127.0.0.1 and the clock is moved on before every post, so the round each
event was bound to has been produced when the next post comes, and the service records its beacon first.

Shared by tests/games/test_mediterranean_empires_game.py and bench/mediterranean_empires.py.
"""
from __future__ import annotations

import hashlib
import io
import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, redirect_stdout
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from unittest.mock import patch

from bot.console.offline import Console
from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.events import Event
from engine.log import replay
from engine.mediterranean_empires import control
from engine.mediterranean_empires.ruleset import MediterraneanEmpires
from engine.mediterranean_empires.rules_version import SEED_SETUP
from engine.mediterranean_empires.state import State
from engine.ruleset import BID, Prompt
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, serving

START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
USERS = {"Player A": "ann", "Player B": "bob"}
SIDE = {"Player A": "A", "Player B": "B"}
MAJOR = {"A": ("France", "Anjou"), "B": ("Aragon",)}
# Standing orders posted once, at the start (a post a rule): they answer those reactions from then on.
STANDING = {"Player A": ["always avoid combat with fewer than 3 units", "take losses cheapest first"],
            "Player B": ["never intercept"]}
# Reactions these players answer themselves; any other question is left to its deadline (the GM's /order).
ANSWERS = {("Player A", "intercept"): "intercept", ("Player B", "avoid"): "avoid combat",
           ("Player A", "recruit_order"): "first", ("Player B", "recruit_order"): "second",
           ("Player A", "redistribute_order"): "first", ("Player B", "redistribute_order"): "second"}
TARGETS = {"A": "Castile", "B": "Genoa"}  # the neutral each courts in the Political Phase
FORCES_PER_PHASE = 2
MAX_POSTS = 3000


@dataclass
class Table:
    service: Legatus
    console: Console
    clock: FixedClock
    state: State
    transcript: list[tuple[str, str, str]] = field(default_factory=list)
    # Per player: the forces it has sent this Operations Phase, and its target while a force is active.
    plan: dict[str, dict[str, Any]] = field(default_factory=dict)

    def say(self, who: str, text: str) -> str:
        """One post as ``who`` (a user name, or "gm"), a quarter of a minute after the last."""
        self.clock.advance(timedelta(seconds=15))
        out = io.StringIO()
        with redirect_stdout(out):
            self.console.handle(f"{who}> {text}")
        answer = out.getvalue()
        self.transcript.append((who, text, answer))
        return answer

    def refused(self) -> list[tuple[str, str, str]]:
        return [t for t in self.transcript if "✗" in t[2]]

    def events(self) -> list[Event]:
        return [Event.from_dict(json.loads(line)) for line in self.service.export().splitlines()]


def standard_set_up(service: Legatus, campaign: str | None = None) -> None:
    """Both players take the documented set-up (3.1-3.2), as a new campaign begins: it binds no roll, so the game's
    rolls and their labels are those of a campaign that began with the data's placement on the map."""
    for user in USERS.values():
        reply = service.post(user, "standard set-up", campaign)
        assert reply.changed, reply.render()


@contextmanager
def table(db: Path, options: list[str] | None = None, rules_version: int | None = None) -> Iterator[Table]:
    """A campaign at the start, its seats taken; ``options``: the campaign options the GM chooses at creation;
    ``rules_version``: the game's reading a campaign created then would have followed (default: the newest)."""
    clock = FixedClock(START)
    pinned = nullcontext() if rules_version is None else patch.object(MediterraneanEmpires, "rules_version", rules_version)
    with serving(FakeRelay()) as relay, pinned:
        service = Legatus(open_engine(db), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                       test_chain=True,  # the tests hold its key: an explicit opt-in
                                       clock=lambda: clock.now().timestamp())
        # Repeatable salts (the pick key is one): the same game every run. A live bot draws them from the OS.
        salts = itertools.count(1)
        service.salt = lambda: hashlib.sha256(f"test salt {next(salts)}".encode()).hexdigest()[:32]
        created = service.create_campaign("middle-sea", "mediterranean-empires", "gm", dict(USERS), options=options)
        assert created.changed, created.render()
        if rules_version is None or rules_version >= SEED_SETUP:
            standard_set_up(service)
        ruleset = service.ruleset_of(None)
        t = Table(service, Console(service), clock, replay(ruleset, [Event.from_dict(json.loads(line))
                                                                     for line in service.export().splitlines()]).state)
        # The bot's own fold (with the sealed contents) after each post: what the prompts are read from.
        service.observers.append(lambda change: setattr(t, "state", change.state))
        yield t


def post_standing_orders(t: Table) -> None:
    """Each player's standing orders, one post a rule."""
    for seat, rules in STANDING.items():
        for rule in rules:
            answer = t.say(USERS[seat], rule)
            assert "✓" in answer, answer


def play_game(t: Table) -> None:
    """Standing orders first, then one line at a time until the game is over."""
    post_standing_orders(t)
    ruleset = t.service.ruleset_of(None)
    for _ in range(MAX_POSTS):
        st = t.state
        if st.phase == "over":
            return
        prompts = ruleset.prompts(st)
        if not prompts:
            t.say("gm", "/status")  # a roll or a reveal is due: the next post records it
            continue
        who, line = decide(ruleset, st, prompts[0], t.plan)
        t.say(who, line)
    raise AssertionError(f"the game did not end in {MAX_POSTS} posts: {ruleset.status(t.state)}")


def decide(ruleset: Any, st: State, p: Prompt, plans: dict[str, Any]) -> tuple[str, str]:
    """Who posts what for this prompt."""
    user, side = USERS[p.seat], SIDE[p.seat]
    if st.action is not None:
        kind = st.action.pending.label.split(".")[-1]
        if p.mode == BID:
            held = [m for m in ruleset.private_view(st, p.seat)["markers"] if m in ("Military Advantage", "Ambush")]
            return user, "1" if held and "1" in p.choices else "0"
        if kind == "loss" and p.seat == "Player B":
            # Player B gives up raiders before anything else (they count one in a field battle), else the default.
            return user, next((c for c in p.choices if c.startswith("raiders of")), p.on_timeout or p.choices[0])
        mine = ANSWERS.get((p.seat, kind))
        if mine is not None and mine in p.choices:
            return user, mine
        return "gm", f"/order {side} {p.on_timeout}"  # the deadline passes: its default order
    rules = ruleset.rules
    if st.phase == "set-up":
        return user, "standard set-up"
    if st.phase == "stratagems":
        return user, "draw"
    if st.phase == "political":
        return user, political(ruleset, st, p.seat)
    if st.phase == "recruitment":
        held = ruleset.private_view(st, p.seat)["markers"]
        cash = next((m for m in ("Trade Concession", "Gold", "Piracy") if m in held), None)
        if cash is not None:
            return user, f"play {cash}"  # played in this phase: the marker is revealed
        return user, recruitment(ruleset, st, side)
    if st.phase.startswith("operations"):
        return user, operations(ruleset, st, side, plans)
    if st.phase == "end of turn":
        return user, redistribution(rules, st, side)
    raise AssertionError(f"no policy for {st.phase}")


def political(ruleset: Any, st: State, seat: str) -> str:
    side = SIDE[seat]
    target = TARGETS[side]
    mine = ruleset.private_view(st, seat)
    if ("Diplomacy" in mine["markers"] and "alliance" in mine["attempts_left"]
            and st.status.get(target) == "neutral"):
        return f"attempt alliance with {target}" + (" using 1 TP" if st.sides[side].treasury >= 1 else "")
    return "pass"


def recruitment(ruleset: Any, st: State, side: str) -> str:
    rules = ruleset.rules
    s = st.sides[side]
    if sum(s.recruits_here.values()) >= 2:
        return "done"
    for power in MAJOR[side]:
        for kind, count, price in (("levy", 2, 1), ("field_army", 1, 1)):
            left = rules.powers[power].counters.get(kind, 0) - sum(
                1 for u in st.units.values() if u.power == power and u.kind == kind)
            if left < count or s.treasury < price:
                continue
            for area in rules.map.lands:
                if (control.controller(st, area) == side and not control.partial(st, area)
                        and s.recruits_here.get(area, 0) + count <= rules.max_recruits_per_area
                        and _room(rules, st, side, area) >= count):
                    word = "2 levies" if kind == "levy" else "a field army"
                    return f"recruit {word} of {power} in {area}"
    return "done"


def _room(rules: Any, st: State, side: str, area: str) -> int:
    land = rules.map.lands.get(area)
    limit = rules.stack_with_city if land and land.city else rules.stack_without_city
    return limit - sum(1 for u in st.units_in(area) if control.side_of_power(st, u.power) == side)


def operations(ruleset: Any, st: State, side: str, plans: dict[str, Any]) -> str:
    """Send up to two forces of a major power, each at an enemy stack next door: activate, move in, attack, end."""
    rules = ruleset.rules
    # The player's own notes for this Operations Phase (kept by the player, not by the game).
    plan = plans.setdefault(f"{st.turn}{side}", {"sent": 0})
    f = st.force
    if f is not None:
        target = plan.get("target")
        if f.area != target and not plan.get("moved"):
            plan["moved"] = True
            leaving = 3 if any(control.side_of_power(st, u.power) not in (side, None)
                               for u in st.units_in(f.area) if u.kind != "fleet") else 1
            if f.ops >= leaving * (2 if st.plague else 1):
                return f"move to {target}"
        enemy = [u for u in st.units_in(f.area) if u.kind != "fleet"
                 and control.side_of_power(st, u.power) not in (side, None)]
        if enemy and f.area == target and not plan.get("attacked") and f.ops >= (4 if st.plague else 2):
            plan["attacked"] = True
            return "attack"
        return "end"
    if plan["sent"] < FORCES_PER_PHASE:
        for power in MAJOR[side]:
            stacks: dict[str, int] = {}
            for u in st.units.values():
                if u.power == power and u.kind != "fleet" and not u.done and u.area in rules.map.lands:
                    stacks[u.area] = stacks.get(u.area, 0) + 1
            for area, n in sorted(stacks.items()):
                if n > 3:
                    continue
                for to in rules.map.lands[area].borders:
                    enemy = [u for u in st.units_in(to) if u.kind != "fleet"
                             and control.side_of_power(st, u.power) not in (side, None)]
                    if enemy and _room(rules, st, side, to) >= n:
                        plan.update(sent=plan["sent"] + 1, target=to, moved=False, attacked=False)
                        return f"activate {power} in {area}"
    return "end operations"


def redistribution(rules: Any, st: State, side: str) -> str:
    """5.2: only to mend an over-stacked area (the phase cannot end over the limit), else done."""
    for area in rules.map.lands:
        if _room(rules, st, side, area) < 0:
            unit = next(u for u in st.units_in(area) if control.side_of_power(st, u.power) == side)
            for to in rules.map.lands:
                if to != area and control.controller(st, to) == side and not control.partial(st, to) \
                        and _room(rules, st, side, to) > 0:
                    return f"redistribute a {unit.kind.replace('_', ' ')} of {unit.power} from {area} to {to}"
    return "done"
