"""Mediterranean Empires as a Ruleset (engine/ruleset.py): events, orders, prompts, views, chance."""
from __future__ import annotations

import copy
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import secrets
from engine.chance import book as chance
from engine.chance import lottery_slots
from engine.events import Event, Rejection
from engine import canonical
from engine.later import later
from engine.mediterranean_empires import control, options, setup_phase, view
from engine.mediterranean_empires import rules_version as versions
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import NeedAnswer, NeedMarker, NeedReveal, NeedRoll, NeedSeal, Oracle
from engine.mediterranean_empires.rules_data import RulesData, load_rules
from engine.names import NameIndex, Resolution
from engine.mediterranean_empires.asks import PHASE_ASK, operations_ask
from engine.mediterranean_empires.state import Action, Pending, State, Waiting, new_state
from engine.ruleset import (IN_TURN, NEED_REVEAL, NEED_SEAL, CommandSpec, command_as_post, Need, Picture, Prompt,
                            Proposal, Seat, Summary, Transition)

if TYPE_CHECKING:
    from engine.mediterranean_empires import combat, fastcopy, gm_rulings, hand, orders, parse, play, turn
    from engine.mediterranean_empires.orders import Order
else:  # a process that only reads a campaign (a map from its snapshot) plays no order: engine/later.py
    combat, fastcopy, gm_rulings, hand, orders, parse, play, turn = later(
        "engine.mediterranean_empires", "combat", "fastcopy", "gm_rulings", "hand", "orders", "parse", "play", "turn")

CHANCE_EVENTS = ("beacon.recorded", "random.recorded", "draw.recorded", "draw.cancelled")

# The game turn a roll's label starts with (``ledger``), compiled once: the ledger is read after every post.
_LABEL_TURN = re.compile(r"t(\d+)\.")


class MediterraneanEmpires:
    id = "mediterranean-empires"
    title = "Mediterranean Empires"
    randomness = "drand"
    # What the shell writes into a new campaign's campaign.created: older logs keep the reading they were played by.
    rules_version = versions.NEWEST

    def __init__(self, rules: RulesData) -> None:
        self.rules = rules
        # A seat is named by the shell's commands (/order A fight, /campaign assign B bob): its own name, its side's
        # letter, or one of the side's major powers (one word, as the shell splits arguments on spaces).
        majors = {side: [p.name for p in rules.powers.values() if p.status == "major" and p.side == side]
                  for side in rules.seats.values()}
        self.seat_index = NameIndex({seat: [side, f"Player {side}", *majors.get(side, [])]
                                     for seat, side in rules.seats.items()}, "seat")

    @property
    def options(self) -> dict[str, str]:
        """The campaign options a GM may choose at creation (name -> what it turns on): optional rules, a scenario."""
        return dict(self.rules.options)

    @classmethod
    def load(cls, data_dir: Path) -> "MediterraneanEmpires":
        return cls(load_rules(data_dir / "rulesets" / "mediterranean-empires.toml"))

    # --- state and events ------------------------------------------------------------------------------------------

    def initial_state(self, setup: dict[str, Any]) -> State:
        st = new_state(self.rules)
        players = dict(setup.get("players") or {})
        unknown = [s for s in players if s not in self.rules.seats]
        if unknown:
            raise Rejection(f"unknown seat(s) {', '.join(unknown)}: the seats are {', '.join(self.rules.seats)}")
        st.players = players
        st.gm = str(setup.get("gm") or "")
        source = str(setup.get("randomness") or chance.DRAND)
        if source not in chance.SOURCES:
            raise Rejection(f"unknown randomness '{source}': use {', '.join(chance.SOURCES)}")
        st.book = chance.ChanceBook(source=source, rule=chance.rule_of(source, setup),
                                    slot_rule=lottery_slots.rule_of(setup))
        st.options = options.chosen(self.rules, setup.get("options"))
        st.rules_version = versions.of(setup)
        control.snapshot_control(self.rules, st)
        if st.rules_version >= versions.SEED_SETUP:
            setup_phase.begin(self.rules, st)
        return st

    def apply(self, state: State, event: Event, *, in_place: bool = False) -> Transition:
        done = self._apply(state, event, in_place=in_place)
        # 12.0, the Pope's disposition: he stays in Rome only while his player has total control of it, "at any
        # time" (an enemy force entering the Papal States, a rebellion, a GM ruling), not only until he dies.
        left = turn.pope_leaves(done.state)
        return done if left is None else Transition(done.state, (*done.messages, left))

    def _apply(self, state: State, event: Event, *, in_place: bool = False) -> Transition:
        st = state if in_place else copy.deepcopy(state)
        if event.kind == "player.assigned":
            # The shell's /campaign assign names the seat "nation" (its word for any seat); a log may say "seat".
            seat = str(event.data.get("seat", event.data.get("nation", "")))
            if seat not in self.rules.seats:
                raise Rejection(f"unknown seat '{seat}': the seats are {', '.join(self.rules.seats)}")
            st.players[seat] = str(event.data.get("player", ""))
            return Transition(st, (f"{seat} is played by {st.players[seat]}.",))
        if event.kind in CHANCE_EVENTS:
            return self._chance(st, event)
        if event.kind == gm_rulings.KIND:
            return Transition(st, gm_rulings.apply(self.rules, st, event))
        if event.kind == secrets.REVEALED:
            return self._revealed(st, event)
        if event.kind == secrets.SEALED:
            return self._pick_sealed(st, event)
        if event.kind != "order":
            raise Rejection(f"Mediterranean Empires does not know the event '{event.kind}'")
        seat = str(event.data.get("seat", ""))
        if seat not in self.rules.seats:
            raise Rejection(f"unknown seat '{seat}'")
        if "sealed_answer" in event.data:
            return self._sealed_answer(st, event, seat)
        stored = event.data.get("order")
        if stored and not isinstance(stored, dict):
            raise Rejection("an order event carries its order as a dict (orders.py), or its line as 'text'")
        if stored:
            order = orders.order_from_dict(stored)
        else:
            try:
                order = parse.read_line(self.rules, str(event.data.get("text", "")))
            except parse.Unclear as exc:
                raise Rejection(str(exc)) from exc
        if isinstance(order, orders.Draw) and st.pick_key is None and st.phase != setup_phase.PHASE:
            self._pick_key(st, event)
        return self._order(st, event, seat, order)

    def _pick_key(self, st: State, event: Event) -> None:
        """The game's first draw order carries the bot's pick key under seal (hand.py): sealed before the public
        value of any pick exists, so no one, the bot included, can choose a pick with it."""
        sealed = str(event.data.get("sealed", ""))
        if len(sealed) != 64 or any(c not in "0123456789abcdef" for c in sealed):
            raise Rejection("the game's first stratagem draw carries the bot's sealed pick key: post 'draw' to Legatus")
        salt = None
        if event.secret is not None:
            content = secrets.check(event.secret.get("content"), event.secret.get("salt"), sealed)
            if content != hand.PICK_KEY_CONTENT:
                raise Rejection("the sealed content of the first draw is not the stratagem pick key")
            salt = str(event.secret["salt"])
        st.pick_key = {"seq": event.seq, "digest": sealed, "salt": salt, "revealed": False}

    def _order(self, st: State, event: Event, seat: str, order: Order) -> Transition:
        side = self.rules.seats[seat]
        if isinstance(order, orders.Standing):
            rules = st.standing.setdefault(seat, [])
            if order.rule == "clear standing orders":
                rules.clear()
            else:
                rules[:] = [r for r in rules if r.split()[0:2] != order.rule.split()[0:2]] + [order.rule]
            return Transition(st, (f"{seat}'s standing orders: {'; '.join(rules) or 'none'}.",))
        if st.phase == setup_phase.PHASE:
            return Transition(st, tuple(self._set_up(st, side, order)))
        if st.action is not None:
            pending = st.action.pending
            if not isinstance(order, orders.Answer) or pending.kind is not Waiting.ANSWER or pending.seat != seat:
                raise Rejection(f"the game is waiting for {pending.describe()}")
            answer = order.answer
            if answer not in [c.lower() for c in pending.choices]:
                raise Rejection(f"'{answer}' is not an answer to '{pending.question}': answer "
                                + " or ".join(f"'{c}'" for c in pending.choices))
            st.action.answers[pending.label] = next(c for c in pending.choices if c.lower() == answer)
            return self._run(st, event, st.action)
        # The order starts from the current state itself; only if it parks is that state kept as its own starting
        # state (``_park``): most orders end at once, and a copy made for them would be thrown away.
        return self._run(st, event, Action(side, order, st, Pending(Waiting.NONE, "")))

    def _set_up(self, st: State, side: str, order: Order) -> list[str]:
        """The set-up phase (3.1-3.2) takes placements only: no die, no answer, so it never parks an order, and the
        labels of the game's rolls (``t1.o0``...) are those a campaign that began with the data's placement has."""
        if isinstance(order, orders.Place):
            return setup_phase.place(self.rules, st, side, order.power, order.kind, order.area, order.count)
        if isinstance(order, orders.StandardSetUp):
            return setup_phase.standard(self.rules, st, side)
        written = order.answer if isinstance(order, orders.Answer) else order.name
        now = (f"now you are asked: {setup_phase.ask(self.rules, st)}" if st.to_move == side else
               f"Player {st.to_move} sets up now (Player A first, then Player B)")
        raise Rejection(f"'{written}' is not a set-up order, and the game begins with the set-up (3.1-3.2); {now}")

    def _sealed_answer(self, st: State, event: Event, seat: str) -> Transition:
        """An initiative bid under seal: the public event holds its digest; the content is checked now only where the
        bot's private store is folded in, and used by the rules once the shell reveals it."""
        action = st.action
        label = str(event.data.get("sealed_answer"))
        if action is None or action.pending.kind is not Waiting.ANSWER or action.pending.mode != "bid" \
                or action.pending.seat != seat or action.pending.label != label:
            raise Rejection("no sealed bid is asked of you now")
        sealed = str(event.data.get("sealed", ""))
        if len(sealed) != 64 or any(c not in "0123456789abcdef" for c in sealed):
            raise Rejection("a sealed bid carries the digest of its content (64 lowercase hex digits)")
        entry: dict[str, Any] = {"seq": event.seq, "digest": sealed, "seat": seat,
                                 "choices": list(action.pending.choices)}
        if event.secret is not None:
            content = secrets.check(event.secret.get("content"), event.secret.get("salt"), sealed)
            answer = str(content.get("answer", ""))
            if answer not in entry["choices"]:
                raise Rejection(f"'{answer}' is not a bid here: bid " + " or ".join(f"'{c}'" for c in entry["choices"]))
            side = self.rules.seats[seat]
            if hand.knows_hand(st, side):  # the bot's fold: a bid above the markers held is refused at once
                skip = {r["seq"] for r in action.revealed}
                held = len(hand.candidates(st, side, combat.INITIATIVE_MARKERS, skip)) + sum(
                    1 for e in st.sides[side].hand if e["seq"] is None and e["marker"] in combat.INITIATIVE_MARKERS)
                if int(answer) > held:
                    raise Rejection(f"you hold {held} Military Advantage/Ambush marker(s): bid 0 to {held}",
                                    hidden_of=seat)
            entry["answer"] = answer
        action.sealed[label] = entry
        return self._run(st, event, action, (f"{seat} seals an initiative bid (digest {sealed[:12]}…).",))

    def _revealed(self, st: State, event: Event) -> Transition:
        seq = event.data.get("seq")
        action = st.action
        found = None if action is None else next((k for k, v in action.sealed.items() if v["seq"] == seq), None)
        if action is not None and action.pending.kind is Waiting.MARKER:
            return self._marker_revealed(st, event, action)
        if st.phase == "over" and found is None:
            return self._revealed_at_end(st, event)
        if action is None or found is None:
            raise Rejection(f"event #{seq} holds no sealed bid still to reveal")
        if action.pending.kind is not Waiting.REVEAL:
            raise Rejection(f"the sealed bid of event #{seq} is not due yet: both bids must be in")
        entry = action.sealed.pop(found)
        content = secrets.check(event.data.get("content"), event.data.get("salt"), entry["digest"])
        answer = str(content.get("answer", ""))
        if answer not in entry["choices"]:
            raise Rejection(f"the revealed bid '{answer}' was not one of {', '.join(entry['choices'])}")
        action.answers[found] = answer
        said = (f"{entry['seat']}'s sealed bid revealed: {answer} marker(s) (it matches digest {entry['digest'][:12]}…).",)
        if any(v for v in action.sealed.values()):
            return Transition(st, said)
        return self._run(st, event, action, said)

    def _marker_revealed(self, st: State, event: Event, action: Action) -> Transition:
        """A claimed marker shown: it must be one the seat drew under seal (its digest), of a kind claimed."""
        seq, pending = event.data.get("seq"), action.pending
        side = self.rules.seats[str(pending.seat)]
        entry = next((e for e in st.sides[side].hand if e["seq"] == seq and e["seq"] is not None), None)
        if entry is None or any(r["seq"] == seq for r in action.revealed):
            raise Rejection(f"event #{seq} holds no stratagem marker of {pending.seat} still in hand")
        content = secrets.check(event.data.get("content"), event.data.get("salt"), str(entry["digest"]))
        marker = str(content.get("marker", ""))
        if content.get("pick") != entry["pick"]:
            raise Rejection(f"the revealed content of event #{seq} is not the marker of the pick {entry['pick']}")
        if marker not in pending.choices:
            raise Rejection(f"the marker revealed, {marker}, is not the {' or '.join(pending.choices)} claimed")
        if marker not in st.unseen:
            raise Rejection(f"the marker revealed, {marker}, is not among the markers unseen: it cannot have been held")
        action.revealed.append({"seq": seq, "side": side, "marker": marker})
        said = (f"{pending.seat} reveals {marker} (drawn as {entry['pick']}; it matches digest {entry['digest'][:12]}…).",)
        return self._run(st, event, action, said)

    def _revealed_at_end(self, st: State, event: Event) -> Transition:
        """The game is over: the pick key and every marker still sealed are revealed, so that anyone can re-derive
        every pick from the export (``legatus verify``)."""
        seq = event.data.get("seq")
        key = st.pick_key
        if key is not None and key["seq"] == seq and not key["revealed"]:
            content = secrets.check(event.data.get("content"), event.data.get("salt"), key["digest"])
            if content != hand.PICK_KEY_CONTENT:
                raise Rejection(f"the content revealed for event #{seq} is not the stratagem pick key")
            key["salt"], key["revealed"] = str(event.data["salt"]), True
            return Transition(st, (f"The stratagem pick key is revealed (it matches digest {key['digest'][:12]}…): "
                                   "every pick of the game can now be derived again.",))
        for side, s in st.sides.items():
            for entry in s.hand:
                if entry["seq"] == seq and entry["seq"] is not None and not entry["revealed"]:
                    content = secrets.check(event.data.get("content"), event.data.get("salt"), str(entry["digest"]))
                    marker = str(content.get("marker", ""))
                    if content.get("pick") != entry["pick"] or marker not in st.unseen:
                        raise Rejection(f"the content revealed for event #{seq} is not a marker of the pick {entry['pick']}")
                    entry["marker"], entry["revealed"] = marker, True
                    st.unseen.remove(marker)
                    return Transition(st, (f"Player {side} held {marker} (drawn as {entry['pick']}).",))
        raise Rejection(f"event #{seq} holds nothing sealed still to reveal")

    def _pick_sealed(self, st: State, event: Event) -> Transition:
        """The bot seals the marker a pick gives (``secret.sealed``): the export sees its digest, and the marker only
        when it is shown at once (the Plague, the Pope, the Crusade). The bot's fold checks it is the marker that the
        pick key and the public value give; ``legatus verify`` does the same once the key is revealed."""
        action, key = st.action, str(event.data.get("key", ""))
        if action is None or action.pending.kind is not Waiting.SEAL or action.pending.label != key:
            raise Rejection(f"no stratagem pick '{key}' waits for its seal (a pick once sealed stays: the draw that "
                            "made it cannot be voided)")
        sealed = str(event.data.get("sealed", ""))
        if len(sealed) != 64 or any(c not in "0123456789abcdef" for c in sealed):
            raise Rejection("a sealed pick carries the digest of its content (64 lowercase hex digits)")
        shown = event.data.get("marker")
        if shown is not None and (shown not in hand.IMMEDIATE or shown not in st.unseen):
            raise Rejection(f"only {', '.join(hand.IMMEDIATE)} still in the pool are shown when drawn, not {shown!r}")
        marker = shown
        if event.secret is not None:
            content = secrets.check(event.secret.get("content"), event.secret.get("salt"), sealed)
            marker = str(content.get("marker", ""))
            if content.get("pick") != key or (shown is not None and shown != marker) or marker not in st.unseen:
                raise Rejection(f"the sealed content is not a marker of the pool for the pick {key}")
        expected = action.pending.content  # where this fold knows the pick key and the pool: the bot's, verify's
        public = {"marker": shown} if shown is not None else {}
        if expected is not None and (public != expected["public"] or (marker is not None and marker != expected["content"]["marker"])):
            raise Rejection(f"the pick {key} gives {expected['content']['marker']}"
                            f"{' (shown)' if expected['public'] else ''}, not {marker or 'a sealed marker'}"
                            f"{' (shown)' if shown else ''}: the marker sealed is not the one the pick key and the "
                            "public value derive")
        action.picks[key] = {"seq": event.seq, "digest": sealed, "pick": key, "marker": marker, "shown": shown is not None}
        seat = action.pending.seat
        done = self._run(st, event, action)
        if marker is not None and shown is None and seat:
            return replace(done, private={seat: (f"You draw {marker} (sealed as {sealed[:12]}…).",)})
        return done

    def _run(self, current: State, event: Event, action: Action, said: tuple[str, ...] = ()) -> Transition:
        """Plays the order from its starting state with every die and answer known so far. Only ``work``, a copy, is
        changed until the order is done: parked, the current state is as the order found it (but what only grows)."""
        work = fastcopy.detached_copy(action.base, book=current.book, log=current.log,
                              standing=current.standing)
        oracle = Oracle(rolls=chance.Drawn(work.book), answers=action.answers,
                        prefix=f"t{work.turn}.o{work.actions_done}.",
                        sealed=frozenset(action.sealed), revealed=action.revealed, picks=action.picks,
                        standing=lambda seat, kind, ctx: self._standing(work, seat, kind, ctx))
        ctx = Ctx(self.rules, work, oracle)
        try:
            play.play(ctx, action.side, action.order)
        except Rejection as exc:
            if action.answers or action.pending.kind is not Waiting.NONE:
                raise Rejection(f"the order can no longer be carried out: {exc.reason}", hidden_of=exc.hidden_of) from exc
            raise
        except NeedRoll as need:
            self._park(current, action)
            action.pending = Pending(Waiting.ROLL, need.label, count=need.count, sides=need.sides)
            if not any(b.label == need.label for b in current.book.bindings):
                chance.ask(current.book, event, need.label, 1, need.sides, need.count,
                           purpose=need.label.split(".", 2)[-1], seat=self.rules.seat_of_side(action.side))
            return Transition(current, said + self._news(ctx, action) +
                              (f"Waiting for the roll '{need.label}' ({need.count}d{need.sides}).",))
        except NeedMarker as need:
            self._park(current, action)
            seat = self.rules.seat_of_side(need.side)
            action.pending = Pending(Waiting.MARKER, "", seat, choices=need.kinds)
            return Transition(current, said + self._news(ctx, action) +
                              (f"{seat} plays a {' or '.join(need.kinds)} marker: it is revealed.",))
        except NeedSeal as need:
            self._park(current, action)
            seat = self.rules.seat_of_side(need.side)
            action.pending = Pending(Waiting.SEAL, need.label, seat, content=self._pick_content(work, need))
            return Transition(current, said + self._news(ctx, action))
        except NeedReveal as need:
            self._park(current, action)
            action.pending = Pending(Waiting.REVEAL, need.labels[0])
            return Transition(current, said + self._news(ctx, action) + ("Both initiative bids are in: they are revealed.",))
        except NeedAnswer as need:
            self._park(current, action)
            action.pending = Pending(Waiting.ANSWER, need.label, need.seat, need.question, need.choices, need.default,
                                     mode=need.mode)
            return Transition(current, said + self._news(ctx, action) +
                              (f"{need.seat}: {need.question} ({' / '.join(need.choices)})",))
        news = self._news(ctx, action)
        work.actions_done += 1
        work.action = None
        work.log.extend(ctx.messages)
        return Transition(work, said + news)

    @staticmethod
    def _park(current: State, action: Action) -> None:
        """The order waits (a roll, an answer, a reveal, a seal). A new order's starting state becomes a copy of the
        current state, which the order has not changed; it shares the parts that only grow (the chance book,
        messages, standing orders) with the current state, and a replay of the order always takes those from the
        current state (``_run``)."""
        if action.base is current:
            action.base = fastcopy.detached_copy(current, book=current.book, log=current.log,
                                         standing=current.standing)
        current.action = action

    @staticmethod
    def _news(ctx: Ctx, action: Action) -> tuple[str, ...]:
        """What the order has said since it was last parked (its replay says the same things first)."""
        new = tuple(ctx.messages[action.announced:])
        action.announced = len(ctx.messages)
        return new

    def _chance(self, st: State, event: Event) -> Transition:
        book = st.book
        chance.record(book, event)
        chance.settle(book, event)
        if (st.action is None or st.action.pending.kind is not Waiting.ROLL
                or st.action.pending.label not in chance.Drawn(book)):
            return Transition(st)
        done = self._run(st, event, st.action)
        # The order plays on and may ask for its next die; on the lottery it can take another wheel of the draw this
        # event records (what the order does next follows from it, no one decides in between, as in Mare Nostrum's
        # chains of battles). That value is known: it is settled now, or the order would wait for it forever.
        while done.state.rules_version >= versions.SETTLE_AT_ONCE:
            nxt = done.state
            pending = nxt.action.pending if nxt.action is not None else None
            if pending is None or pending.kind is not Waiting.ROLL:
                break
            chance.settle(nxt.book, event)
            if pending.label not in chance.Drawn(nxt.book):
                break
            more = self._run(nxt, event, nxt.action)
            private = {seat: done.private.get(seat, ()) + more.private.get(seat, ())
                       for seat in {**done.private, **more.private}}
            done = Transition(more.state, done.messages + more.messages, private)
        return done

    @staticmethod
    def _pick_content(work: State, need: NeedSeal) -> dict[str, Any] | None:
        """The marker a pick gives, where the fold knows the pick key and the pool (the bot's own fold): the
        ``index``-th of the pool sorted by name, index = hand.pick_index(key, label, public value)."""
        key, pool = work.pick_key, hand.pool(work)
        if key is None or key.get("salt") is None or not pool:
            return None
        marker = pool[hand.pick_index(str(key["salt"]), need.label, need.values, len(pool))]
        shown = need.shows and marker in hand.IMMEDIATE
        return {"content": {"marker": marker, "pick": need.label}, "public": {"marker": marker} if shown else {}}

    def _standing(self, st: State, seat: str, kind: str, context: dict[str, Any]) -> str | None:
        for rule in st.standing.get(seat, []):
            if kind == "intercept" and rule == "never intercept":
                return "do not intercept"
            if kind == "intercept" and rule == "always intercept":
                return "intercept"
            if kind == "intercept_units" and rule == "always intercept":
                return str(context["default"])  # with every unit there (rules version 2 asks how many)
            if kind == "avoid" and rule.startswith("always avoid combat"):
                words = rule.split()
                if words[-1] != "units" or context.get("defenders", 0) < int(words[-2]):
                    return "avoid combat"
            if kind == "loss" and rule == "take losses cheapest first" and context.get("default"):
                return str(context["default"])
        return None

    # --- posts and commands ----------------------------------------------------------------------------------------

    def read_post(self, state: State, actor: str, text: str, seat: str | None = None) -> list[Proposal]:
        seat = seat or self.seat_of(state, actor)
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if seat is None:
                out.append(Proposal(n, line, error="you have no seat in this game"))
                continue
            try:
                order = parse.read_line(self.rules, line)
            except parse.Unclear as exc:
                out.append(Proposal(n, line, error=f"'{line.strip()}': {exc}"))
                continue
            label = self._sealed_bid(state, seat) if isinstance(order, orders.Answer) else None
            if isinstance(order, orders.Answer) and label is not None:
                # The bid goes under seal: the public event carries only its digest (engine/secrets.py).
                out.append(Proposal(n, line, "order", {"seat": seat, "sealed_answer": label},
                                    understood=f"a sealed initiative bid for {seat}", secret={"answer": order.answer}))
                continue
            if isinstance(order, orders.Draw) and state.pick_key is None and state.phase != setup_phase.PHASE:
                # The game's first draw carries the bot's pick key under seal: the shell's salt of this seal (hand.py).
                out.append(Proposal(n, line, "order", {"seat": seat, "order": order.to_dict()},
                                    understood="draw (with the bot's sealed stratagem pick key)",
                                    secret=dict(hand.PICK_KEY_CONTENT)))
                continue
            out.append(Proposal(n, line, "order", {"seat": seat, "order": order.to_dict()},
                                understood=order.describe()))
        return out

    def _sealed_bid(self, state: State, seat: str) -> str | None:
        """The label of the sealed bid asked of ``seat`` now, or None."""
        a = state.action
        if a is None or a.pending.kind is not Waiting.ANSWER or a.pending.seat != seat or a.pending.mode != "bid":
            return None
        return a.pending.label

    def shell_refusals(self, state: State) -> dict[str, str]:
        from engine.mediterranean_empires.shell_commands import refusals

        return refusals(state)

    def commands(self) -> list[CommandSpec]:
        from engine.mediterranean_empires.commands import COMMANDS

        return [*COMMANDS, gm_rulings.SPEC]

    def read_command(self, state: State, actor: str, name: str, args: list[str], *, is_gm: bool) -> Proposal:
        """A command is an order line written with picked names: read exactly as the typed line would be."""
        from engine.mediterranean_empires.commands import COMMANDS, command_line

        if name == gm_rulings.SPEC.name:
            if not is_gm:
                return Proposal(0, f"/{name}", error="/gm set is for the GM only")
            return gm_rulings.read(self.rules, self.resolve, args, f"/{name} {' '.join(args)}")
        return command_as_post(self, state, actor, name, args, COMMANDS, command_line)

    def names(self, kind: str) -> list[str]:
        if kind == "power":
            return list(self.rules.powers)
        if kind in ("area", "land", "sea"):
            return {"area": self.rules.map.areas, "land": list(self.rules.map.lands), "sea": list(self.rules.map.seas)}[kind]
        if kind in ("seat", "nation"):
            return list(self.rules.seats)
        return []

    def resolve(self, kind: str, text: str) -> Resolution:
        if kind in ("nation", "seat"):
            return self.seat_index.resolve(text)
        index = self.rules.power_index if kind in ("power", "side") else self.rules.map.index
        return index.resolve(text)

    # --- seats and prompts -----------------------------------------------------------------------------------------

    def seats(self, state: State) -> list[Seat]:
        return [Seat(seat, tuple(p for p, s in state.side_of.items() if s == side and state.status[p] in ("major", "ally")),
                     state.players.get(seat)) for seat, side in self.rules.seats.items()]

    def seat_of(self, state: State, user: str) -> str | None:
        return next((s for s, u in state.players.items() if u == user), None)

    def player_of(self, state: State, seat: str) -> str | None:
        return state.players.get(seat)

    def prompts(self, state: State) -> list[Prompt]:
        if state.phase == "over":
            return []
        if state.action is not None:
            p = state.action.pending
            if p.kind is Waiting.ANSWER and p.seat:
                return [Prompt(p.seat, p.mode if p.mode != "turn" else IN_TURN, p.question, p.choices, p.default, 24)]
            return []
        seat = self.rules.seat_of_side(state.to_move)
        if state.phase == setup_phase.PHASE:
            return [Prompt(seat, IN_TURN, setup_phase.ask(self.rules, state), ("standard set-up",), None, 72)]
        if state.phase.startswith("operations"):
            what = operations_ask(state)
            return [Prompt(seat, IN_TURN, what, ("end operations",), None, 72)]
        if state.phase in ("recruitment", "end of turn"):
            return [Prompt(seat, IN_TURN, PHASE_ASK[state.phase], ("done",), "done", 48)]
        timeout = "draw" if state.phase == "stratagems" else "pass"
        return [Prompt(seat, IN_TURN, PHASE_ASK[state.phase], (timeout,), timeout, 48)]

    def to_act(self, state: State) -> list[str]:
        return [p.seat for p in self.prompts(state)]

    # --- views -----------------------------------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        return view.public_view(self.rules, state)

    def private_view(self, state: State, seat: str) -> dict[str, Any]:
        return view.private_view(self.rules, state, seat)

    def summary(self, state: State) -> Summary:
        return view.summary(self.rules, state)

    def status(self, state: State) -> str:
        return view.status(self.rules, state)

    def picture(self, state: State) -> Picture:
        from engine.mediterranean_empires.picture import picture

        return picture(self.rules, self.title, state)

    # --- chance ----------------------------------------------------------------------------------------------------

    def needs(self, state: State) -> list[Need]:
        wanted = chance.needs(state.book)
        a = state.action
        if a is not None and a.pending.kind is Waiting.REVEAL:
            wanted += [Need(NEED_REVEAL, str(v["seq"])) for v in sorted(a.sealed.values(), key=lambda v: v["seq"])]
        if a is not None and a.pending.kind is Waiting.MARKER and a.pending.seat:
            # Only the bot's fold knows which sealed markers back the claim; which one it opens is keyed by the pick
            # key (hand.choose_reveal), so that the one opened says nothing definite of the seat's other markers.
            side = self.rules.seats[a.pending.seat]
            found = hand.candidates(state, side, a.pending.choices, {r["seq"] for r in a.revealed})
            label = f"t{state.turn}.o{state.actions_done}.claim{len(a.revealed) + 1}"
            wanted += [Need(NEED_REVEAL, str(hand.choose_reveal(state, found, label)["seq"]))] if found else []
        if a is not None and a.pending.kind is Waiting.SEAL and a.pending.content is not None:
            wanted.append(Need(NEED_SEAL, a.pending.label, content=canonical.dumps(a.pending.content)))
        if state.phase == "over":
            key = state.pick_key
            if key is not None and not key["revealed"]:
                wanted.append(Need(NEED_REVEAL, str(key["seq"])))
            wanted += [Need(NEED_REVEAL, str(e["seq"])) for s in state.sides.values() for e in s.hand
                       if e["seq"] is not None and not e["revealed"]]
        return wanted

    def wanted_draws(self, state: State) -> list[str]:
        return [n.key for n in self.needs(state) if n.source == chance.LOTTERY]

    def ledger(self, state: State) -> list[dict[str, Any]]:
        # Every label starts with the game turn its order was given in ("t3.o41.force.ops"): the ledger's turn.
        return [chance.ledger_entry(b, int(m[1]) if (m := _LABEL_TURN.match(b.label)) else None)
                for b in state.book.bindings]

    def ledger_mark(self, state: State) -> tuple[int, int]:
        # A binding bound again (a cancelled draw) is handed new slots: ``used`` only ever grows.
        return len(state.book.bindings), len(state.book.used)

    def carry_over(self, before: State, after: State) -> State:
        chance.carry(before.book, after.book)
        return after
