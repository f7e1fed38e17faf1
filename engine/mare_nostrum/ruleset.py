"""The Mare Nostrum campaign as a Ruleset: the events it understands and what each one does."""
from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import commit_reveal, takeback
from engine.events import Event, Rejection
from engine.lotto import Draw
from engine.names import Resolution
from engine.chance import book as chance
from engine.chance.book import record_beacon
from engine.mare_nostrum import battles, commands, gm_roll, naval
from engine.mare_nostrum.actions import carry_out
from engine.mare_nostrum.conquest import check_supremacy, fall, knock_out
from engine.mare_nostrum.context import Ctx
from engine.mare_nostrum.orders import order_from_dict
from engine.mare_nostrum.parse import Vocabulary, parse_post
from engine.mare_nostrum.rules_data import RulesData, load_rules
from engine.mare_nostrum.slots import (DRAND_PREFIX, Resolver, pending_labels, pending_rounds, later_draws, rebind_cancelled,
                                       settle, slot_policy)
from engine.mare_nostrum.state import COMMIT_REVEAL, RANDOMNESS, NationState, ProvinceState, State
from engine.mare_nostrum.turn import after_ruling, close_turn, end_player_turn, open_turn, start_turn
from engine.mare_nostrum.view import battles_view, events_view, nations_view, public_view, status_board
from engine.mare_nostrum.picture import picture
from engine.ruleset import IN_TURN, CommandSpec, Need, Picture, Prompt, Proposal, Seat, Summary, Transition

RESOLVERS: dict[str, Resolver] = {
    "peace_treaty": battles.resolve_peace,
    "alliance": battles.resolve_alliance,
    "siege": battles.resolve_siege,
    "naval_attacker": naval.resolve_roll,
    "naval_defender": naval.resolve_roll,
    gm_roll.PURPOSE: gm_roll.resolve,
}

GM_SETTABLE = {"stability", "owner", "fortification", "suburbs", "temple", "fleets", "actions"}


def _mixed_words(label: str | None) -> str:
    round_no = commit_reveal.mixing_round(label or "")
    return f", mixed with drand round {round_no}" if round_no else ""


class MareNostrum:
    id = "mare-nostrum"
    title = "Mare Nostrum"
    randomness = "lottery"

    def __init__(self, rules: RulesData) -> None:
        self.rules = rules
        m = rules.map
        self.vocabulary = Vocabulary.from_names(
            provinces={p.name: p.aliases for p in m.provinces.values()},
            seas={s.name: s.aliases for s in m.seas.values()},
            nations={n.name: n.aliases for n in rules.nations.values()},
            invaders={i.invader: i.aliases for i in rules.invasions.values()},
        )
        self._handlers: dict[str, Callable[[Ctx], None]] = {
            "turn.opened": self._turn_opened,
            "draw.recorded": self._draw_recorded,
            "draw.cancelled": self._draw_cancelled,
            "order": self._order,
            "battle.reported": self._battle_reported,
            "turn.closed": lambda ctx: close_turn(ctx),
            "player.assigned": self._player_assigned,
            "gm.pass": self._gm_pass,
            "gm.set": self._gm_set,
            "roll.requested": gm_roll.request,
            "gm.lock": self._gm_lock,
            "random.recorded": self._random_recorded,
            "beacon.recorded": self._beacon_recorded,
            "seed.revealed": self._seed_revealed,
        }

    @classmethod
    def load(cls, data_dir: Path) -> "MareNostrum":
        return cls(load_rules(data_dir / "rulesets" / "mare-nostrum.toml"))

    # --- the protocol ----------------------------------------------------------------------------------------------

    def initial_state(self, setup: dict[str, Any]) -> State:
        rules = self.rules
        players: dict[str, str] = setup.get("players", {})
        unknown = [n for n in players if n not in rules.nations]
        if unknown:
            raise Rejection(f"unknown nation(s) {', '.join(unknown)}: the nations are {', '.join(rules.nations)}")
        randomness = str(setup.get("randomness") or "lottery")
        if randomness not in RANDOMNESS:
            raise Rejection(f"unknown randomness '{randomness}': use {' or '.join(RANDOMNESS)}")
        commitment = setup.get("commitment")
        if randomness == COMMIT_REVEAL:
            commitment = str(commitment or "").strip().lower()
            if len(commitment) != 64 or any(c not in "0123456789abcdef" for c in commitment):
                raise Rejection("a commit-reveal campaign publishes its commitment (SHA-256 of the seed, 64 hex digits) at creation")
        # The book takes the campaign's rules of chance from ``campaign.created`` (commit-reveal's rule, the lottery's
        # slot rule) and Mare Nostrum's order of slots; a roll's id, label and draw the rules give as they ask.
        book = chance.new_book(randomness, setup)
        book.slot_policy = slot_policy(tuple(n.wheel for n in rules.nations.values()))
        state = State(
            ruleset=self.id, gm=setup.get("gm", "gm"), digest=setup.get("digest", rules.digest), randomness=randomness,
            commitment=commitment if randomness == COMMIT_REVEAL else None, book=book,
            fresh_ids=takeback.follows_clock_rules(setup),
        )
        for name in rules.nations:
            state.nations[name] = NationState(name=name, player=players.get(name), stability=rules.start_stability)
        for prov in rules.map.provinces.values():
            state.provinces[prov.name] = ProvinceState(owner=prov.nation)
        return state

    def apply(self, state: State, event: Event, *, in_place: bool = False) -> Transition:
        handler = self._handlers.get(event.kind)
        if handler is None:
            raise Rejection(f"the {self.title} ruleset does not know events of kind '{event.kind}'")
        ctx = Ctx(self.rules, state if in_place else copy.deepcopy(state), event)
        handler(ctx)
        settle(ctx, RESOLVERS)
        return Transition(ctx.state, tuple(ctx.messages))

    def read_post(self, state: State, actor: str, text: str, seat: str | None = None) -> list[Proposal]:
        nation = seat or self.seat_of(state, actor)
        proposals = []
        for line in parse_post(text, self.vocabulary):
            if line.error is not None or line.order is None:
                proposals.append(Proposal(line.line_no, line.text, error=line.error or "not understood"))
                continue
            if nation is None:
                proposals.append(Proposal(line.line_no, line.text, error=self._no_seat(state, actor)))
                continue
            proposals.append(
                Proposal(
                    line.line_no, line.text, kind="order",
                    data={"nation": nation, "order": line.order.to_dict(), "text": line.text},
                    understood=f"{nation}: {line.order.describe()}",
                )
            )
        return proposals

    def commands(self) -> list[CommandSpec]:
        return list(commands.COMMANDS)

    def read_command(self, state: State, actor: str, name: str, args: list[str], *, is_gm: bool) -> Proposal:
        if name == "turn open":
            # The shell binds the turn to its lottery draw (the first stored or scheduled one) and passes its date.
            if len(args) != 2:
                return Proposal(0, "/turn open", error="usage: /turn open [YYYY-MM-DD]")
            return Proposal(0, "/turn open", "turn.opened", {"draw": args[0], "requested": args[1]},
                            f"open the next turn on the draw of {args[0]}")
        if name == "turn close":
            return Proposal(0, "/turn close", "turn.closed", {}, "close the turn")
        text = "/" + " ".join([name, *args])
        if any(c.name == name and c.gm_only for c in commands.COMMANDS) and not is_gm:
            return Proposal(0, text, error=f"/{name} is for the GM ({state.gm}) only")
        return commands.read_command(self.resolve, name, args, text)

    def names(self, kind: str) -> list[str]:
        v = self.vocabulary
        index = {
            "province": v.provinces, "area": v.provinces, "sea": v.seas, "nation": v.nations, "power": v.nations,
            "seat": v.nations, "invader": v.invaders,
        }.get(kind)
        if kind == "side":
            return [*self.rules.nations, *(i.invader for i in self.rules.invasions.values())]
        if index is None:
            return []
        return list(index.names)

    def resolve(self, kind: str, text: str) -> Resolution:
        v = self.vocabulary
        if kind in ("power", "seat"):
            kind = "nation"
        if kind == "area":
            kind = "province"
        if kind == "side":
            for index in (v.nations, v.invaders):
                found = index.resolve(text)
                if found.ok:
                    return found
            return Resolution(error=f"unknown side '{text}'")
        index = {"province": v.provinces, "sea": v.seas, "nation": v.nations, "invader": v.invaders}[kind]
        return index.resolve(text)

    def public_view(self, state: State) -> dict[str, Any]:
        return public_view(self.rules, state)

    def status(self, state: State) -> str:
        return status_board(self.rules, state)

    def picture(self, state: State) -> Picture:
        return picture(self.rules, state)

    def wanted_draws(self, state: State) -> list[str]:
        wanted = {r.draw for r in state.open_rolls() if r.number is None and r.draw != COMMIT_REVEAL
                  and not r.draw.startswith(DRAND_PREFIX)}
        if state.phase == "awaiting_draw" and state.turn_draw:
            wanted.add(state.turn_draw)
        return sorted(d for d in wanted if d not in state.draws)

    def to_act(self, state: State) -> list[str]:
        acting = state.acting()
        return [acting] if acting else []

    def prompts(self, state: State) -> list[Prompt]:
        # One nation after another in the order of play the draw gave; battles are reported, not prompted.
        return [Prompt(seat, IN_TURN, "your orders for this turn", choices=("pass",), on_timeout="pass",
                       timeout_line=f"/gm pass {seat} timeout") for seat in self.to_act(state)]

    def timed_out(self, event: Event) -> str | None:
        # The pass the timeout line posts keeps its reason ("timeout") in the log, under the game's key "nation".
        if event.kind == "gm.pass" and str(event.data.get("reason", "")).startswith("timeout"):
            return str(event.data.get("nation", "")) or None
        return None

    def seats(self, state: State) -> list[Seat]:
        return [Seat(name, (name,), ns.player, ns.alive) for name, ns in state.nations.items()]

    def private_view(self, state: State, seat: str) -> dict[str, Any]:
        # Mare Nostrum is played in the open: every order and roll is public.
        return {}

    def summary(self, state: State) -> Summary:
        if state.turn == 0:
            label = "Before turn 1"
        else:
            label = f"Turn {state.turn} ({self.rules.year(state.turn)})"
        return Summary(
            turn=state.turn, turn_label=label, phase=state.phase, playing=state.phase in ("orders", "battles"),
            over=state.phase == "over", winner=state.winner, headline=tuple(self._headline(state)),
            draw=state.turn_draw, closed_turn=state.history[-1].turn if state.history else 0,
            order=tuple(state.order_of_play) if state.phase == "orders" else (),
        )

    def _headline(self, state: State) -> list[str]:
        """The turn's announcement: its draw, the order of play, the events and each nation's actions."""
        if state.turn == 0:
            return []
        # Only the parts of the public view the headline shows: the whole view grows with the campaign's history,
        # and the summary is computed for every post.
        nations = nations_view(self.rules, state)
        events = events_view(state)
        lines = [f"Lottery draw of {state.turn_draw}.", "", "**Order of play**"]
        for i, nation in enumerate(state.order_of_play, 1):
            n = nations[nation]
            lines.append(f"{i}. {nation} — {n['player'] or 'no player'}: {n['actions_total']} action(s), "
                         f"treasury {n['treasury']}, stability {n['stability']}")
        if events:
            lines += ["", "**Events**"]
            for nation, event in events.items():
                where = f" ({event['province']})" if event.get("province") else ""
                lines.append(f"• {nation}: {event['name']} ({event['number']}){where}")
        pending = [b for b in battles_view(state) if b["status"] in ("to_fight", "waiting_roll")]
        if pending:
            lines += ["", "**Battles already announced**"]
            lines += [f"• #{b['id']} {b['province'] or b['sea']}: {b['attacker']} against {b['defender'] or 'independent forces'}"
                      for b in pending]
        return lines

    def needs(self, state: State) -> list[Need]:
        return ([Need("lottery", d) for d in self.wanted_draws(state)]
                + [Need("commit-reveal", label, mix=mix) for label, mix in pending_labels(state)]
                + [Need("drand", round_no) for round_no in pending_rounds(state)])

    def ledger(self, state: State) -> list[dict[str, Any]]:
        """The turn's own draw (order of play and events: each nation's wheel, 1st to 3rd numbers), then every roll."""
        entries: list[dict[str, Any]] = []
        if state.turn_draw:
            day = state.turn_draw
            numbers = state.draws.get(day)
            wheels = [(n.name, n.wheel) for n in self.rules.nations.values()]
            entries.append({
                "id": f"turn-{state.turn}", "turn": state.turn, "purpose": "order of play and events", "seat": None,
                "source": "lottery", "key": day, "where": f"lottery draw {day}, each nation's wheel, numbers 1 to 3",
                "slots": [[day, wheel, position, f"{('order of play', 'random event', 'third number (event detail)')[position - 1]} of the {name}"]
                          for name, wheel in wheels for position in (1, 2, 3)],
                "values": None if numbers is None else [numbers[w][p - 1] for _, w in wheels for p in (1, 2, 3)],
                "outcome": ("order of play: " + ", ".join(state.order_of_play) if state.order_of_play else "drawn")
                if numbers is not None else "pending",
                "meaning": "the 1st number orders play (highest first), the 2nd picks the event, the 3rd its detail",
            })
        for r in state.rolls:
            label = r.label is not None
            drand = r.draw.startswith(DRAND_PREFIX)
            entries.append({
                "id": r.id, "turn": r.turn, "purpose": r.purpose.replace("_", " "), "seat": r.nation,
                "source": "drand" if drand else "commit-reveal" if label else "lottery",
                "key": r.draw[len(DRAND_PREFIX):] if drand else r.label if label else r.draw,
                "where": (f"drand round {r.draw[len(DRAND_PREFIX):]}, label '{r.label}'" if drand
                          else f"commit-reveal label '{r.label}'" + _mixed_words(r.label) if label
                          else f"lottery draw {r.draw}, wheel {r.wheel}, number {r.position}"),
                "slots": [] if label else [[r.draw, r.wheel, r.position, f"{r.purpose.replace('_', ' ')}{' of the ' + r.nation if r.nation else ''} (roll #{r.id})"]],
                "values": None if r.number is None else [r.number],
                "outcome": r.outcome if r.number is not None else "pending", "meaning": r.meaning,
            })
        return entries

    def ledger_mark(self, state: State) -> tuple[int, str | None, int, int]:
        # A roll bound again (a cancelled draw) takes a new slot or label: the used ones only ever grow.
        return state.turn, state.turn_draw, len(state.rolls), len(state.book.used)

    def seat_of(self, state: State, user: str) -> str | None:
        for name, ns in state.nations.items():
            if ns.player == user and ns.alive:
                return name
        return None

    def player_of(self, state: State, nation: str) -> str | None:
        ns = state.nations.get(nation)
        return ns.player if ns else None

    def carry_over(self, before: State, after: State) -> State:
        # Numbers once seen stay used: an undone roll's slot or label is never handed out again, and the public
        # values recorded stay known. A campaign before the clock rules hands an undone roll's id out again.
        next_id = after.book.next_id
        chance.carry(before.book, after.book)
        if not before.fresh_ids:
            after.book.next_id = next_id
        after.seed = after.seed or before.seed
        if before.fresh_ids:
            after.next_id = max(after.next_id, before.next_id)
        return after

    def _no_seat(self, state: State, actor: str) -> str:
        if actor == state.gm:
            return "you are the GM and play no nation; to give an order for a nation write /order <nation> <order>"
        out = next((n for n, ns in state.nations.items() if ns.player == actor and not ns.alive), None)
        if out is not None:
            return (f"your nation, the {out}, is out of the game ({state.nations[out].fate or 'out'}): "
                    "you have no more orders to give")
        return f"you ({actor}) play no nation in this campaign; ask the GM to assign you one"

    # --- event handlers ------------------------------------------------------------------------------------------------

    def _turn_opened(self, ctx: Ctx) -> None:
        data = ctx.event.data
        open_turn(ctx, str(data["draw"]), str(data.get("requested", data["draw"])))

    def _draw_recorded(self, ctx: Ctx) -> None:
        try:
            draw = Draw.from_dict(ctx.event.data)
        except (ValueError, KeyError, TypeError) as exc:
            raise Rejection(f"not a valid lottery draw: {exc}") from None
        date = draw.date.isoformat()
        if date in ctx.state.book.cancelled:
            raise Rejection(f"the draw of {date} was ruled not held (draw.cancelled): its rolls were bound to later draws")
        numbers = {w: list(n) for w, n in draw.numbers.items()}
        known = ctx.state.draws.get(date)
        if known is not None:
            if known != numbers:
                raise Rejection(f"the draw of {date} is already recorded with other numbers; a stored draw is never changed")
            return
        needed = {n.wheel for n in self.rules.nations.values()} | {r.wheel for r in ctx.state.open_rolls() if r.draw == date}
        missing = sorted(needed - set(numbers))
        if missing:
            raise Rejection(f"the draw of {date} lacks the wheels {', '.join(missing)}")
        ctx.state.book.draws[date] = numbers
        if ctx.state.phase == "awaiting_draw" and ctx.state.turn_draw == date:
            start_turn(ctx)

    def _draw_cancelled(self, ctx: Ctx) -> None:
        """A draw the campaign waits for was not held (the shell checked its time is long past and no source has
        it): its rolls are bound again to coming draws and a turn waiting for it opens on the next one offered.
        The ruling is in the log with who made it; ``verify`` refuses it if the public draws hold that date."""
        state = ctx.state
        day = str(ctx.event.data.get("date", ""))
        if day in state.draws:
            raise Rejection(f"the draw of {day} is recorded: it was held")
        if day in state.book.cancelled:
            raise Rejection(f"the draw of {day} is already ruled not held")
        waiting_turn = state.phase == "awaiting_draw" and state.turn_draw == day
        if not waiting_turn and not any(r.number is None and r.draw == day for r in state.open_rolls()):
            raise Rejection(f"nothing in this campaign waits for the draw of {day}")
        reason = str(ctx.event.data.get("reason") or "no reason given")[:200]
        ctx.say(f"The draw of {day} was not held ({reason}; ruled by {ctx.event.data.get('by') or ctx.event.actor}).")
        rebind_cancelled(ctx, day)
        if waiting_turn:
            later = later_draws(ctx, day)
            if not later:
                raise Rejection(f"no later lottery draw is known to open the turn on instead of {day}")
            state.turn_draw = later[0]
            ctx.say(f"Turn {state.turn} opens on the draw of {later[0]} instead.")
            if later[0] in state.draws:
                start_turn(ctx)

    def _random_recorded(self, ctx: Ctx) -> None:
        """The shell's numbers for commit-reveal labels, each derived from the committed seed (checkable once revealed)."""
        state = ctx.state
        book = state.book
        if state.randomness != COMMIT_REVEAL:
            raise Rejection("this campaign draws its rolls from the lottery, not from a commit-reveal seed")
        numbers = ctx.event.data.get("numbers")
        if not isinstance(numbers, dict) or not numbers:
            raise Rejection("random.recorded needs numbers: {label: number}")
        for label, number in numbers.items():
            if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 90:
                raise Rejection(f"the number of '{label}' must be a whole number from 1 to 90, not {number!r}")
            known = book.numbers.get(str(label))
            if known is not None and known != [number]:
                raise Rejection(f"'{label}' is already recorded as {known[0]}; a recorded number is never changed")
            # The book hands out the labels and the rounds they are mixed with: a round is no label.
            bound = str(label) in book.used and not str(label).startswith(DRAND_PREFIX)
            if state.commit_reveal_rule != 1 and not bound:
                raise Rejection(f"no roll of this campaign is bound to '{label}': no number can be recorded for it")
            early = commit_reveal.waits_for_round(str(label), book.beacons)
            if early:
                raise Rejection(early)
            if state.commit_reveal_rule != 1:
                wrong = commit_reveal.check_at_once(str(label), [number], 1, 1, 90, book.beacons)
                if wrong:
                    raise Rejection(wrong)
        for label, number in numbers.items():
            book.numbers[str(label)] = [number]

    def _beacon_recorded(self, ctx: Ctx) -> None:
        """A drand beacon the shell fetched and verified: its randomness settles the rolls bound to its round.
        Its signature is in the log, so anyone can verify it against the chain's public key (legatus verify)."""
        state = ctx.state
        if state.randomness not in ("drand", COMMIT_REVEAL):
            raise Rejection("this campaign does not draw its rolls from drand")
        record_beacon(state.book.beacons, ctx.event.data)

    def _seed_revealed(self, ctx: Ctx) -> None:
        self._require_gm(ctx)
        state = ctx.state
        if state.randomness != COMMIT_REVEAL or state.commitment is None:
            raise Rejection("this campaign draws its rolls from the lottery: it has no seed to reveal")
        if state.seed is not None:
            raise Rejection("the seed is already revealed")
        seed = str(ctx.event.data.get("seed") or "")
        if not commit_reveal.verify_reveal(commit_reveal.key(seed), state.commitment):
            raise Rejection(
                f"this seed does not match the commitment published at creation ({state.commitment[:12]}…): refused"
            )
        state.seed = seed
        if state.commit_reveal_rule != 1:
            ctx.say(f"The commit-reveal seed is revealed: {seed}. Its SHA-256 is the commitment published at creation. "
                    "Every number of this campaign came from its drand round and was checked as it was recorded; "
                    "no new roll can be made.")
            return
        ctx.say(
            f"The commit-reveal seed is revealed: {seed}. Its SHA-256 is the commitment published at creation, so anyone "
            "can now recompute every roll of the campaign from its label (legatus verify). No new roll can be made."
        )

    def _order(self, ctx: Ctx) -> None:
        data = ctx.event.data
        nation = str(data["nation"])
        actor = ctx.event.actor
        seat = self.seat_of(ctx.state, actor)
        if actor != ctx.state.gm and seat != nation:
            if seat is None:
                raise Rejection(self._no_seat(ctx.state, actor))
            raise Rejection(f"you play the {seat}, not the {nation}")
        try:
            order = order_from_dict(data["order"])
        except (KeyError, TypeError) as exc:
            raise Rejection(f"malformed order {data.get('order')!r}") from exc
        self._check_names(order)
        carry_out(ctx, nation, order)

    def _check_names(self, order: Any) -> None:
        m = self.rules.map
        for field_name in ("province", "base"):
            value = getattr(order, field_name, None)
            if value is not None and value not in m.provinces:
                raise Rejection(f"unknown province '{value}'")
        sea = getattr(order, "sea", None)
        if sea is not None and sea not in m.seas:
            raise Rejection(f"unknown sea '{sea}'")

    def _battle_reported(self, ctx: Ctx) -> None:
        data = ctx.event.data
        province = str(data["province"])
        if province not in self.rules.map.provinces:
            raise Rejection(f"unknown province '{province}'")
        battles.report(ctx, province, str(data["winner"]), ctx.event.actor)

    def _require_gm(self, ctx: Ctx) -> None:
        if ctx.event.actor != ctx.state.gm:
            raise Rejection(f"only the GM ({ctx.state.gm}) can do that")

    def _player_assigned(self, ctx: Ctx) -> None:
        self._require_gm(ctx)
        nation, player = str(ctx.event.data["nation"]), ctx.event.data.get("player")
        if nation not in ctx.state.nations:
            raise Rejection(f"unknown nation '{nation}': the nations are {', '.join(ctx.state.nations)}")
        if player and any(ns.player == player and n != nation and ns.alive for n, ns in ctx.state.nations.items()):
            raise Rejection(f"{player} already plays another nation")
        before = ctx.state.nations[nation].player
        ctx.state.nations[nation].player = player
        ctx.say(f"The {nation} are now played by {player or 'nobody'} (before: {before or 'nobody'}).")

    def _gm_pass(self, ctx: Ctx) -> None:
        self._require_gm(ctx)
        nation = str(ctx.event.data["nation"])
        ns = ctx.state.nations.get(nation)
        if ns is not None and not ns.alive:
            raise Rejection(f"the {nation} are out of the game ({ns.fate or 'out'}): they have no turn to end")
        acting = ctx.state.acting()
        if acting is None:
            now = ("every nation has declared (the battles phase)" if ctx.state.phase == "battles"
                   else f"no nation plays in the '{ctx.state.phase.replace('_', ' ')}' phase")
            raise Rejection(f"the {nation} are not playing now: {now}")
        if acting != nation:
            raise Rejection(f"the {nation} are not playing now (the {acting} are)")
        ctx.say(f"The GM ends the turn of the {nation}: {ctx.event.data.get('reason') or 'no reason given'}.")
        end_player_turn(ctx, nation)

    def _gm_lock(self, ctx: Ctx) -> None:
        self._require_gm(ctx)
        lock = bool(ctx.event.data.get("locked"))
        reason = str(ctx.event.data.get("reason") or "no reason given")
        if lock:
            if ctx.state.locked is not None:
                raise Rejection(f"orders are already locked ({ctx.state.locked})")
            ctx.state.locked = reason
            ctx.say(f"The GM locks the orders: {reason}. Players' orders are refused until /gm unlock.")
        else:
            if ctx.state.locked is None:
                raise Rejection("orders are not locked")
            ctx.state.locked = None
            ctx.say(f"The GM unlocks the orders ({reason}).")

    def _gm_set(self, ctx: Ctx) -> None:
        """A GM ruling that sets one fact, with its reason; the log keeps both."""
        self._require_gm(ctx)
        data = ctx.event.data
        what, target, value = str(data["what"]), str(data["target"]), data["value"]
        reason = data.get("reason") or "no reason given"
        state, rules = ctx.state, self.rules
        handed_capital: str | None = None
        if what not in GM_SETTABLE:
            raise Rejection(f"the GM can set {', '.join(sorted(GM_SETTABLE))}; not '{what}'")
        if what in ("stability", "actions"):
            if target not in state.nations:
                raise Rejection(f"unknown nation '{target}'")
            number = int(value)
            if what == "stability" and not 0 <= number <= rules.max_stability:
                raise Rejection(f"stability runs from 0 to {rules.max_stability}")
            if number < 0:
                raise Rejection(f"a nation has 0 actions or more, not {number}")
            setattr(state.nations[target], what, number)
        elif what == "fleets":
            sea, nation = target.split("|", 1)
            if sea not in rules.map.seas or nation not in state.nations:
                raise Rejection(f"unknown sea or nation in '{target}'")
            count = int(value)
            if not 0 <= count <= rules.max_fleets_per_sea:
                raise Rejection(f"a nation has 0 to {rules.max_fleets_per_sea} fleets in a sea")
            state.fleets.setdefault(sea, {})[nation] = count
            if count == 0:
                state.fleets[sea].pop(nation)
        else:
            if target not in state.provinces:
                raise Rejection(f"unknown province '{target}'")
            if what == "owner":
                if value is not None and value not in state.nations:
                    raise Rejection(f"unknown nation '{value}'")
                before = state.provinces[target].owner
                prov = rules.map.provinces[target]
                if before is not None and before != value and prov.is_capital and prov.nation == before \
                        and state.nations[before].alive:
                    handed_capital = before
                state.provinces[target].owner = value
            else:
                setattr(state.provinces[target], what, bool(value))
        ctx.say(f"GM ruling: {what} of {target.replace('|', ' / ')} set to {value} ({reason}).")
        if handed_capital is not None:
            # A capital handed over by ruling is lost as a conquered one is (the seed: losing the capital knocks the
            # nation out); the other provinces pass with their buildings, as no battle was fought.
            knock_out(ctx, handed_capital, value, value or "independent forces")
        if what == "stability" and int(value) <= 0 and state.nations[target].alive:
            fall(ctx, target)
        check_supremacy(ctx)
        if state.phase == "orders":
            after_ruling(ctx)
