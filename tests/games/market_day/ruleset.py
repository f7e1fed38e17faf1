"""Market Day: three seats, a hidden deck of goods, a market, an auction and a vote, hosted through
``engine/ruleset.py`` with the pieces of ``engine/tabletop/``.

Rules. Seats North, South and East, 10 money each (``campaign.created`` data: ``gm``, ``players``, ``randomness``).
1. Dealing. The bot seals the deck key, then both decks are shuffled from public chance (the goods keyed by the
   deck key, the relics in the open). Each seat is dealt three goods face down, the third from the bottom of the
   deck; everyone sees their face (grain or wine), only the holder sees a star on the bottom.
2. Market: an open window (an hour, or until all say ``done``). ``offer <bundle> for <bundle> to <seat|everyone>
   [secretly <promise>]``, ``accept <n> [with <card ids>]``, ``decline <n>``, ``counter <n> <bundle> for <bundle>``,
   ``withdraw <n>``, ``sell <card id>`` (the card is revealed and discarded; its value is paid), ``done``.
3. Auction: the top relic, face up, open ascending (``bid <n>``, ``pass``), ten minutes, a late bid extending it
   by a minute. The winner pays and takes the relic.
4. Vote: "Hold a festival?" (``vote yes``, ``vote no``, ``abstain``); a majority of the three seats, default no.
   A festival makes wine worth 4.
5. End: the deck key and every card are revealed. Score: money, grain 1, wine 2 (4), a star 3 more, a relic 5.
   The highest score wins; equal highest, nobody.
"""
from __future__ import annotations

import copy
from typing import Any

from engine import commit_reveal, secrets
from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.names import NameIndex, Resolution
from engine.ruleset import BID, VOTE, WINDOW, CommandSpec, Need, Picture, Prompt, Proposal, Seat, Space, Summary, Transition
from engine.tabletop import auctions, decks, orders, trades, votes, windows
from engine.tabletop import table as tb
from tests.games.market_day.state import (
    AUCTION, AUCTION_SECONDS, DEAL, DEALING, ENDING, EXTEND, MARKET, MONEY, OVER, SEATS, VOTE as VOTING,
    WINDOW_SECONDS, State, specs, value,
)

COUNTER_WORDS = "<what you give> for <what you ask>"
KEY_FIRST = 2  # the rules version from which the deck key comes before anything else

ORDERS = {
    MARKET: "offer <bundle> for <bundle> to <seat|everyone>, accept/decline/withdraw <n>, counter <n> <bundle> for "
            "<bundle>, sell <card id>, done",
    AUCTION: "bid <amount>, pass", VOTING: "vote yes, vote no, abstain",
}


class MarketDay:
    id = "market-day"
    title = "Market Day"
    randomness = "drand"
    # 1: the deck key sealed at the first post (the first campaigns' logs); 2: at the creation, before anything else.
    rules_version = KEY_FIRST

    def __init__(self) -> None:
        self.seat_names = NameIndex({s: () for s in SEATS}, "seat")

    # --- folding -----------------------------------------------------------------------------------------------

    def initial_state(self, setup: dict[str, Any]) -> State:
        players = dict(setup.get("players") or {})
        unknown = [s for s in players if s not in SEATS]
        if unknown:
            raise Rejection(f"unknown seat(s) {', '.join(unknown)}: the seats are {', '.join(SEATS)}")
        source = str(setup.get("randomness") or chance.DRAND)
        if source not in chance.SOURCES:
            raise Rejection(f"unknown randomness '{source}': use {', '.join(chance.SOURCES)}")
        version = setup.get("rules_version", 1)
        if version not in (1, KEY_FIRST):
            raise Rejection(f"rules_version {str(version)[:20]} is not one of {self.title}'s: 1 or {KEY_FIRST}")
        state = State(str(setup.get("gm", "gm")), {s: players.get(s) for s in SEATS},
                      chance.ChanceBook(source=source, rule=chance.rule_of(source, setup)),
                      tb.new_table(specs(), list(SEATS), MONEY, key_first=version == KEY_FIRST))
        state.commitment = setup.get("commitment") if source == chance.COMMIT_REVEAL else None
        for seat in SEATS:
            for where in DEAL:
                tb.deal(state.table, "goods", seat, where)
        return state

    def apply(self, state: State, event: Event, *, in_place: bool = False) -> Transition:
        state = state if in_place else copy.deepcopy(state)
        said: list[str] = []
        tb.check_key_first(state.table, event)
        handler = {
            secrets.SEALED: self._sealed, secrets.REVEALED: self._revealed, "trade.offered": self._offered,
            "trade.answered": self._answered, "window.done": self._done, "window.closed": self._window_closed,
            "card.sold": self._sold, "auction.bid": self._bid, "auction.passed": self._passed,
            "auction.closed": self._auction_closed, "vote.cast": self._vote, "player.assigned": self._assigned,
            "seed.revealed": self._seed,
        }.get(event.kind)
        if handler is not None:
            said += handler(state, event)
        elif not chance.record(state.book, event):
            raise Rejection(f"the {self.title} ruleset does not know events of kind '{event.kind}'")
        chance.settle(state.book, event)
        said += self._progress(state, event)
        return Transition(state, tuple(said))

    def _seat(self, state: State, event: Event) -> str:
        seat = str(event.data.get("seat", ""))
        if seat not in SEATS:
            raise Rejection(f"unknown seat '{seat}': the seats are {', '.join(SEATS)}")
        if event.actor != state.gm and state.players.get(seat) != event.actor:
            raise Rejection(f"you ({event.actor}) do not play {seat}")
        return seat

    def _in(self, state: State, phase: str) -> None:
        if state.phase != phase:
            raise Rejection(f"that is an order of the {phase} phase; the game is in the {state.phase} phase"
                            + (f" ({ORDERS[state.phase]})" if state.phase in ORDERS else ""))

    def _sealed(self, state: State, event: Event) -> list[str]:
        return tb.on_sealed(state.table, event)

    def _revealed(self, state: State, event: Event) -> list[str]:
        said = tb.on_revealed(state.table, event)
        if said is not None:
            return said
        seq = event.data.get("seq")
        offer = next((o for o in state.market.offers if o.seq == seq and o.sealed), None)
        if offer is None or state.phase != OVER or offer.hidden is not None and "revealed" in offer.hidden:
            raise Rejection(f"event #{seq} holds no sealed content due to be revealed")
        content = secrets.check(event.data.get("content"), event.data.get("salt"), str(offer.sealed))
        offer.hidden = {**content, "revealed": True}
        return [f"The secret promise of offer {offer.id} is revealed: “{content.get('promise')}”."]

    def _offered(self, state: State, event: Event) -> list[str]:
        seat = self._seat(state, event)
        self._in(state, MARKET)
        assert state.window is not None
        windows.acting(state.window, seat)
        give, get = trades.bundle_from(event.data.get("give")), trades.bundle_from(event.data.get("get"))
        sealed = event.data.get("sealed")
        hidden = None
        if sealed is not None and event.secret is not None:
            hidden = secrets.check(event.secret.get("content"), event.secret.get("salt"), str(sealed))
        counters = event.data.get("counters")
        if counters is not None:
            answered = trades.counter(state.market, counters, seat)
            if str(event.data.get("to")) != answered.by:
                raise Rejection(f"a counter-offer goes to {answered.by}, who made offer {answered.id}")
        missing = [c for c in give.cards if state.table.holdings[seat].find(c) is None]
        if missing or give.money > state.table.holdings[seat].money:
            raise Rejection(f"{seat} cannot offer what it does not hold: " + (
                f"no card {', '.join(missing)}" if missing else f"{state.table.holdings[seat].money} money"))
        o = trades.offer(state.market, event.seq, seat, str(event.data.get("to")), give, get, list(SEATS),
                         str(sealed) if sealed else None, hidden, counters)
        return [o.words()[0].upper() + o.words()[1:] + (" (with a sealed promise for the other party)" if sealed else "") + "."]

    def _answered(self, state: State, event: Event) -> list[str]:
        seat = self._seat(state, event)
        self._in(state, MARKET)
        assert state.window is not None
        windows.acting(state.window, seat)
        verb, offer_id = str(event.data.get("answer")), event.data.get("offer")
        if verb == "accept":
            picked = [str(c) for c in event.data.get("picked") or []]
            o = trades.accept(state.market, offer_id, seat, state.table.holdings, picked)
            return [f"{seat} accepts offer {o.id}: {o.by} gives {o.give.words()}; {seat} gives "
                    f"{o.get.words()}" + (f" (cards {', '.join(picked)})" if picked else "") + "."]
        if verb == "decline":
            return [f"{seat} declines offer {trades.decline(state.market, offer_id, seat).id}."]
        if verb == "withdraw":
            return [f"{seat} withdraws offer {trades.withdraw(state.market, offer_id, seat).id}."]
        raise Rejection(f"an answer is accept, decline or withdraw, not '{verb}'")

    def _done(self, state: State, event: Event) -> list[str]:
        seat = self._seat(state, event)
        self._in(state, MARKET)
        assert state.window is not None
        closed = windows.done(state.window, seat)
        return [f"{seat} is done trading" + (": everyone is done, the market closes." if closed else ".")]

    def _window_closed(self, state: State, event: Event) -> list[str]:
        self._in(state, MARKET)
        assert state.window is not None
        windows.close(state.window, event, force=event.actor == state.gm)
        return [f"The market closes ({state.window.closed})."]

    def _sold(self, state: State, event: Event) -> list[str]:
        seat = self._seat(state, event)
        self._in(state, MARKET)
        assert state.window is not None
        windows.acting(state.window, seat)
        card_id = str(event.data.get("card"))
        held = state.table.holdings[seat].find(card_id)
        if held is None or any(c == card_id for _, c in state.sales):
            raise Rejection(f"{seat} holds no card '{card_id}' to sell: its cards are "
                            f"{', '.join(h.id for h in state.table.holdings[seat].cards) or 'none'}")
        tb.reveal(state.table, seat, card_id)
        state.sales.append((seat, card_id))
        return [f"{seat} sells card {card_id}: it is revealed now."]

    def _bid(self, state: State, event: Event) -> list[str]:
        seat = self._seat(state, event)
        self._in(state, AUCTION)
        assert state.auction is not None
        amount = event.data.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise Rejection(f"a bid is a whole number, not {amount!r}")
        return [auctions.bid(state.auction, seat, amount, event, state.table.holdings[seat].money)]

    def _passed(self, state: State, event: Event) -> list[str]:
        seat = self._seat(state, event)
        self._in(state, AUCTION)
        assert state.auction is not None
        auctions.pass_bid(state.auction, seat)
        return [f"{seat} passes."]

    def _auction_closed(self, state: State, event: Event) -> list[str]:
        self._in(state, AUCTION)
        assert state.auction is not None
        auctions.close(state.auction, event)
        return [f"The auction of {state.auction.lot} is closed: its time is up."]

    def _vote(self, state: State, event: Event) -> list[str]:
        seat = self._seat(state, event)
        self._in(state, VOTING)
        assert state.vote is not None
        option = event.data.get("option")
        votes.cast(state.vote, seat, None if option is None else str(option))
        return [f"{seat} " + (f"votes {option}." if option is not None else "abstains.")]

    def _assigned(self, state: State, event: Event) -> list[str]:
        if event.actor != state.gm:
            raise Rejection(f"only the GM ({state.gm}) can assign a seat")
        seat = str(event.data.get("seat", event.data.get("nation", "")))
        if seat not in SEATS:
            raise Rejection(f"unknown seat '{seat}': the seats are {', '.join(SEATS)}")
        state.players[seat] = event.data.get("player")
        return [f"{seat} is now played by {state.players[seat] or 'nobody'}."]

    def _seed(self, state: State, event: Event) -> list[str]:
        """The GM's /campaign reveal: the commit-reveal seed, held to the commitment published at the creation."""
        if event.actor != state.gm:
            raise Rejection(f"only the GM ({state.gm}) reveals the seed")
        seed = state.seed = commit_reveal.revealed_seed(event.data, state.commitment, state.seed, what="campaign")
        return [f"The commit-reveal seed is revealed: {seed}; anyone can now derive every shuffle's numbers again."]

    def _progress(self, state: State, event: Event) -> list[str]:
        """Move on as far as what is known allows: after any event, since any may unblock it."""
        said = tb.advance(state.table, state.book, event)
        while True:
            t = state.table
            if state.phase == DEALING and not t.queue and not t.sealing and t.key_seq is not None:
                state.phase = MARKET
                state.window = windows.open_window("market", list(SEATS), event, WINDOW_SECONDS)
                said.append(f"Every seat holds three goods. The market is open until {state.window.closes_at} "
                            "or until everyone says done.")
            elif state.phase == MARKET and state.sales and state.sales[0][1] not in self._sealed_ids(state):
                seat, card_id = state.sales.pop(0)
                held = t.holdings[seat].find(card_id)
                assert held is not None and held.card is not None
                t.holdings[seat].cards.remove(held)
                decks.discard(t.decks["goods"], held.card)
                t.holdings[seat].money += value(held.card, False)
                said.append(f"{seat} sold {held.card} for {value(held.card, False)} money.")
            elif state.phase == MARKET and state.window is not None and state.window.closed and not state.sales:
                lapsed = trades.lapse_all(state.market)
                state.phase = AUCTION
                lot = decks.take(t.decks["relics"])
                assert lot is not None
                state.auction = auctions.open_auction(lot, list(SEATS), event, AUCTION_SECONDS, EXTEND)
                said.append((f"{len(lapsed)} open offer(s) lapse. " if lapsed else "")
                            + f"The {lot} is auctioned until {state.auction.ends_at}: 'bid <n>' or 'pass'.")
            elif state.phase == AUCTION and state.auction is not None and state.auction.over:
                a = state.auction
                state.phase = VOTING
                if a.leader is not None:
                    t.holdings[a.leader].money -= a.high
                    t.holdings[a.leader].cards.append(
                        tb.hands.Held(f"relics.{t.decks['relics'].drawn}", "relics", a.lot, card=a.lot, revealed=True))
                    said.append(f"{a.leader} wins the {a.lot} for {a.high} money.")
                else:
                    decks.discard(t.decks["relics"], a.lot)
                    said.append(f"Nobody bids: the {a.lot} is discarded.")
                state.vote = votes.ask("Hold a festival (wine worth 4)?", ["yes", "no"], list(SEATS), "no")
                said.append("Vote: hold a festival? 'vote yes', 'vote no' or 'abstain' (default: no).")
            elif state.phase == VOTING and state.vote is not None and state.vote.result is not None:
                state.festival = state.vote.result == "yes"
                state.phase = ENDING
                tb.reveal_all(t)
                said.append(f"The vote says {state.vote.result} ({state.vote.how}). Every card is revealed now.")
            elif state.phase == ENDING and not t.due:
                self._score(state)
                said.append(f"The game is over: {state.outcome}.")
            else:
                return said
            said += tb.advance(state.table, state.book, event)

    def _sealed_ids(self, state: State) -> set[str]:
        return {h.id for hold in state.table.holdings.values() for h in hold.cards if h.seq is not None and not h.revealed}

    def _score(self, state: State) -> None:
        state.phase = OVER
        for seat, hold in state.table.holdings.items():
            state.scores[seat] = hold.money + sum(value(str(h.card), state.festival) for h in hold.cards)
        best = max(state.scores.values())
        top = [s for s, v in state.scores.items() if v == best]
        state.winner = top[0] if len(top) == 1 else None
        shown = ", ".join(f"{s} {v}" for s, v in state.scores.items())
        state.outcome = (f"{state.winner} wins" if state.winner else "nobody wins (a tie)") + f" ({shown})"

    # --- reading --------------------------------------------------------------------------------------------

    def read_post(self, state: State, actor: str, text: str, seat: str | None = None) -> list[Proposal]:
        seat = seat or self.seat_of(state, actor)
        out: list[Proposal] = []
        for line_no, line in enumerate(text.splitlines(), start=1):
            words = line.strip()
            if not words:
                continue
            if seat is None:
                out.append(Proposal(line_no, line, error=f"you ({actor}) hold no seat in this game"))
                continue
            try:
                out.append(self._read_line(state, seat, line_no, line))
            except Rejection as exc:
                out.append(Proposal(line_no, line, error=f"'{words}': {exc.reason}"))
        return out

    def _read_line(self, state: State, seat: str, line_no: int, line: str) -> Proposal:
        words = line.strip()
        verb = words.split()[0].lower()
        hold = state.table.holdings[seat]
        mine = orders.Vocabulary(cards=tuple(h.id for h in hold.cards))
        asked = orders.Vocabulary(faces=tuple(state.table.decks["goods"].spec.faces_shown()))
        names = {s.lower(): s for s in SEATS} | {str(p).lower(): s for s, p in state.players.items() if p}
        if verb == "offer":
            read = orders.read_offer(words, mine, asked, names)
            if read is None:
                raise Rejection("write 'offer <what you give> for <what you ask> to <seat|everyone>', "
                                "e.g. 'offer goods.1, 2 money for 1 wine to South'")
            return self._offer_proposal(seat, line_no, line, read, None)
        if verb == "counter":
            read = orders.read_counter(words, mine, asked)
            if read is None:
                raise Rejection("write 'counter <n> <what you give> for <what you ask>'")
            answered = state.market.find(read["offer"])
            return self._offer_proposal(seat, line_no, line, {**read, "to": answered.by}, answered.id)
        if verb in ("accept", "decline", "withdraw"):
            answer = orders.read_answer(words)
            if answer is None:
                raise Rejection(f"write '{verb} <offer number>'")
            verb, offer_id, picked = answer
            if verb == "accept" and not picked:
                o = state.market.find(offer_id)
                picked = [h.id for face, n in o.get.faces.items() for h in tb.hands.of_face(hold, face, n)]
            data = {"seat": seat, "answer": verb, "offer": offer_id, **({"picked": picked} if picked else {})}
            return Proposal(line_no, line, "trade.answered", data, f"{seat}: {verb} offer {offer_id}")
        if verb == "done" and len(words.split()) == 1:
            return Proposal(line_no, line, "window.done", {"seat": seat}, f"{seat} is done trading")
        if verb == "sell":
            card_id = words[4:].strip()
            return Proposal(line_no, line, "card.sold", {"seat": seat, "card": card_id}, f"{seat} sells card {card_id}")
        if verb == "bid":
            amount = tb.hands.amount(words[3:].strip(), "money")
            return Proposal(line_no, line, "auction.bid", {"seat": seat, "amount": amount}, f"{seat} bids {amount}")
        if verb == "pass" and len(words.split()) == 1:
            return Proposal(line_no, line, "auction.passed", {"seat": seat}, f"{seat} passes")
        if verb == "vote" or verb == "abstain":
            option = None if verb == "abstain" else words[4:].strip().lower()
            if option is not None and option not in ("yes", "no"):
                raise Rejection("vote yes or vote no (or abstain)")
            return Proposal(line_no, line, "vote.cast", {"seat": seat, "option": option},
                            f"{seat} " + (f"votes {option}" if option else "abstains"))
        raise Rejection("not understood: " + ORDERS.get(state.phase, "no order is taken now"))

    def _offer_proposal(self, seat: str, line_no: int, line: str, read: dict[str, Any], counters: int | None) -> Proposal:
        data = {"seat": seat, "to": read["to"], "give": read["give"], "get": read["get"],
                **({"counters": counters} if counters is not None else {})}
        give, get = trades.bundle_from(read["give"]), trades.bundle_from(read["get"])
        understood = f"{seat} offers {give.words()} to {read['to']} for {get.words()}"
        if read["secret"]:
            return Proposal(line_no, line, "trade.offered", data, understood + " (with a sealed promise)",
                            secret={"promise": read["secret"]})
        return Proposal(line_no, line, "trade.offered", data, understood)

    def commands(self) -> list[CommandSpec]:
        return []

    def read_command(self, state: State, actor: str, name: str, args: list[str], *, is_gm: bool) -> Proposal:
        return Proposal(0, f"/{name}", error=f"{self.title} has no command /{name}: its orders are typed")

    def names(self, kind: str) -> list[str]:
        return list(SEATS) if kind == "seat" else []

    def resolve(self, kind: str, text: str) -> Resolution:
        if kind != "seat":
            return Resolution(error=f"{self.title} has no names of kind '{kind}'; it has seats")
        return self.seat_names.resolve(text)

    # --- seats, prompts, needs ----------------------------------------------------------------------------------

    def seats(self, state: State) -> list[Seat]:
        return [Seat(s, (s,), state.players.get(s)) for s in SEATS]

    def seat_of(self, state: State, user: str) -> str | None:
        return next((s for s, p in state.players.items() if p == user), None)

    def player_of(self, state: State, seat: str) -> str | None:
        return state.players.get(seat)

    def prompts(self, state: State) -> list[Prompt]:
        if state.phase == MARKET and state.window is not None:
            # The offers made to a seat are answered with a click (the ping's buttons), "done" first.
            # A counter needs words: its choice holds placeholders (on Discord, a button opening a modal).
            return [Prompt(s, WINDOW, f"trade until {state.window.closes_at}: {ORDERS[MARKET]}",
                           ("done", *(f"{verb} {o.id}" if verb != "counter" else f"counter {o.id} {COUNTER_WORDS}"
                                      for o in state.market.open() if o.to == s
                                      for verb in ("accept", "decline", "counter"))), "done", WINDOW_SECONDS / 3600)
                    for s in state.window.waiting()]
        if state.phase == AUCTION and state.auction is not None:
            a = state.auction
            return [Prompt(s, BID, f"the {a.lot}: high bid {a.high} ({a.leader or 'none'}); bid more or pass",
                           ("pass",), "pass", AUCTION_SECONDS / 3600) for s in a.to_bid()]
        if state.phase == VOTING and state.vote is not None:
            return [Prompt(s, VOTE, state.vote.question, ("vote yes", "vote no"), "abstain", 24.0)
                    for s in state.vote.waiting()]
        return []

    def to_act(self, state: State) -> list[str]:
        return [p.seat for p in self.prompts(state)]

    def needs(self, state: State) -> list[Need]:
        wanted = tb.needs(state.table)
        if state.phase == OVER:
            wanted += [Need("secret", str(o.seq)) for o in state.market.offers
                       if o.sealed and not (o.hidden or {}).get("revealed")]
        return wanted + chance.needs(state.book)

    def wanted_draws(self, state: State) -> list[str]:
        return [n.key for n in self.needs(state) if n.source == chance.LOTTERY]

    def carry_over(self, before: State, after: State) -> State:
        chance.carry(before.book, after.book)
        return after

    # --- views ----------------------------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        return {"ruleset": self.id, "gm": state.gm, **state.public(),
                "waiting": [f"{n.source}:{n.key}" for n in self.needs(state) if n.source != "seal"]}

    def private_view(self, state: State, seat: str) -> dict[str, Any]:
        """The seat's own cards (bottoms included) and the hidden parts of the offers it is a party to."""
        return {"seat": seat, "holding": state.table.holdings[seat].private(),
                "offers": [{"id": o.id, "promise": (o.hidden or {}).get("promise")} for o in state.market.offers
                           if o.hidden is not None and seat in o.parties()],
                "choices": self._choices(state, seat), "notices": self._notices(state, seat)}

    def _notices(self, state: State, seat: str) -> list[dict[str, Any]]:
        """Each open offer with a sealed promise made to the seat, for it alone (on Discord, a DM with its buttons:
        the promise and the answers to it reach the parties only)."""
        return [{"id": f"offer {o.id}", "text": f"{o.words()[0].upper()}{o.words()[1:]}, with a promise for you alone: "
                 f"“{(o.hidden or {}).get('promise')}”.",
                 "choices": [f"accept {o.id}", f"decline {o.id}", f"counter {o.id} {COUNTER_WORDS}"]}
                for o in state.market.open() if o.to == seat and o.hidden is not None and o.by != seat]

    def _choices(self, state: State, seat: str) -> list[str]:
        """The orders a click can give (the hand menu on Discord): only what the seat may do now."""
        if seat not in self.to_act(state):
            return []
        if state.phase == MARKET:
            selling = {c for _, c in state.sales}
            own = [f"sell {h.id}" for h in state.table.holdings[seat].cards if h.seq is not None and h.id not in selling]
            offers = [o for o in state.market.open() if o.by != seat and o.to in (seat, trades.EVERYONE)]
            answers = [f"accept {o.id}" for o in offers] + [f"decline {o.id}" for o in offers if o.to == seat] + [
                f"counter {o.id} {COUNTER_WORDS}" for o in offers]
            return answers + [f"withdraw {o.id}" for o in state.market.open() if o.by == seat] + own + ["done"]
        if state.phase == AUCTION and state.auction is not None:
            return [f"bid {max(state.auction.high + 1, state.auction.minimum)}", "pass"]
        return ["vote yes", "vote no", "abstain"] if state.phase == VOTING else []

    def summary(self, state: State) -> Summary:
        return Summary(1, "Market Day", state.phase, state.phase in (MARKET, AUCTION, VOTING), state.phase == OVER,
                       state.winner, (state.outcome,) if state.outcome else ())

    def status(self, state: State) -> str:
        lines = [f"{self.title} ({state.phase})"]
        for seat, hold in state.table.holdings.items():
            faces = ", ".join(f"{n} {f}" for f, n in hold.public()["faces"].items()) or "no card"
            lines.append(f"{seat} ({state.players.get(seat) or 'nobody'}): {hold.money} money, {faces}")
        lines += [o.words() + f" [{o.status}]" for o in state.market.offers]
        # Public knowledge only: the bot's fold alone can say which card a seal waits for.
        waiting = self.to_act(state) or [f"{n.source} {n.key}" for n in self.needs(state) if n.source != "seal"] + [
            f"the seal of {label}" for label in state.table.public()["waiting"]]
        lines.append(state.outcome if state.phase == OVER else f"Waiting for: {', '.join(waiting) or 'nothing'}")
        return "\n".join(lines)

    def picture(self, state: State) -> Picture:
        acting = self.to_act(state)
        spaces = tuple(Space(s, at=(50.0, 20.0 + 30.0 * i), fill=s, highlight=s in acting,
                             marks=(f"{h.money} money", f"{len(h.cards)} cards"))
                       for i, (s, h) in enumerate(state.table.holdings.items()))
        legend = tuple((s, f"{s} ({state.players.get(s) or 'nobody'})") for s in SEATS)
        return Picture(self.title, state.phase, None, spaces, (("North", "South"), ("South", "East")), legend, SEATS)

    def ledger(self, state: State) -> list[dict[str, Any]]:
        return [chance.ledger_entry(b, 1) for b in state.book.bindings]
