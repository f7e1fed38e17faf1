"""The class the shell sees: it reads, applies and delegates; no rule in it."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.names import NameIndex, Resolution
from engine.ruleset import (NEED_REVEAL, NEED_SEAL, REACTION, VOTE, WINDOW, CommandSpec, Need, Picture, Prompt,
                            Proposal, Seat, Summary, Transition, command_as_post)
from engine.tabletop import table as tb
from engine.trading_mediterranean import choices, flow, parse, trading, view
from engine.trading_mediterranean.commands import COMMANDS, command_line
from engine.trading_mediterranean.picture import picture as status_picture
from engine.trading_mediterranean import rules_version as versions
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean.play import HANDLERS, PHASE_ORDERS
from engine.trading_mediterranean.rules_data import Rules, load
from engine.trading_mediterranean.setup import new_civ

FORUM_CHOICES = (6, 12, 48, 72)


class TradingMediterranean:
    id = "trading-mediterranean"
    title = "Trading in the Mediterranean"
    randomness = "drand"
    rules_version = versions.NEWEST

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    @property
    def options(self) -> dict[str, str]:
        """The trading phase's form, chosen per campaign (a forum window of 24 hours when none is chosen)."""
        lo, hi = self.rules.players
        return {"live": f"a group online together: each window lasts {self.rules.trading_minutes} minutes",
                **{f"{n}-players": f"{n} civilizations ({', '.join(self.rules.civilizations[:n])}), seats assigned "
                   f"after creation (else {hi})" for n in range(lo, hi)},
                **{f"forum-{h}h": f"play by forum: each window lasts {h} hours, ending early when all say done"
                   for h in FORUM_CHOICES}}

    @classmethod
    def load(cls, data_dir: Path) -> "TradingMediterranean":
        return cls(load(data_dir))

    # --- folding ---------------------------------------------------------------------------------------------

    def initial_state(self, setup: dict[str, Any]) -> gm.Game:
        players = dict(setup.get("players") or {})
        lo, hi = self.rules.players
        chosen = [str(o) for o in setup.get("options") or []]
        if not players:  # seats assigned after creation: the data's civilizations
            n = next((int(o.split("-")[0]) for o in chosen if o.endswith("-players")), hi)
            players = {c: None for c in self.rules.civilizations[:n]}
        if not lo <= len(players) <= hi:
            raise Rejection(f"{self.title} is for {lo} to {hi} civilizations, not {len(players)}: name each seat "
                            "and its player")
        mode, hours = str(setup.get("trading") or trading.FORUM), setup.get("trading_hours", 24)
        for option in chosen:
            if option not in self.options:
                raise Rejection(f"'{option}' is not an option of {self.title}: choose {', '.join(self.options)}")
            if option.endswith("-players"):
                continue
            mode, hours = (trading.LIVE, hours) if option == "live" else (trading.FORUM, int(option[6:-1]))
        if not isinstance(hours, int) or isinstance(hours, bool):
            raise Rejection(f"trading_hours is a whole number of hours, not {hours!r}")
        book = chance.new_book(str(setup.get("randomness") or chance.DRAND), setup)
        seats = [str(s) for s in players]
        version = versions.of(setup)
        face_down = version >= versions.OWN_CHOICES
        if face_down and gm.BOARD in seats:
            raise Rejection(f"'{gm.BOARD}' is where the developments are revealed: name the seat otherwise")
        g = gm.Game(str(setup.get("gm", "gm")), {s: players[s] for s in seats}, book,
                    tb.new_table(self.rules.deck_specs() + gm.open_decks(self.rules, face_down),
                                 seats + [gm.BOARD] * face_down),
                    {s: new_civ(self.rules, s) for s in seats}, mode, hours)
        g.rules_version = version
        if mode == trading.FORUM:
            trading.open_trading(self.rules, seats, Event(0, "check", "gm", at="2026-01-01T00:00:00+00:00"), mode, hours)
        elif mode != trading.LIVE:
            raise Rejection(f"the trading phase is '{trading.LIVE}' or '{trading.FORUM}', not '{mode}'")
        return g

    def apply(self, state: gm.Game, event: Event, *, in_place: bool = False) -> Transition:
        g = state if in_place else copy.deepcopy(state)
        said: list[str] = []
        handler = HANDLERS.get(event.kind)
        if handler is not None:
            said += handler(self.rules, g, event)
        elif not chance.record(g.book, event):
            raise Rejection(f"the {self.title} ruleset does not know events of kind '{event.kind}'")
        chance.settle(g.book, event)
        said += flow.progress(self.rules, g, event)
        return Transition(g, tuple(said))

    # --- reading -----------------------------------------------------------------------------------------------

    def read_post(self, state: gm.Game, actor: str, text: str, seat: str | None = None) -> list[Proposal]:
        seat = seat or self.seat_of(state, actor)
        out: list[Proposal] = []
        for line_no, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            if seat is None:
                out.append(Proposal(line_no, line, error=f"you ({actor}) hold no seat in this game"))
                continue
            out.append(parse.read_line(self.rules, state, seat, line_no, line))
        return out

    def commands(self) -> list[CommandSpec]:
        return list(COMMANDS)

    def read_command(self, state: gm.Game, actor: str, name: str, args: list[str], *, is_gm: bool) -> Proposal:
        return command_as_post(self, state, actor, name, args, COMMANDS, command_line)

    def names(self, kind: str) -> list[str]:
        if kind in ("seat", "nation"):
            return list(self.rules.civilizations)
        if kind == "building":
            return sorted(b.name for b in self.rules.buildings)
        if kind == "development":
            return sorted(d.name for d in self.rules.developments)
        if kind == "good":
            return [*self.rules.goods["basic"], *self.rules.goods["civic"], "luxury", "money", "vp"]
        if kind == "symbol":
            return list(self.rules.culture_symbols)
        return []

    def resolve(self, kind: str, text: str) -> Resolution:
        words = self.names(kind)
        if kind in ("seat", "nation"):  # a campaign may name its own seats: the fold checks a name it does not know
            found = NameIndex({w: () for w in words}, kind).resolve(text)
            return found if found.ok else Resolution(name=text.strip())
        if not words:
            return Resolution(error=f"{self.title} has no names of kind '{kind}'; it has buildings and developments")
        return NameIndex({w: () for w in words}, kind).resolve(text)

    # --- seats, prompts, needs -----------------------------------------------------------------------------------

    def seats(self, state: gm.Game) -> list[Seat]:
        return [Seat(s, (s,), state.players.get(s)) for s in state.seats()]

    def seat_of(self, state: gm.Game, user: str) -> str | None:
        return next((s for s, p in state.players.items() if p == user), None)

    def player_of(self, state: gm.Game, seat: str) -> str | None:
        return state.players.get(seat)

    def prompts(self, state: gm.Game) -> list[Prompt]:
        hours = (self.rules.trading_minutes / 60) if state.mode == trading.LIVE else float(state.forum_hours)
        if state.phase == gm.CALAMITY and state.loss_due is not None:  # the victim names its losses
            seat, name = state.loss_due
            cal = self.rules.calamity(name)
            default = choices.losses_line(*choices.default_losses(state.civs[seat], cal))
            return [Prompt(seat, REACTION, choices.losses_asked(cal, state.civs[seat]), (default,), default, hours)]
        if state.phase == gm.SPENDING and state.bank:
            return [Prompt(s, REACTION, f"{s}'s Bank: triple prosperity or ignore poverty this turn?",
                           ("bank prosperity", "bank poverty"), "bank prosperity", hours)
                    for s, use in state.bank.items() if use is None]
        if state.phase in gm.WINDOWS and state.window is not None and not state.window.closed:
            return [Prompt(s, WINDOW, f"{state.phase} until {state.window.closes_at}: {PHASE_ORDERS[state.phase]}",
                           ("done", *(f"{verb} {o.id}" for o in state.market.open() if o.to == s
                                      for verb in ("accept", "decline"))) if state.phase == gm.TRADING else ("done",),
                           "done", hours) for s in state.window.waiting()]
        if state.phase == gm.CALAMITY and state.vote is not None:
            return [Prompt(s, VOTE, state.vote.question, tuple(f"vote {o}" for o in state.vote.options), "abstain", 24.0)
                    for s in state.vote.waiting()]
        return []

    def to_act(self, state: gm.Game) -> list[str]:
        return [p.seat for p in self.prompts(state)]

    def needs(self, state: gm.Game) -> list[Need]:
        wanted = tb.needs(state.table)
        if state.phase == gm.OVER:
            wanted += [Need(NEED_REVEAL, str(o.seq)) for o in state.market.offers
                       if o.sealed and not (o.hidden or {}).get("revealed")]
        return wanted + chance.needs(state.book)

    def wanted_draws(self, state: gm.Game) -> list[str]:
        return [n.key for n in self.needs(state) if n.source == chance.LOTTERY]

    def carry_over(self, before: gm.Game, after: gm.Game) -> gm.Game:
        chance.carry(before.book, after.book)
        return after

    # --- views ---------------------------------------------------------------------------------------------------

    def public_view(self, state: gm.Game) -> dict[str, Any]:
        return {**view.public(self.rules, state),
                "waiting": [f"{n.source}:{n.key}" for n in self.needs(state) if n.source != NEED_SEAL]}

    def private_view(self, state: gm.Game, seat: str) -> dict[str, Any]:
        return view.private(self.rules, state, seat)

    def summary(self, state: gm.Game) -> Summary:
        return Summary(state.turn, f"Turn {state.turn} of {self.rules.turns}", state.phase,
                       state.phase in (*gm.WINDOWS, gm.CALAMITY) or bool(state.bank), state.phase == gm.OVER,
                       state.ranking[0] if state.ranking else None, (state.outcome,) if state.outcome else (),
                       closed_turn=max(state.turn - 1, 0) if state.phase != gm.OVER else state.turn,
                       order=())  # every phase is a window or a vote: nobody plays after another

    def status(self, state: gm.Game) -> str:
        return view.status(self.rules, state)

    def picture(self, state: gm.Game) -> Picture:
        return status_picture(self.rules, state, self.to_act(state))

    def ledger(self, state: gm.Game) -> list[dict[str, Any]]:
        return [chance.ledger_entry(b, state.turn) for b in state.book.bindings]
