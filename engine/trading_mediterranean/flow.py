"""The turn's sequence: after every event the game moves on as far as what is known allows (a shuffle's value, a
seal, a reveal, a window closed, a vote decided). Phases: set-up, then six turns of production, civic (a window),
trading (a window), resolution (the spent cards revealed, then resolved), calamities (a vote on a tie), purchasing
(a window); then every card is revealed and the game scored."""
from __future__ import annotations

from collections import Counter

from engine.chance import book as chance
from engine.events import Event
from engine.tabletop import decks as dk
from engine.tabletop import shuffle, trades, windows
from engine.tabletop import table as tb
from engine.trading_mediterranean import calamity, choices, civic, dealing, purchasing, resolution, scoring, tracks, trading
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean.rules_data import AGES, CALAMITY_KINDS, Rules
from engine.trading_mediterranean.rules_version import OWN_CHOICES
from engine.trading_mediterranean.state import Civ

def _values(g: gm.Game, binding: int | None) -> list[int] | None:
    return next((b.values for b in g.book.bindings if b.id == binding), None)


def _open_window(rules: Rules, g: gm.Game, event: Event) -> windows.Window:
    return trading.open_trading(rules, list(g.order), event, g.mode, g.forum_hours)


def _start_turn(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    g.turn += 1
    g.phase = gm.PRODUCTION
    for civ in g.civs.values():
        civ.bought = []
    g.dealing, said = dealing.start(rules, g.table, g.book, event, [g.civs[s] for s in g.order])
    return said + [f"Turn {g.turn}: production."]


def _reveal_developments(rules: Rules, g: gm.Game) -> list[str]:
    stack = rules.stack[g.turn - 1]
    if g.rules_version >= OWN_CHOICES:  # face down: drawn to the board, sealed, then revealed (_face_down)
        board, g.table.holdings[gm.BOARD].cards = g.table.holdings[gm.BOARD].cards, []
        g.shown = [str(h.card) for h in board if h.deck in AGES]
        g.calamities = [str(h.card) for h in board if h.deck in CALAMITY_KINDS]
    else:
        g.shown = [str(dk.take(g.table.decks[stack.age])) for _ in range(stack.developments)]
        g.calamities = [str(dk.take(g.table.decks[kind])) for kind in CALAMITY_KINDS for _ in range(stack.calamities)]
    return [f"Turn {g.turn}'s developments: {', '.join(g.shown)}."
            + (f" Calamities: {', '.join(g.calamities)}." if g.calamities else "")]


def _face_down(rules: Rules, g: gm.Game) -> bool:
    """Version 2: this turn's developments and calamities drawn face down to the board, each sealed by the bot, then
    revealed to everyone; True once every one of them is revealed (the civic phase can open)."""
    t = g.table
    if not g.board_dealt:
        stack = rules.stack[g.turn - 1]
        for _ in range(stack.developments):
            tb.deal(t, stack.age, gm.BOARD)
        for kind in CALAMITY_KINDS:
            for _ in range(stack.calamities):
                tb.deal(t, kind, gm.BOARD)
        g.board_dealt = True
        return False
    for held in t.holdings[gm.BOARD].cards:
        tb.reveal(t, gm.BOARD, held.id)
    if t.due:
        return False
    g.board_dealt = False
    return True


def _strike(rules: Rules, g: gm.Game, name: str, seat: str) -> list[str]:
    """The calamity strikes its victim: from version 2 a victim with a choice names its losses (a prompt whose
    default is version 1's fixed order), else the fixed losses are taken at once."""
    cal = rules.calamity(name)
    civ = g.civs[seat]
    if g.rules_version >= OWN_CHOICES and choices.has_choice(civ, cal):
        g.loss_due = (seat, name)
        return [choices.losses_asked(cal, civ) + "."]
    return strike(rules, g, seat, name, *choices.default_losses(civ, cal))


def strike(rules: Rules, g: gm.Game, seat: str, name: str, cubes: list[str], buildings: list[str]) -> list[str]:
    """The losses taken; from version 2 losing the warehouse cube discards the cards in the warehouse (seed,
    "Losing cubes"): they are revealed first, then discarded face up (``_discard_unstored``)."""
    cal = rules.calamity(name)
    said = calamity.strike(rules, g.civs[seat], cal, cubes, buildings)
    if g.rules_version < OWN_CHOICES:
        return said
    said[-1] += f": {seat} loses " + ", ".join([*cubes, *buildings] or ["nothing"])
    stored = g.store.stored.get(seat, [])
    if "warehouse" in cubes and stored:
        for card_id in stored:
            tb.reveal(g.table, seat, card_id)
        g.unstored[seat], g.store.stored[seat] = list(stored), []
        said.append(f"{seat}'s warehouse is lost: {', '.join(stored)} are revealed and discarded")
    return said


def _discard_unstored(g: gm.Game) -> list[str]:
    said = []
    for seat, ids in g.unstored.items():
        held = [h for h in g.table.holdings[seat].cards if h.id in ids]
        cards = trading.discard_spent(g.table, g.every_store, seat, held)
        said.append(f"{seat} discards {', '.join(cards)} from its lost warehouse")
    g.unstored = {}
    return said


def _calamities(rules: Rules, g: gm.Game) -> list[str]:
    """Resolve the turn's calamities in order; stop at a tie, asking the peasantry."""
    said: list[str] = []
    ordered = [g.civs[s] for s in g.order]
    if g.loss_due is not None:  # the victim names its losses (play.py's handler strikes and moves on)
        return said
    if g.unstored:
        if g.table.due:  # the lost warehouse's cards are being revealed
            return said
        said += _discard_unstored(g)
    if g.vote is not None:
        if g.vote.result is None:
            return said
        chosen, fined = calamity.settle(rules, ordered, g.vote)
        name = g.calamities.pop(0)
        said.append(f"The peasantry's vote on {name}: {g.vote.result} ({g.vote.how})"
                    + (f"; {', '.join(fined)} lose {rules.calamity_indecision_vp} VP each" if fined else ""))
        g.vote, g.vote_on = None, ""
        if chosen is not None:
            said += _strike(rules, g, name, chosen)
            if g.loss_due is not None:
                return said
    while g.calamities:
        name = g.calamities[0]
        kind = next(c.kind for c in rules.calamities if c.name == name)
        victim = calamity.find_victim(ordered, kind)
        if victim.tied:
            g.vote = calamity.ask_peasantry(ordered, victim, name)
            if g.vote is not None:
                g.vote_on = name
                return said + [f"{name}: {', '.join(victim.tied)} are tied; the other players choose the victim "
                               f"('vote <seat>', 'vote no one' or 'abstain'; no majority: each of them loses "
                               f"{rules.calamity_indecision_vp} VP)."]
            said.append(f"{name}: every player is tied; nobody can choose, the calamity does not resolve.")
        elif victim.seat is None:
            said.append(f"{name}: nobody is below the start space; the calamity strikes nobody.")
        else:
            said += _strike(rules, g, name, victim.seat)
        g.calamities.pop(0)
        if g.loss_due is not None:
            return said
    return said


def _ask_banks(rules: Rules, g: gm.Game) -> bool:
    """Ask each Bank owner with a choice (a prosperity and a poverty card spent) once a turn; True if asked now."""
    if g.bank:
        return False
    for seat in g.order:
        cards = [str(h.card) for h in g.table.holdings[seat].cards if h.id in g.spending.get(seat, [])]
        if choices.bank_question(rules, g.civs[seat], cards):
            g.bank[seat] = None
    return bool(g.bank)


def _resolve_spent(rules: Rules, g: gm.Game) -> list[str]:
    said: list[str] = []
    spent: dict[str, Counter[str]] = {}
    for seat in g.order:
        held = [h for h in g.table.holdings[seat].cards if h.id in g.spending.get(seat, [])]
        cards = trading.discard_spent(g.table, g.every_store, seat, held)
        civ = g.civs[seat]
        bank = None
        if civ.cubes.get("bank"):
            bank = g.bank.get(seat) or choices.default_bank(rules, cards)
        said += resolution.resolve(rules, civ, cards, bank)
        spent[seat] = Counter(rules.card(c)[0] for c in cards)
        g.piracy = g.piracy or any(rules.card(c)[1].worthless for c in cards)
    for seat, (vp, track) in resolution.industry_bonuses(rules, [g.civs[s] for s in g.order], spent).items():
        g.civs[seat].vp += vp
        if track:
            tracks.step(rules, g.civs[seat], track, rules.dominance_step)
        said.append(f"{seat}'s industries earn {vp} VP" + (f" and a step of {track}" if track else ""))
    g.spending, g.bank = {}, {}
    g.order = resolution.turn_order(g.order, {s: c.money for s, c in g.civs.items()})
    said.append("Wealth: " + ", ".join(f"{s} ${g.civs[s].money}" for s in g.order) + ". The turn order is reset.")
    return said


def _score(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    civs = [g.civs[s] for s in g.order]
    groups = scoring.tied_for_a_roll(civs)
    if groups and not g.tie_rolls:
        for group in groups:
            lo, hi, count = shuffle.roll_shape(g.book.source)
            b = chance.ask(g.book, event, "tie-break", lo, hi, count, purpose=f"the tie between {', '.join(group)}",
                           meaning="the order of the tied players: engine/tabletop/shuffle.py, first wins")
            g.tie_rolls.append((b.id, tuple(group)))
        chance.settle(g.book, event)
    rolls: dict[str, int] = {}
    for binding, tied in g.tie_rolls:
        values = _values(g, binding)
        if values is None:
            return []
        label = next(b.label for b in g.book.bindings if b.id == binding)
        ordered = shuffle.permute(list(tied), shuffle.shuffle_key(label, values, None), label)
        rolls.update({s: len(ordered) - i for i, s in enumerate(ordered)})
    g.ranking = scoring.ranking(civs, rolls)
    g.phase = gm.OVER
    g.outcome = f"{g.ranking[0]} wins with {g.civs[g.ranking[0]].vp} VP (" + ", ".join(
        f"{s} {g.civs[s].vp}" for s in g.ranking) + ")"
    return [f"The game is over: {g.outcome}."]


def progress(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    said = tb.advance(g.table, g.book, event)
    while True:
        t = g.table
        if g.phase == gm.SETUP:
            if g.order_roll is None:
                lo, hi, count = shuffle.roll_shape(g.book.source)  # a shuffle's roll on this campaign's source
                g.order_roll = chance.ask(g.book, event, "turn order", lo, hi, count, purpose="the turn order",
                                          meaning="the seats shuffled: engine/tabletop/shuffle.py").id
                chance.settle(g.book, event)
            values = _values(g, g.order_roll)
            if values is None or t.key_seq is None or not all(d.ready() and d.shuffles for d in t.decks.values()):
                return said
            label = next(b.label for b in g.book.bindings if b.id == g.order_roll)
            g.order = shuffle.permute(g.seats(), shuffle.shuffle_key(label, values, None), label)
            said.append(f"The turn order: {', '.join(g.order)}.")
            said += _start_turn(rules, g, event)
        elif g.phase == gm.PRODUCTION and not t.queue and not t.sealing and all(d.ready() for d in t.decks.values()):
            if g.rules_version >= OWN_CHOICES and not _face_down(rules, g):
                return said + tb.advance(t, g.book, event)  # drawn or due: the bot's seals and reveals come first
            said += _reveal_developments(rules, g)
            for seat in g.order:
                said += civic.own_abilities(rules, g.civs[seat])
            g.phase, g.give = gm.CIVIC, {}
            g.window = _open_window(rules, g, event)
            said.append(f"Civic phase until {g.window.closes_at}: 'use <building> on <seat>', 'leave <building>', "
                        "'revolt', 'convert', then 'done'.")
        elif g.phase == gm.CIVIC and g.window is not None and g.window.closed:
            said += civic.give_opponents(rules, g.civs, g.order, g.give)
            g.phase, g.market, g.store = gm.TRADING, trades.Market(), trading.Warehouses()
            g.window = _open_window(rules, g, event)
            said.append(f"Trading until {g.window.closes_at}: offers, answers, 'warehouse <cards>', then 'done'.")
        elif g.phase == gm.TRADING and g.window is not None and g.window.closed:
            lapsed = trades.lapse_all(g.market)
            g.every_store.history += g.store.history
            g.spending = {s: [h.id for h in trading.spend(t, g.store, s)] for s in g.order}
            g.phase = gm.SPENDING
            said.append((f"{len(lapsed)} open offer(s) lapse. " if lapsed else "")
                        + "Every card not warehoused is spent: the bot reveals them.")
        elif g.phase == gm.SPENDING and not t.due:
            if g.rules_version >= OWN_CHOICES and _ask_banks(rules, g):
                said.append("A Bank's owner chooses its use this turn: 'bank prosperity' (triple prosperity) or "
                            f"'bank poverty' (ignore poverty); asked: {', '.join(s for s in g.bank)}.")
            if any(use is None for use in g.bank.values()):
                return said
            said += _resolve_spent(rules, g)
            g.phase = gm.CALAMITY
        elif g.phase == gm.CALAMITY:
            said += _calamities(rules, g)
            if g.vote is not None or g.calamities or g.loss_due is not None or g.unstored:
                return said
            g.phase = gm.PURCHASING
            g.window = _open_window(rules, g, event)
            said.append(f"Purchasing until {g.window.closes_at}: 'build <building>', 'buy <development>', "
                        "'vp <n>', then 'done'. Leftover money is halved.")
        elif g.phase == gm.PURCHASING and g.window is not None and g.window.closed:
            for seat in g.order:
                purchasing.end_of_turn(g.civs[seat])
            if g.piracy:
                # Version 2: the seed's "the luxury deck is reshuffled", the whole deck; version 1 its discard pile.
                gather = tb.reshuffle_whole if g.rules_version >= OWN_CHOICES else tb.reshuffle
                said.append(gather(t, g.book, event, "luxury"))
                g.piracy = False
            if g.turn >= rules.turns:
                g.phase = gm.ENDING
                dealing.reveal_at_end(t, g.dealing)
                said.append("Six turns are played: every card is revealed now.")
            else:
                said += _start_turn(rules, g, event)
        elif g.phase == gm.ENDING and not t.due:
            done = _score(rules, g, event)
            if not done:
                return said
            said += done
        else:
            return said
        said += tb.advance(g.table, g.book, event)
