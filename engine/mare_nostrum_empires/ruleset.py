"""Mare Nostrum: Empires as the shell sees it (``engine.ruleset.Ruleset``): it reads posts into orders, folds
events by handing each order to its handler (play.py) and then lets the round move on (flow.py), and delegates
views, prompts and the picture. No rule lives here.

Events: ``order`` ``{"seat", "order": {...}}``; ``commerce.offered`` ``{"seat", "sealed": digest}`` (the offer's
tokens under seal, engine/secrets.py, revealed together once every offer is in); ``secret.sealed`` (from rules
version 2, the bot's: the deck key and each legendary good dealt face down, legendary.py); ``secret.revealed``;
``player.assigned``; the chance book's own events (beacons, draws, a commit-reveal seed)."""
from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from engine import commit_reveal, secrets
from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.mare_nostrum_empires import abilities, commerce, defaults, flow, hidden_row, legendary, setup, view
from engine.mare_nostrum_empires import rules_version as versions
from engine.mare_nostrum_empires import orders as o
from engine.mare_nostrum_empires.commands import COMMANDS, command_line
from engine.mare_nostrum_empires.game import COMMERCE, OVER, Game, Offer
from engine.mare_nostrum_empires.parse import Names, read_line
from engine.mare_nostrum_empires.picture import picture
from engine.mare_nostrum_empires.play import HANDLERS
from engine.mare_nostrum_empires.rules_data import RulesData, load_rules
from engine.names import Resolution
from engine.quote import quote
from engine.ruleset import (NEED_REVEAL, NEED_SEAL, CommandSpec, command_as_post, Need, Picture, Prompt, Proposal,
                            Said, Seat, Summary, Transition)
from engine.tabletop import table as tb

OFFERED = "commerce.offered"
PLAYER_OPTIONS = {"three-players": 3, "four-players": 4}


class MareNostrumEmpires:
    id = "mare-nostrum-empires"
    title = "Mare Nostrum: Empires"
    randomness = "drand"
    rules_version = versions.NEWEST

    def __init__(self, rules: RulesData) -> None:
        self.rules = rules
        self.words = Names(rules)

    @classmethod
    def load(cls, data_dir: Path) -> "MareNostrumEmpires":
        return cls(load_rules(data_dir))

    # --- folding -----------------------------------------------------------------------------------------------

    @property
    def options(self) -> dict[str, str]:
        """How many empires play when the GM creates the campaign before assigning the players (Discord's /campaign
        create): five unless one of these is chosen; a campaign created with its players counts them."""
        return {name: f"{count} players: {', '.join(self.rules.hidden[count])} hidden" for name, count in
                PLAYER_OPTIONS.items()}

    def _count(self, setup_data: dict[str, Any], players: dict[str, Any]) -> int:
        chosen = setup_data.get("options") or []
        if isinstance(chosen, str):
            chosen = [w for w in re.split(r"[,\s]+", chosen) if w]
        if not isinstance(chosen, list):
            raise Rejection(f"options are a list of names, not {type(chosen).__name__}")
        unknown = [c for c in chosen if c not in PLAYER_OPTIONS]
        if unknown:
            raise Rejection(f"'{quote(str(unknown[0]))}' is not an option of {self.title}: {', '.join(PLAYER_OPTIONS)}")
        if len(chosen) > 1:
            raise Rejection(f"choose one of {', '.join(PLAYER_OPTIONS)}, not {len(chosen)}")
        if chosen:
            count = PLAYER_OPTIONS[chosen[0]]
            if players and len(players) != count:
                raise Rejection(f"the option {chosen[0]} is for {count} players, and {len(players)} are named")
            return count
        if players and not 3 <= len(players) <= 5:
            raise Rejection(f"Mare Nostrum: Empires is played by 3 to 5 players, not {len(players)}")
        return len(players) or 5

    def initial_state(self, setup_data: dict[str, Any]) -> Game:
        players = dict(setup_data.get("players") or {})
        count = self._count(setup_data, players)
        empires = self.rules.in_play(count)
        wrong = [p for p in players if p not in empires]
        if wrong:
            raise Rejection(f"at {count} players the empires are {', '.join(empires)}: '{quote(wrong[0])}' is not one")
        if len(set(players.values())) < len(players):
            raise Rejection("one empire per player: the same user cannot play two empires")
        source = str(setup_data.get("randomness") or chance.DRAND)
        if source not in chance.SOURCES:
            raise Rejection(f"unknown randomness '{source}': use {', '.join(chance.SOURCES)}")
        game = Game(self.id, str(setup_data.get("gm", "gm")), {e: players.get(e) for e in empires},
                    setup.start(self.rules, count), chance.new_book(source, setup_data))
        game.commitment = setup_data.get("commitment") if source == chance.COMMIT_REVEAL else None
        game.board.rules_version = versions.of(setup_data)
        if game.board.rules_version >= versions.HIDDEN_ROW:
            game.table = hidden_row.new_table(self.rules, game.board.empires)
        if game.board.rules_version >= versions.LEGENDARY_FACE_DOWN and game.table is not None:
            legendary.add_deck(self.rules, game.table)
        flow.start_phase(self.rules, game, COMMERCE, lambda *_: None)
        return game

    def apply(self, state: Game, event: Event, *, in_place: bool = False) -> Transition:
        game = state if in_place else copy.deepcopy(state)
        say = Said()
        if game.table is not None:
            tb.check_key_first(game.table, event)
        if event.kind == "order":
            seat = self._acting_for(game, event)
            order = o.order_from_dict(event.data.get("order"))
            HANDLERS[type(order)](self.rules, game, seat, order, say)
        elif event.kind == OFFERED:
            self._offered(game, event, say)
        elif event.kind == secrets.SEALED and game.table is not None:
            dealt = event.data.get("deck") == legendary.DECK and legendary.face_down(game)
            for line in (legendary.on_sealed if dealt else hidden_row.on_sealed)(game, event):
                say(line)
        elif event.kind == secrets.REVEALED:
            shown = legendary.on_revealed(game, event) if legendary.face_down(game) else None
            for line in shown or []:
                say(line)
            if shown is None and (game.table is None or not hidden_row.on_revealed(game, event, say)):
                self._revealed(game, event, say)
        elif event.kind == "player.assigned":
            self._assigned(game, event, say)
        elif event.kind == "seed.revealed":
            self._seed(game, event, say)
        elif not chance.record(game.book, event):
            raise Rejection(f"the {self.title} ruleset does not know events of kind '{event.kind}'")
        chance.settle(game.book, event)
        flow.progress(self.rules, game, event, say)
        return say.transition(game)

    def _acting_for(self, game: Game, event: Event) -> str:
        seat = str(event.data.get("seat", ""))
        if seat not in game.players:
            raise Rejection(f"unknown empire '{quote(seat)}': the empires are {', '.join(game.players)}")
        if event.actor != game.gm and game.players[seat] != event.actor:
            raise Rejection(f"you ({event.actor}) do not play the {seat}")
        if game.phase == OVER:
            raise Rejection("the game is over")
        return seat

    def _offered(self, game: Game, event: Event, say: Said) -> None:
        seat = self._acting_for(game, event)
        c = game.commerce
        if game.phase != COMMERCE or c is None or c.count is None:
            raise Rejection("offers are made in the Commerce phase, once the Trade master has chosen the token")
        if seat not in c.taking_part:
            raise Rejection(f"the {seat} hold fewer than {c.count} tokens: they sit out this exchange")
        if seat in c.offers:
            raise Rejection(f"the {seat} have sealed their offer: it cannot be changed")
        sealed = str(event.data.get("sealed", ""))
        if len(sealed) != 64 or any(ch not in "0123456789abcdef" for ch in sealed):
            raise Rejection("a sealed offer carries the digest of its content (64 lowercase hex digits)")
        known = None
        if event.secret is not None:
            content = secrets.check(event.secret.get("content"), event.secret.get("salt"), sealed)
            known = [str(t) for t in content.get("tokens", [])]
            commerce.check_offer(game.board.screens[seat], seat, known, c.count,
                                 abilities.smallest_offer(self.rules, game.board, seat, c.count))
        c.offers[seat] = Offer(event.seq, sealed, known)
        say(f"The {seat} seal their offer (digest {sealed[:12]}…).")
        if known is not None:
            say(f"Your sealed offer: {', '.join(known)}.", seat)

    def _revealed(self, game: Game, event: Event, say: Said) -> None:
        seq = event.data.get("seq")
        seq = int(seq) if isinstance(seq, (int, str)) and str(seq).isdigit() else seq
        c = game.commerce
        offer = None if c is None else next((x for s, x in c.offers.items() if x.seq == seq), None)
        if c is None or offer is None or offer.revealed is not None:
            raise Rejection(f"event #{seq} holds no sealed offer still to reveal")
        if len(c.offers) < len(c.taking_part):
            raise Rejection(f"the offer of event #{seq} stays sealed until every offer is in")
        content = secrets.check(event.data.get("content"), event.data.get("salt"), offer.sealed)
        tokens = [str(t) for t in content.get("tokens", [])]
        seat = next(s for s, x in c.offers.items() if x is offer)
        commerce.check_offer(game.board.screens[seat], seat, tokens, c.count or 0,
                             abilities.smallest_offer(self.rules, game.board, seat, c.count or 0))
        offer.revealed = tokens
        for token in tokens:  # a legendary good put forward is shown with the offers
            if legendary.is_card(token):
                legendary.show(game, token)
        say(f"The {seat}' offer is revealed: {', '.join(tokens)} (it matches digest {offer.sealed[:12]}…).")

    def _assigned(self, game: Game, event: Event, say: Said) -> None:
        if event.actor != game.gm:
            raise Rejection(f"only the GM ({game.gm}) can assign an empire")
        seat, player = str(event.data.get("seat", event.data.get("nation", ""))), event.data.get("player")
        if seat not in game.players:
            raise Rejection(f"unknown empire '{quote(seat)}': the empires are {', '.join(game.players)}")
        other = next((e for e, p in game.players.items() if p == player and e != seat), None)
        if player and other:
            raise Rejection(f"{player} already plays the {other}")
        game.players[seat] = player
        say(f"The {seat} are now played by {player or 'nobody'}.")

    def _seed(self, game: Game, event: Event, say: Said) -> None:
        seed = game.seed = commit_reveal.revealed_seed(event.data, game.commitment, game.seed)
        say(f"The commit-reveal seed is revealed: {seed}; anyone can now recompute every roll.")

    # --- orders and commands ------------------------------------------------------------------------------------

    def read_post(self, state: Game, actor: str, text: str, seat: str | None = None) -> list[Proposal]:
        seat = seat or self.seat_of(state, actor)
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if seat is None:
                out.append(Proposal(n, line, error=f"you ({actor}) play no empire here; the GM orders for one with "
                                                    f"/order <empire> <order>"))
                continue
            words = line.split(None, 1)
            if words[0].casefold() == "offer":
                out.append(self._offer_line(n, line, seat, words[1] if len(words) > 1 else "", state,
                                            self.seat_of(state, actor) == seat))
                continue
            try:
                order = read_line(self.words, line)
                if legendary.face_down(state):
                    order = self._cards_named(state, seat, order, self.seat_of(state, actor) == seat)
            except Rejection as exc:
                out.append(Proposal(n, line, error=exc.reason))
                continue
            out.append(Proposal(n, line, "order", {"seat": seat, "order": o.to_dict(order)},
                                understood=f"{seat}: {' '.join(line.split())}"))
        return out

    def _cards_named(self, state: Game, seat: str, order: o.Order, own: bool) -> o.Order:
        """Rules version 2: "legendary <resource>" in an order becomes the card the player means, read from its own
        screen (or the offer it takes from) in the bot's fold, which knows its cards."""
        mine = list(state.board.screens[seat].legendary)
        if isinstance(order, o.Buy) and order.goods:
            named: list[str] = []
            for good in order.goods:
                named.append(legendary.card_for(state, seat, good, mine, named, face_down=True, own=own)
                             if good.startswith("legendary") else good)
            return o.Buy(order.item, order.place, order.taxes, tuple(named))
        c = state.commerce
        if isinstance(order, o.Take) and order.token.startswith("legendary"):
            pool = c.exchange.offers.get(order.target, []) if c is not None and c.exchange is not None else []
            return o.Take(legendary.card_for(state, order.target, order.token, pool, []), order.target)
        if isinstance(order, o.Give) and order.token.startswith("legendary"):
            taken = c.exchange.taken.get(seat, []) if c is not None and c.exchange is not None else []
            return o.Give(legendary.card_for(state, seat, order.token, mine + taken, [], face_down=True, own=own))
        return order

    def _offer_line(self, n: int, line: str, seat: str, rest: str, state: Game, own: bool) -> Proposal:
        try:
            c = state.commerce
            if rest.strip().casefold() == defaults.OFFER:  # the deadline's offer, chosen from this seat's tokens
                if c is None or c.count is None:
                    raise Rejection("offers are made in the Commerce phase, once the Trade master has chosen the token")
                tokens = defaults.offer(self.rules, state.board.screens[seat], c.count)
            else:
                tokens = [self.words.token(t) for t in rest.replace(" and ", ",").split(",") if t.strip()]
            if legendary.face_down(state):
                mine = list(state.board.screens[seat].legendary)
                named: list[str] = []
                for token in tokens:
                    named.append(legendary.card_for(state, seat, token, mine, named, face_down=True, own=own)
                                 if token.startswith("legendary") else token)
                tokens = named
        except Rejection as exc:
            return Proposal(n, line, error=exc.reason)
        if not tokens:
            return Proposal(n, line, error=f"'{quote(line.strip())}': an offer names its tokens, 'offer wine, oil, tax'")
        return Proposal(n, line, OFFERED, {"seat": seat}, f"{seat}: a sealed offer of {len(tokens)} tokens",
                        secret={"tokens": tokens})

    def commands(self) -> list[CommandSpec]:
        return list(COMMANDS)

    def read_command(self, state: Game, actor: str, name: str, args: list[str], *, is_gm: bool) -> Proposal:
        return command_as_post(self, state, actor, name, args, COMMANDS, command_line)

    def names(self, kind: str) -> list[str]:
        if kind in ("empire", "seat", "nation", "power"):
            return list(self.rules.empires)
        if kind == "province":
            return list(self.rules.provinces)
        if kind == "sea":
            return list(self.rules.map.seas)
        if kind == "area":
            return self.rules.map.areas
        if kind == "resource":
            return [*self.rules.resources, "tax"]
        return []

    def resolve(self, kind: str, text: str) -> Resolution:
        if kind in ("empire", "seat", "nation", "power"):
            return self.words.empire.resolve(text)
        if kind in ("province", "sea", "area"):
            found = self.rules.map.index.resolve(text)
            wrong = found.name is not None and kind != "area" and \
                (found.name in self.rules.provinces) != (kind == "province")
            return Resolution(error=f"{found.name} is not a {kind}") if wrong else found
        if kind == "resource":
            try:
                return Resolution(name=self.words.token(text))
            except Rejection as exc:
                return Resolution(error=exc.reason)
        return Resolution(error=f"{self.title} has no names of kind '{kind}'")

    # --- seats, prompts, views ----------------------------------------------------------------------------------

    def seats(self, state: Game) -> list[Seat]:
        return [Seat(e, (e,), p) for e, p in state.players.items()]

    def seat_of(self, state: Game, user: str) -> str | None:
        return next((e for e, p in state.players.items() if p == user), None)

    def player_of(self, state: Game, seat: str) -> str | None:
        return state.players.get(seat)

    def prompts(self, state: Game) -> list[Prompt]:
        return view.prompts(self.rules, state)

    def to_act(self, state: Game) -> list[str]:
        return [p.seat for p in self.prompts(state)]

    def needs(self, state: Game) -> list[Need]:
        c = state.commerce
        due = []
        if c is not None and c.count is not None and len(c.offers) == len(c.taking_part):
            due = [Need(NEED_REVEAL, str(x.seq)) for x in sorted(c.offers.values(), key=lambda x: x.seq)
                   if x.revealed is None]
        held = tb.needs(state.table) if state.table is not None else []
        return due + held + ([] if state.phase == OVER else chance.needs(state.book))

    def wanted_draws(self, state: Game) -> list[str]:
        return [n.key for n in self.needs(state) if n.source == chance.LOTTERY]

    def _waiting(self, state: Game) -> list[str]:
        # A draw's seal is asked for only where the tile or card is known (the bot's fold): every fold shows the same.
        return self.to_act(state) or [f"{n.source} {n.key}" for n in self.needs(state) if n.source != NEED_SEAL]

    def public_view(self, state: Game) -> dict[str, Any]:
        return view.public_view(self.rules, state, self._waiting(state))

    def private_view(self, state: Game, seat: str) -> dict[str, Any]:
        choices = [c for p in self.prompts(state) if p.seat == seat for c in p.choices]
        return view.private_view(self.rules, state, seat, choices)

    def summary(self, state: Game) -> Summary:
        return Summary(state.round, f"Round {state.round}", state.phase, state.phase != OVER, state.phase == OVER,
                       state.winners[0][0] if state.winners else None, tuple(state.history[-1:]),
                       closed_turn=state.round - 1)

    def status(self, state: Game) -> str:
        return view.status(self.rules, state, self._waiting(state))

    def picture(self, state: Game) -> Picture:
        return picture(self.rules, state)

    def ledger(self, state: Game) -> list[dict[str, Any]]:
        return [chance.ledger_entry(b, None, None if b.values is None else ", ".join(map(str, b.values)))
                for b in state.book.bindings]

    def carry_over(self, before: Game, after: Game) -> Game:
        chance.carry(before.book, after.book)
        return after
