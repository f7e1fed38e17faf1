"""Blind Auction: a small two-player game of sealed bids, hosted through ``engine/ruleset.py`` alone.

Rules. Seats North and South (``campaign.created`` data: ``ruleset``, ``gm``, ``players: {seat: user}``,
``randomness``: "drand" (default), "lottery" or "commit-reveal", ``commitment`` for commit-reveal; or "fixed" with
``fixed_values`` for a scenario, engine/chance/sources/fixed.py).
1. Hands: each seat seals three different cards from 1 to 9 (order ``hand 2 5 9``; event ``hand.sealed``).
2. Three rounds: each seat seals one card of its hand (``bid 5``; event ``bid.sealed``). There is no passing.
   Once both bids are in, the shell reveals them; the higher card scores 1 point. Equal cards: the tie dice
   decide, one die each (roll label ``round-<n>-tie``, values [North's, South's]); equal dice roll again
   (``round-<n>-tie-2``, ...). A card can be bid once.
3. After round 3 the shell reveals both hands. A seat that bid a card not in its sealed hand, or one card twice,
   loses the game (both: nobody wins). Else most points wins; equal points is a draw. ``/concede`` ends it early.

Sealed orders. A sealed event's data is ``{"seat", "sealed": digest}``; its content (``{"cards": [...]}``,
``{"card": n}``) comes in ``Event.secret`` only when the fold runs with the shell's private store: then a bad hand
or a bid of a card not held (or already bid) is refused at once. A replay of the public export cannot check it until
the hands are revealed, and the foul decides the game then. ``needs`` lists ``Need("secret", "<seq>")`` when a
content is due (both bids of a round in; round 3 decided; anything still sealed once the game is over); the shell
answers with ``secret.revealed`` ``{"seq", "content", "salt"}``, checked against the digest. A reveal not yet due is
refused. Prompts are sealed, with no buttons and no timeout order (``on_timeout`` None: the GM must act, e.g.
``/order South bid 3``, or ``/concede South``).
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from engine import commit_reveal, secrets
from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.names import NameIndex, Resolution
from engine.ruleset import SEALED, Argument, CommandSpec, Need, Picture, Prompt, Proposal, Said, Seat, Space, Summary, Transition
from tests.games.blind_auction.state import (
    BIDS, CARDS, CHECK, HAND_SIZE, HANDS, OVER, REVEAL, ROUNDS, SEATS, TIE, Round, SeatState, Sealed, State,
)

ORDERS = "the orders are 'hand <a> <b> <c>' (three different cards from 1 to 9) and 'bid <card>'"


class BlindAuction:
    id = "blind-auction"
    title = "Blind Auction"
    randomness = "drand"

    def __init__(self) -> None:
        self.seat_names = NameIndex({s: () for s in SEATS}, "seat")

    @classmethod
    def load(cls, data_dir: Path) -> "BlindAuction":
        return cls()  # no data files: the whole game is this module

    # --- folding -----------------------------------------------------------------------------------------------

    def initial_state(self, setup: dict[str, Any]) -> State:
        players = dict(setup.get("players") or {})
        unknown = [s for s in players if s not in SEATS]
        if unknown:
            raise Rejection(f"unknown seat(s) {', '.join(unknown)}: the seats are North and South")
        if len(set(players.values())) < len(players):
            raise Rejection("one player per seat: the same user cannot play North and South")
        source = str(setup.get("randomness") or chance.DRAND)
        if source not in chance.SOURCES:
            raise Rejection(f"unknown randomness '{source}': use {', '.join(chance.SOURCES)}")
        seats = {s: SeatState(s, players.get(s)) for s in SEATS}
        state = State(self.id, str(setup.get("gm", "gm")), seats, chance.new_book(source, setup))
        state.commitment = setup.get("commitment") if source == chance.COMMIT_REVEAL else None
        state.rounds.append(Round(1))
        return state

    def apply(self, state: State, event: Event, *, in_place: bool = False) -> Transition:
        state = state if in_place else copy.deepcopy(state)
        say = Said()
        handler = {
            "hand.sealed": self._hand, "bid.sealed": self._bid, secrets.REVEALED: self._revealed,
            "game.conceded": self._conceded, "player.assigned": self._assigned, "seed.revealed": self._seed,
        }.get(event.kind)
        if handler is not None:
            handler(state, event, say)
        elif not chance.record(state.book, event):
            raise Rejection(f"the {self.title} ruleset does not know events of kind '{event.kind}'")
        chance.settle(state.book, event)
        self._progress(state, event, say)
        return say.transition(state)

    def _acting_for(self, state: State, event: Event) -> str:
        seat = str(event.data.get("seat", ""))
        if seat not in SEATS:
            raise Rejection(f"unknown seat '{seat}': the seats are North and South")
        if event.actor != state.gm and state.seats[seat].player != event.actor:
            raise Rejection(f"you ({event.actor}) do not play {seat}")
        if state.phase == OVER:
            raise Rejection(f"the game is over ({state.outcome})")
        return seat

    def _sealing(self, event: Event) -> tuple[str, dict[str, Any] | None]:
        """The digest, and the content when the fold has the shell's private store (checked against the digest)."""
        sealed = str(event.data.get("sealed", ""))
        if len(sealed) != 64 or any(c not in "0123456789abcdef" for c in sealed):
            raise Rejection("a sealed order carries the digest of its content (64 lowercase hex digits)")
        if event.secret is None:
            return sealed, None
        return sealed, secrets.check(event.secret.get("content"), event.secret.get("salt"), sealed)

    def _hand(self, state: State, event: Event, say: Said) -> None:
        seat = self._acting_for(state, event)
        if state.phase != HANDS or state.seats[seat].hand is not None:
            raise Rejection(f"{seat} has already sealed its hand; a sealed hand cannot be changed")
        sealed, known = self._sealing(event)
        if known is not None and (problem := hand_problem(known)):
            raise Rejection(problem)
        state.seats[seat].hand = Sealed(event.seq, sealed, known=known)
        say(f"{seat} seals a hand of {HAND_SIZE} cards (digest {sealed[:12]}…).")
        if known is not None:
            say(f"Your sealed hand: {', '.join(map(str, known['cards']))}.", seat)

    def _bid(self, state: State, event: Event, say: Said) -> None:
        seat = self._acting_for(state, event)
        r = state.current()
        if state.phase == HANDS:
            raise Rejection("the bids open once both hands are sealed")
        if state.phase != BIDS or r is None or seat in r.bids:
            raise Rejection(f"{seat} has already sealed its bid for round {state.turn()}; it cannot be changed")
        sealed, known = self._sealing(event)
        if known is not None:
            card = known.get("card")
            left = remaining(state, seat)
            if not isinstance(card, int) or isinstance(card, bool) or card not in CARDS:
                raise Rejection(f"a bid is one card from 1 to 9, not {card!r}")
            if left is not None and card not in left:
                raise Rejection(f"{card} is not a card you still hold: bid one of {', '.join(map(str, left))}",
                                hidden_of=seat)
        r.bids[seat] = Sealed(event.seq, sealed, known=known)
        say(f"{seat} seals its bid for round {r.number}.")
        if known is not None:
            say(f"Your sealed bid for round {r.number}: {known['card']}.", seat)

    def _revealed(self, state: State, event: Event, say: Said) -> None:
        seq = event.data.get("seq")
        seq = int(seq) if isinstance(seq, (int, str)) and str(seq).isdigit() else seq
        due = {int(n.key): n for n in self.needs(state) if n.source == "secret"}
        target = next((s for s in sealed_things(state) if s.seq == seq), None)
        if target is None or target.content is not None:
            raise Rejection(f"event #{seq} holds no sealed content still to reveal")
        if seq not in due:
            raise Rejection(f"the sealed content of event #{seq} is not due yet: it stays sealed until its time")
        target.content = secrets.check(event.data.get("content"), event.data.get("salt"), target.sealed)
        say(f"Sealed content of event #{seq} revealed: {describe(target.content)} (it matches digest {target.sealed[:12]}…).")

    def _conceded(self, state: State, event: Event, say: Said) -> None:
        seat = self._acting_for(state, event)
        state.phase, state.winner = OVER, state.other(seat)
        state.outcome = f"{seat} conceded: {state.winner} wins"
        say(f"{seat} concedes. {state.winner} wins the game.")

    def _assigned(self, state: State, event: Event, say: Said) -> None:
        if event.actor != state.gm:
            raise Rejection(f"only the GM ({state.gm}) can assign a seat")
        seat, player = str(event.data.get("seat", event.data.get("nation", ""))), event.data.get("player")
        if seat not in SEATS:
            raise Rejection(f"unknown seat '{seat}': the seats are North and South")
        if player and state.seats[state.other(seat)].player == player:
            raise Rejection(f"{player} already plays {state.other(seat)}")
        state.seats[seat].player = player
        say(f"{seat} is now played by {player or 'nobody'}.")

    def _seed(self, state: State, event: Event, say: Said) -> None:
        seed = state.seed = commit_reveal.revealed_seed(event.data, state.commitment, state.seed)
        say(f"The commit-reveal seed is revealed: {seed}; anyone can now recompute the tie dice.")

    def _progress(self, state: State, event: Event, say: Said) -> None:
        """Move the game on as far as what is known allows: after any event, since any may unblock it."""
        while state.phase != OVER:
            r = state.rounds[-1]
            if state.phase == HANDS and all(s.hand for s in state.seats.values()):
                state.phase = BIDS
                say(f"Both hands are sealed. Round 1 of {ROUNDS}: seal your bids ('bid <card>').")
            elif state.phase == BIDS and len(r.bids) == len(SEATS):
                state.phase = REVEAL
                say(f"Both bids of round {r.number} are in: they are revealed now.")
            elif state.phase == REVEAL and all(b.content is not None for b in r.bids.values()):
                north, south = (card_of(r.bids[s]) for s in SEATS)
                if north != south:
                    self._score(state, r, SEATS[0] if north > south else SEATS[1], f"{north} against {south}", say)
                else:
                    state.phase = TIE
                    say(f"Round {r.number}: both bid {north}. A die each decides.")
            elif state.phase == TIE and r.roll is None:
                label = f"round-{r.number}-tie" + (f"-{len(r.dice) + 1}" if r.dice else "")
                try:
                    b = chance.ask(state.book, event, label, 1, 6, 2, purpose=f"tie of round {r.number}",
                                   meaning="North's die, South's die: the higher scores the round; equal dice roll again")
                except Rejection as exc:
                    say(f"The tie die of round {r.number} waits to be bound: {exc.reason}.")
                    return
                r.roll = b.id
                say(f"The tie dice of round {r.number} are bound to {chance.describe(b)}.")
                chance.settle(state.book, event)  # its value may be known already (a beacon recorded before)
            elif state.phase == TIE and (values := roll_values(state, r.roll)) is not None:
                r.dice.append(list(values))
                r.roll = None
                if values[0] != values[1]:
                    self._score(state, r, SEATS[0] if values[0] > values[1] else SEATS[1], f"dice {values[0]} against {values[1]}", say)
                else:
                    say(f"Tie dice of round {r.number}: {values[0]} and {values[1]}. They roll again.")
            elif state.phase == CHECK and all(s.hand and s.hand.content is not None for s in state.seats.values()):
                self._judge(state, say)
            else:
                return

    def _score(self, state: State, r: Round, seat: str, how: str, say: Said) -> None:
        r.winner = seat
        state.seats[seat].points += 1
        points = "–".join(str(state.seats[s].points) for s in SEATS)
        say(f"Round {r.number}: {seat} scores ({how}). Points North–South: {points}.")
        if r.number < ROUNDS:
            state.rounds.append(Round(r.number + 1))
            state.phase = BIDS
            say(f"Round {r.number + 1} of {ROUNDS}: seal your bids.")
        else:
            state.phase = CHECK
            say("The three rounds are played: the hands are revealed now, to check every bid.")

    def _judge(self, state: State, say: Said) -> None:
        for seat, s in state.seats.items():
            assert s.hand is not None and s.hand.content is not None
            bids = [card_of(r.bids[seat]) for r in state.rounds if seat in r.bids]
            problem = hand_problem(s.hand.content)
            held = [] if problem else s.hand.content["cards"]
            bad = [c for c in bids if c not in held] or [c for i, c in enumerate(bids) if c in bids[:i]]
            if problem or bad:
                state.fouls[seat] = problem or f"bid {bad[0]}, not a card it held once (hand {', '.join(map(str, held))})"
                say(f"{seat} {state.fouls[seat]}: {seat} loses the game.")
        points = {s: state.seats[s].points for s in SEATS}
        fair = [s for s in SEATS if s not in state.fouls]
        if len(fair) == 1:
            state.winner = fair[0]
        elif fair and points["North"] != points["South"]:
            state.winner = max(fair, key=lambda s: points[s])
        state.phase = OVER
        state.outcome = f"{state.winner} wins" if state.winner else "nobody wins" if not fair else "a draw"
        say(f"The game is over: {state.outcome} (points North {points['North']}, South {points['South']}).")

    # --- orders and commands ------------------------------------------------------------------------------------

    def read_post(self, state: State, actor: str, text: str, seat: str | None = None) -> list[Proposal]:
        seat = seat or self.seat_of(state, actor)
        out = []
        for line_no, line in enumerate(text.splitlines(), 1):
            words = line.split()
            if not words:
                continue
            numbers = [int(w) if w.isdigit() else None for w in words[1:]]
            verb = words[0].casefold()
            if seat is None:
                error = f"you ({actor}) hold no seat here; the GM orders for a seat with /order <seat> <order>"
            elif verb == "pass":
                error = "there is no passing in Blind Auction: seal a bid with 'bid <card>', a card of your hand"
            elif verb == "hand" and not hand_problem({"cards": numbers}):
                out.append(Proposal(line_no, line, "hand.sealed", {"seat": seat}, f"{seat}: a sealed hand of {HAND_SIZE} cards",
                                    secret={"cards": sorted(n for n in numbers if n is not None)}))
                continue
            elif verb == "hand":
                error = f"'{line.strip()}': {hand_problem({'cards': numbers})}"
            elif verb == "bid" and len(numbers) == 1 and numbers[0] in CARDS:
                out.append(Proposal(line_no, line, "bid.sealed", {"seat": seat}, f"{seat}: a sealed bid for round {state.turn()}",
                                    secret={"card": numbers[0]}))
                continue
            elif verb == "bid":
                error = f"'{line.strip()}': a bid is one card from 1 to 9, like 'bid 5'"
            else:
                error = f"'{line.strip()}' is not understood: {ORDERS}"
            out.append(Proposal(line_no, line, error=error))
        return out

    def commands(self) -> list[CommandSpec]:
        seat = Argument("seat", "seat", "the seat that concedes (the GM only; a player concedes its own seat)", optional=True)
        return [CommandSpec("concede", "Give up the game: the other seat wins.", (seat,), example="/concede")]

    def read_command(self, state: State, actor: str, name: str, args: list[str], *, is_gm: bool) -> Proposal:
        text = " ".join([f"/{name}", *args])
        if name != "concede":
            return Proposal(0, text, error=f"unknown command '/{name}': {self.title} has /concede")
        if args and not is_gm:
            return Proposal(0, text, error="only the GM names the seat that concedes; write /concede alone")
        found = self.resolve("seat", " ".join(args)) if args else Resolution(name=self.seat_of(state, actor))
        if found.error or found.name is None:
            return Proposal(0, text, error=found.error or f"you ({actor}) hold no seat: /concede <seat> (GM only)")
        return Proposal(0, text, "game.conceded", {"seat": found.name}, f"{found.name} concedes the game")

    def names(self, kind: str) -> list[str]:
        return list(SEATS) if kind == "seat" else []

    def resolve(self, kind: str, text: str) -> Resolution:
        if kind != "seat":
            return Resolution(error=f"{self.title} has no names of kind '{kind}'; it has seats")
        return self.seat_names.resolve(text)

    # --- seats and prompts --------------------------------------------------------------------------------------

    def seats(self, state: State) -> list[Seat]:
        return [Seat(s.name, (s.name,), s.player, s.name not in state.fouls) for s in state.seats.values()]

    def seat_of(self, state: State, user: str) -> str | None:
        return next((s.name for s in state.seats.values() if s.player == user), None)

    def player_of(self, state: State, seat: str) -> str | None:
        return state.seats[seat].player if seat in state.seats else None

    def prompts(self, state: State) -> list[Prompt]:
        if state.phase == HANDS:
            what = "your hand: three different cards from 1 to 9, sealed until the end ('hand 1 4 7')"
            return [Prompt(s, SEALED, what, (), None, 48.0) for s in SEATS if state.seats[s].hand is None]
        if state.phase == BIDS:
            r = state.rounds[-1]
            what = f"your bid for round {r.number}: one card of your hand ('bid 5'); no passing"
            return [Prompt(s, SEALED, what, (), None, 48.0) for s in SEATS if s not in r.bids]
        return []

    def to_act(self, state: State) -> list[str]:
        return [p.seat for p in self.prompts(state)]

    def needs(self, state: State) -> list[Need]:
        r = state.rounds[-1]
        due: list[Sealed] = []
        if state.phase == REVEAL:
            due = list(r.bids.values())
        elif state.phase in (CHECK, OVER):
            due = sealed_things(state)
        wanted = [Need("secret", str(s.seq)) for s in sorted(due, key=lambda s: s.seq) if s.content is None]
        return wanted + ([] if state.phase == OVER else chance.needs(state.book))

    def wanted_draws(self, state: State) -> list[str]:
        return [n.key for n in self.needs(state) if n.source == chance.LOTTERY]

    def carry_over(self, before: State, after: State) -> State:
        chance.carry(before.book, after.book)  # a label, round or slot handed out stays used
        return after

    # --- views ----------------------------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        return {
            "ruleset": self.id, "gm": state.gm, "phase": state.phase, "round": state.turn(), "rounds": ROUNDS,
            "seats": {s.name: {"player": s.player, "points": s.points, "hand": s.hand.public() if s.hand else None}
                      for s in state.seats.values()},
            "played": [{"round": r.number, "bids": {s: b.public() for s, b in r.bids.items()}, "dice": r.dice,
                        "winner": r.winner} for r in state.rounds],
            "chance": state.book.to_dict(), "waiting": [f"{n.source}:{n.key}" for n in self.needs(state)],
            "fouls": dict(state.fouls), "winner": state.winner, "outcome": state.outcome,
            "commitment": state.commitment, "seed": state.seed,
        }

    def private_view(self, state: State, seat: str) -> dict[str, Any]:
        s = state.seats[seat]
        bid = state.rounds[-1].bids.get(seat)
        return {"seat": seat, "hand": s.hand.known["cards"] if s.hand and s.hand.known else None,
                "remaining": remaining(state, seat), "bid": bid.known["card"] if bid and bid.known else None}

    def summary(self, state: State) -> Summary:
        points = f"North {state.seats['North'].points} – South {state.seats['South'].points}"
        return Summary(state.turn(), f"Round {state.turn()} of {ROUNDS}", state.phase, state.phase in (HANDS, BIDS),
                       state.phase == OVER, state.winner, (points,) + ((state.outcome,) if state.outcome else ()))

    def status(self, state: State) -> str:
        lines = [f"{self.title}, round {state.turn()} of {ROUNDS} ({state.phase})"]
        for s in state.seats.values():
            hand = "no hand yet" if s.hand is None else describe(s.hand.content) if s.hand.content else "hand sealed"
            lines.append(f"{s.name} ({s.player or 'nobody'}): {s.points} point(s), {hand}")
        for r in state.rounds:
            bids = ", ".join(f"{seat} {describe(b.content) if b.content else 'sealed'}" for seat, b in r.bids.items())
            dice = "".join(f"; dice {d[0]}–{d[1]}" for d in r.dice)
            lines.append(f"Round {r.number}: {bids or 'no bid yet'}{dice}" + (f" → {r.winner}" if r.winner else ""))
        waiting = self.to_act(state) or [f"{n.source} {n.key}" for n in self.needs(state)]
        lines.append(state.outcome if state.phase == OVER else f"Waiting for: {', '.join(waiting) or 'nothing'}")
        return "\n".join(lines)

    def picture(self, state: State) -> Picture:
        acting = self.to_act(state)
        spaces = tuple(
            Space(s.name, at=(50.0, 25.0 + 50.0 * i), fill=s.name, highlight=s.name in acting,
                  marks=(f"{s.points} pt", *(["bid sealed"] if s.name in state.rounds[-1].bids else [])))
            for i, s in enumerate(state.seats.values())
        )
        legend = tuple((s.name, f"{s.name} ({s.player or 'nobody'})") for s in state.seats.values())
        return Picture(self.title, f"Round {state.turn()} of {ROUNDS}, {state.phase}", None, spaces,
                       (("North", "South"),), legend, SEATS)

    def ledger(self, state: State) -> list[dict[str, Any]]:
        rounds = {f"tie of round {r.number}": r.number for r in state.rounds}
        return [chance.ledger_entry(b, rounds.get(b.purpose),
                                    None if b.values is None else f"North {b.values[0]}, South {b.values[1]}")
                for b in state.book.bindings]


# --- helpers --------------------------------------------------------------------------------------------------


def hand_problem(content: dict[str, Any]) -> str | None:
    """Why a hand's content is not three different cards from 1 to 9; None if it is."""
    cards = content.get("cards")
    if (not isinstance(cards, list) or len(cards) != HAND_SIZE or len(set(map(str, cards))) != HAND_SIZE
            or not all(isinstance(c, int) and not isinstance(c, bool) and c in CARDS for c in cards)):
        return f"a hand is {HAND_SIZE} different cards from 1 to 9, like 'hand 1 4 7'"
    return None


def card_of(bid: Sealed) -> int:
    """A revealed bid's card; a malformed one counts 0 (and is a foul once the hands are checked)."""
    card = (bid.content or {}).get("card")
    return card if isinstance(card, int) and not isinstance(card, bool) and card in CARDS else 0


def remaining(state: State, seat: str) -> list[int] | None:
    """The cards ``seat`` still holds, as far as the fold knows its hand (None in a replay without secrets)."""
    hand = state.seats[seat].hand
    if hand is None or hand.known is None:
        return None
    played = [(b.known or b.content or {}).get("card") for r in state.rounds for s, b in r.bids.items() if s == seat]
    return [c for c in hand.known["cards"] if c not in played]


def sealed_things(state: State) -> list[Sealed]:
    hands = [s.hand for s in state.seats.values() if s.hand is not None]
    return hands + [b for r in state.rounds for b in r.bids.values()]


def roll_values(state: State, roll_id: int | None) -> list[int] | None:
    return next((b.values for b in state.book.bindings if b.id == roll_id), None)


def describe(content: dict[str, Any] | None) -> str:
    if content and "cards" in content:
        return "hand " + " ".join(map(str, content["cards"]))
    return f"bid {content.get('card')}" if content else "sealed"
