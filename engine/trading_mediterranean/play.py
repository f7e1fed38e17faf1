"""One handler per event kind (``HANDLERS``): each checks who acts and in which phase, then plays the order with
the rule modules; a refusal is a ``Rejection`` naming what was wrong."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from engine import secrets
from engine.events import Event, Rejection
from engine.tabletop import trades, votes, windows
from engine.trading_mediterranean import choices, dealing, flow, purchasing, tracks, trading
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean import orders as od
from engine.trading_mediterranean.rules_data import Rules, RulesError

Handler = Callable[[Rules, gm.Game, Event], list[str]]
PHASE_ORDERS = {
    gm.CIVIC: "use <building> on <seat>, leave <building>, revolt, convert, done",
    gm.TRADING: "offer <cards> for <goods> to <seat>, accept/decline/withdraw <n>, counter <n> ..., "
                "warehouse <cards>, done",
    gm.PURCHASING: "build <building>, buy <development>, vp <n>, done",
    gm.CALAMITY: "vote <seat>, vote no one, abstain; a victim: lose <places and buildings>",
    gm.SPENDING: "a Bank's owner: bank prosperity, bank poverty",
}


O = TypeVar("O", bound=od.Order)


def order(event: Event, cls: type[O]) -> O:
    """The event's order, its fields checked (a log's dict of the wrong shape is refused, never half-read)."""
    read = od.order_from_event(event)
    assert isinstance(read, cls)  # ORDERS maps each kind to its class
    return read


def seat_of(g: gm.Game, event: Event) -> str:
    seat = str(event.data.get("seat", ""))
    if seat not in g.civs:
        raise Rejection(f"unknown seat '{seat}': the seats are {', '.join(g.civs)}")
    if event.actor != g.gm and g.players.get(seat) != event.actor:
        raise Rejection(f"you ({event.actor}) do not play {seat}")
    return seat


def in_phase(g: gm.Game, *phases: str) -> None:
    if g.phase not in phases:
        raise Rejection(f"that is an order of the {' or '.join(phases)} phase; the game is in the {g.phase} phase"
                        + (f" ({PHASE_ORDERS[g.phase]})" if g.phase in PHASE_ORDERS else ""))


def acting(g: gm.Game, seat: str) -> None:
    assert g.window is not None
    windows.acting(g.window, seat)


def _sealed(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    return dealing.on_sealed(g.table, g.book, g.dealing, event)


def _revealed(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    said = dealing.on_revealed(g.table, g.dealing, event)
    if said is not None:
        return said
    seq = event.data.get("seq")
    offer = next((o for o in g.market.offers if o.seq == seq and o.sealed), None)
    if offer is None or g.phase != gm.OVER or (offer.hidden or {}).get("revealed"):
        raise Rejection(f"event #{seq} holds no sealed content due to be revealed")
    content = secrets.check(event.data.get("content"), event.data.get("salt"), str(offer.sealed))
    offer.hidden = {**content, "revealed": True}
    return [f"The secret promise of offer {offer.id} is revealed: “{content.get('promise')}”."]


def _give(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.CIVIC)
    acting(g, seat)
    o = order(event, od.Give)
    building, target = o.building, o.target
    if building not in g.civs[seat].buildings:
        raise Rejection(f"{seat} has no building '{building}': it has {', '.join(g.civs[seat].buildings) or 'none'}")
    if rules.building(building).give is None:
        raise Rejection(f"{building} has no \"give opponent\" ability")
    if target is not None and (target == seat or target not in g.civs):
        raise Rejection(f"{building} gives an opponent a step down: name one of "
                        f"{', '.join(s for s in g.order if s != seat)}, not '{target}'")
    g.give.setdefault(seat, {})[building] = target
    return [f"{seat} will use {building} on {target}" if target else f"{seat} leaves {building} unused"]


def _revolt(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.CIVIC)
    acting(g, seat)
    return tracks.revolt(rules, g.civs[seat], order(event, od.Revolt).track)


def _done(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, *gm.WINDOWS)
    assert g.window is not None
    closed = windows.done(g.window, seat)
    return [f"{seat} is done" + (f": everyone is done, the {g.phase} phase ends." if closed else ".")]


def _closed(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    in_phase(g, *gm.WINDOWS)
    assert g.window is not None
    windows.close(g.window, event, force=event.actor == g.gm)
    return [f"The {g.phase} phase's time is up ({g.window.closed})."]


def _offered(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.TRADING)
    acting(g, seat)
    made = order(event, od.Offer)
    give, get = trades.bundle_from(made.give), trades.bundle_from(made.get)
    sealed = event.data.get("sealed")  # the shell's digest of the promise (Proposal.secret)
    hidden = None
    if sealed is not None and event.secret is not None:
        hidden = secrets.check(event.secret.get("content"), event.secret.get("salt"), str(sealed))
    counters = made.counters
    if counters is not None:
        answered = trades.counter(g.market, counters, seat)
        if made.to != answered.by:
            raise Rejection(f"a counter-offer goes to {answered.by}, who made offer {answered.id}")
    hold = g.table.holdings[seat]
    missing = [c for c in give.cards if hold.find(c) is None]
    if missing or give.money > g.civs[seat].money or give.resources.get("vp", 0) > g.civs[seat].vp:
        raise Rejection(f"{seat} cannot offer what it does not hold: " + (
            f"no card {', '.join(missing)}" if missing else f"${g.civs[seat].money} and {g.civs[seat].vp} VP"))
    o = trades.offer(g.market, event.seq, seat, made.to, give, get, list(g.order),
                     str(sealed) if sealed else None, hidden, counters)
    return [o.words()[0].upper() + o.words()[1:] + (" (with a sealed promise)" if sealed else "") + "."]


def _answered(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.TRADING)
    acting(g, seat)
    answer = order(event, od.Answer)
    verb, offer_id = answer.answer, answer.offer
    if verb == "accept":
        picked = list(answer.picked or ())
        o = g.market.find(offer_id)
        parties = (o.by, seat)
        for s in parties:  # money and victory points change hands with the cards: the holdings carry them
            g.table.holdings[s].money = g.civs[s].money
            g.table.holdings[s].resources = {"vp": max(g.civs[s].vp, 0)}
        o = trades.accept(g.market, offer_id, seat, g.table.holdings, picked)
        for s in parties:
            g.civs[s].money = g.table.holdings[s].money
            g.civs[s].vp += g.table.holdings[s].resources.get("vp", 0) - max(g.civs[s].vp, 0)
            g.table.holdings[s].money, g.table.holdings[s].resources = 0, {}
        for s in (o.by, seat):  # a card traded away leaves the warehouse
            g.store.stored[s] = [i for i in g.store.stored.get(s, []) if g.table.holdings[s].find(i) is not None]
        return [f"{seat} accepts offer {o.id}: {o.by} gives {o.give.words()}; {seat} gives {o.get.words()}"
                + (f" (cards {', '.join(picked)})" if picked else "") + "."]
    if verb == "decline":
        return [f"{seat} declines offer {trades.decline(g.market, offer_id, seat).id}."]
    if verb == "withdraw":
        return [f"{seat} withdraws offer {trades.withdraw(g.market, offer_id, seat).id}."]
    raise Rejection(f"an answer is accept, decline or withdraw, not '{verb}'")


def _warehouse(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.TRADING)
    assert g.window is not None
    return [trading.choose(rules, g.table, g.window, g.store, g.civs[seat], list(order(event, od.Warehouse).cards))]


def _vote(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.CALAMITY)
    if g.vote is None:
        raise Rejection("no vote is open")
    option = order(event, od.Vote).option
    votes.cast(g.vote, seat, option)
    return [f"{seat} " + (f"votes {option}." if option is not None else "abstains.")]


def _losses(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.CALAMITY)
    if g.loss_due is None or g.loss_due[0] != seat:
        raise Rejection(f"no calamity asks {seat} to name its losses"
                        + (f"; {g.loss_due[0]} names its losses to {g.loss_due[1]}" if g.loss_due else ""))
    o = order(event, od.Losses)
    name = g.loss_due[1]
    said = flow.strike(rules, g, seat, name, list(o.cubes), list(o.buildings))
    g.loss_due = None
    return said


def _bank(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.SPENDING)
    if g.bank.get(seat, "") is not None:
        raise Rejection(f"no Bank's use is asked of {seat} now")
    use = order(event, od.Bank).use
    if use not in choices.BANK_USES:
        raise Rejection(f"a Bank's use is 'prosperity' (triple it) or 'poverty' (ignore it), not '{use}'")
    g.bank[seat] = use
    return [f"{seat}'s Bank will {choices.BANK_USES[use]} this turn."]


def _purchase(what: str) -> Handler:
    def handler(rules: Rules, g: gm.Game, event: Event) -> list[str]:
        seat = seat_of(g, event)
        in_phase(g, gm.PURCHASING)
        acting(g, seat)
        civ = g.civs[seat]
        try:
            if what == "build":
                return purchasing.build(rules, civ, order(event, od.Build).name)
            if what == "vp":
                return purchasing.buy_vp(rules, civ, order(event, od.BuyVp).count)
            dev = order(event, od.Develop)
            return purchasing.develop(rules, civ, rules.development(dev.name), g.turn, g.shown, rural=dev.rural,
                                      target=dev.target, steps=dev.steps or 0, symbol=dev.symbol)
        except RulesError as e:
            raise Rejection(str(e)) from e
    return handler


def _assigned(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    if event.actor != g.gm:
        raise Rejection(f"only the GM ({g.gm}) can assign a seat")
    seat = str(event.data.get("seat", event.data.get("nation", "")))
    if seat not in g.civs:
        raise Rejection(f"unknown seat '{seat}': the seats are {', '.join(g.civs)}")
    g.players[seat] = event.data.get("player")
    return [f"{seat} is now played by {g.players[seat] or 'nobody'}."]


HANDLERS: dict[str, Handler] = {
    secrets.SEALED: _sealed, secrets.REVEALED: _revealed, "civic.give": _give, "civic.revolt": _revolt,
    "window.done": _done, "window.closed": _closed, "trade.offered": _offered, "trade.answered": _answered,
    "warehouse.chosen": _warehouse, "vote.cast": _vote, "building.built": _purchase("build"),
    "development.bought": _purchase("develop"), "vp.bought": _purchase("vp"), "player.assigned": _assigned,
    "calamity.losses": _losses, "bank.chosen": _bank,
}
