"""Six rounds of Trading in the Mediterranean by scripted players, at the rules' level: every phase's pure
functions on the tabletop's sealed decks, each decision made once (from the bot's fold, which alone knows the
bottoms) and applied to both folds, the bot's and the export's. What the players do is simple and deterministic:
trade their first card for the next player's first card's good, warehouse what they may, build and buy what they
can afford, cheapest first."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import canonical
from engine.events import Event, Rejection
from engine.tabletop import shuffle, trades, votes, windows
from engine.trading_mediterranean import calamity, civic, purchasing, resolution, scoring, setup, tracks, trading
from engine.trading_mediterranean.state import Civ
from tests.engine.trading_mediterranean.tm_driver import RULES, Driver, Fold

CUBE_ORDER = ("available", "harbour", "city", "culture", "army", "colosseum", "bank")


@dataclass
class Game:
    d: Driver
    order: list[str]
    log: list[str] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    trades_made: int = 0
    votes_held: int = 0
    reveals: list[setup.Reveal] = field(default_factory=list)
    ranking: list[str] = field(default_factory=list)
    stores: list[trading.Warehouses] = field(default_factory=list)  # the export fold's, turn by turn

    def both(self, fn: Callable[[Fold, dict[str, Civ]], Any]) -> tuple[Any, Any]:
        """Apply one decision to both folds; a refusal must be the same in both."""
        out = []
        for fold in (self.d.bot, self.d.export):
            try:
                out.append(("ok", fn(fold, {c.seat: c for c in fold.civs})))
            except Rejection as e:
                out.append(("refused", e.reason))
        assert out[0][0] == out[1][0], out
        if out[0][0] == "refused":
            self.refusals[str(out[0][1]).split(":")[0][:40]] += 1
        return out[0][1], out[1][1]


def stacked(tag: str) -> list[setup.Reveal]:
    key = shuffle.shuffle_key(f"{tag} developments", [1, 2], None)
    shuffled: dict[str, list[str]] = {}
    for age in ("stone", "bronze", "iron"):
        shuffled[age] = shuffle.permute(sorted(d.name for d in RULES.developments if d.age == age), key, age)
    for kind in ("unhappiness", "barbarian"):
        shuffled[kind] = shuffle.permute(sorted(c.name for c in RULES.calamities if c.kind == kind), key, kind)
    return setup.stack_developments(RULES, shuffled)


def play(tag: str, seats: list[str]) -> Game:
    d = Driver(tag, cities=0, seats=seats)
    shuffled = shuffle.permute(seats, shuffle.shuffle_key(f"{tag} turn order", [1, 2], None), "order")
    g = Game(d, setup.turn_order(seats, [seats.index(s) for s in shuffled]), reveals=stacked(tag))
    for turn in range(1, RULES.turns + 1):
        play_turn(g, turn)
    d.append("game.ended", {}, actor="gm")
    d.serve()
    civs = d.export.civs
    rolls = {s: int(canonical.sha256_hex(f"{tag} tie {s}")[:8], 16) for group in scoring.tied_for_a_roll(civs) for s in group}
    g.ranking = scoring.ranking(civs, rolls)
    return g


def play_turn(g: Game, turn: int) -> None:
    d = g.d
    d.produce(g.order)
    reveal = g.reveals[turn - 1]
    # Civic: abilities; every "give opponent" used on the next seat in turn order.
    g.both(lambda f, cs: [civic.own_abilities(RULES, c) for c in f.civs])
    targets = {s: {b: g.order[(i + 1) % len(g.order)] for b in cs.get(s, []) if RULES.building(b).give}
               for i, s in enumerate(g.order) for cs in [{c.seat: c.buildings for c in d.bot.civs}]}
    g.both(lambda f, cs: civic.give_opponents(RULES, cs, g.order, targets))
    # Trading: each seat offers its first card for one card of the next seat's first card's good.
    opened = Event(0, "trading.opened", "legatus", {}, at=d.events[-1].at)
    markets = {id(f): trades.Market() for f in (d.bot, d.export)}
    wins = {id(f): trading.open_trading(RULES, g.order, opened, trading.LIVE) for f in (d.bot, d.export)}
    stores = {id(f): trading.Warehouses() for f in (d.bot, d.export)}
    g.stores.append(stores[id(d.export)])
    for i, seat in enumerate(g.order):
        to = g.order[(i + 1) % len(g.order)]
        mine, theirs = d.bot.table.holdings[seat].cards, d.bot.table.holdings[to].cards
        if not mine or not theirs:
            continue
        give, face, picked = mine[0].id, theirs[0].face, theirs[0].id
        def trade(f: Fold, cs: dict[str, Civ], seat: str = seat, to: str = to, give: str = give, face: str = face,
                  picked: str = picked) -> None:
            m = markets[id(f)]
            windows.acting(wins[id(f)], seat)
            o = trades.offer(m, len(m.offers) + 1, seat, to, trades.bundle_from({"cards": [give]}),
                             trades.bundle_from({"faces": {face: 1}}), g.order)
            trades.accept(m, o.id, to, f.table.holdings, [picked])
        g.both(trade)
        g.trades_made += 1
    # Warehousing, decided from what only the holder (the bot's fold) knows; the same ids go to both folds.
    for seat in g.order:
        civ = next(c for c in d.bot.civs if c.seat == seat)
        room = trading.room(RULES, civ)
        keep = [h.id for h in d.bot.table.holdings[seat].cards
                if h.deck in ("civic", "luxury") and resolution.warehousable(RULES, str(h.card))][:room]
        g.both(lambda f, cs, seat=seat, keep=keep: trading.choose(RULES, f.table, wins[id(f)], stores[id(f)], cs[seat], keep))
        g.both(lambda f, cs, seat=seat: windows.done(wins[id(f)], seat))
    assert all(w.closed == "all done" for w in wins.values())
    # Resolution: spent cards revealed, resolved, discarded.
    spent = {id(f): {s: trading.spend(f.table, stores[id(f)], s) for s in g.order} for f in (d.bot, d.export)}
    d.serve()
    piracy = {}
    goods_spent: dict[int, dict[str, Counter[str]]] = {}
    for f in (d.bot, d.export):
        cs = {c.seat: c for c in f.civs}
        goods_spent[id(f)] = {}
        for seat in g.order:
            cards = trading.discard_spent(f.table, stores[id(f)], seat, spent[id(f)][seat])
            g.log += resolution.resolve(RULES, cs[seat], cards)
            goods_spent[id(f)][seat] = Counter(RULES.card(c)[0] for c in cards)
            piracy[id(f)] = piracy.get(id(f), False) or any(c == "piracy" for c in cards)
        for seat, (vp, track) in resolution.industry_bonuses(RULES, f.civs, goods_spent[id(f)]).items():
            cs[seat].vp += vp
            if track:
                tracks.step(RULES, cs[seat], track, RULES.dominance_step)
    assert piracy[id(d.bot)] == piracy[id(d.export)]
    g.order = resolution.turn_order(g.order, {c.seat: c.money for c in d.export.civs})
    # Calamities: the victim by the tracks, a tie to the peasantry (who name the first tied seat).
    for name in reveal.calamities:
        cal = next(c for c in RULES.calamities if c.name == name)
        victim = calamity.find_victim(d.export.civs, cal.kind)
        seat = victim.seat
        if victim.tied:
            g.votes_held += 1
            results = []
            for f in (d.bot, d.export):
                ordered = [next(c for c in f.civs if c.seat == s) for s in g.order]
                vote = calamity.ask_peasantry(ordered, victim, name)
                if vote is not None:
                    for voter in vote.voters:
                        if vote.result is None:
                            votes.cast(vote, voter, victim.tied[0])
                results.append(calamity.settle(RULES, f.civs, vote))
            assert results[0] == results[1]
            seat = results[0][0]
        if seat is None:
            continue
        civ = next(c for c in d.bot.civs if c.seat == seat)
        places = [p for p in CUBE_ORDER for _ in range(civ.cubes.get(p, 0))] + sorted(
            p for p in civ.cubes for _ in range(civ.cubes[p]) if p.startswith(("farm:", "industry")))
        lost = places[:min(cal.cubes, civ.population())]
        gone = civ.buildings[:cal.buildings]
        g.both(lambda f, cs, seat=seat, cal=cal, lost=lost, gone=gone: calamity.strike(RULES, cs[seat], cal, lost, gone))
    # Purchasing: buildings cheapest first within the allowance, then the turn's developments, then points.
    for seat in g.order:
        civ = next(c for c in d.bot.civs if c.seat == seat)
        built_tiles = {RULES.building(b).tile for b in civ.buildings}
        for b in sorted(RULES.buildings, key=lambda b: (b.cost, b.tile)):
            if b.tile in built_tiles or getattr(civ, b.track).side != b.side:
                continue
            res = g.both(lambda f, cs, seat=seat, name=b.name: purchasing.build(RULES, cs[seat], name))
            if isinstance(res[0], list):
                built_tiles.add(b.tile)
        for name in reveal.developments:
            dev = RULES.development(name)
            civ = next(c for c in d.bot.civs if c.seat == seat)
            rural = next((p.split(":")[1] for p, n in sorted(civ.cubes.items()) if p.startswith("farm:") and n), None)
            symbol = min(RULES.culture_symbols, key=lambda s: civ.culture.get(s, 0))
            g.both(lambda f, cs, seat=seat, dev=dev, rural=rural, symbol=symbol: purchasing.develop(
                RULES, cs[seat], dev, turn, list(reveal.developments), rural=rural, target="grain", symbol=symbol))
        civ = next(c for c in d.bot.civs if c.seat == seat)
        n = civ.money // purchasing.vp_price(RULES, civ)
        if n and (turn == RULES.turns or civ.industry):
            g.both(lambda f, cs, seat=seat, n=n: purchasing.buy_vp(RULES, cs[seat], n))
        g.both(lambda f, cs, seat=seat: purchasing.end_of_turn(cs[seat]))
    if piracy[id(d.bot)]:
        d.append("luxury.reshuffled", {})
        d.serve()
