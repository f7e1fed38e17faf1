"""One handler per event kind (``HANDLERS``): each checks who acts and in which phase, then plays the order with
the rule modules; a refusal is a ``Rejection`` naming what was wrong."""
from __future__ import annotations

from collections.abc import Callable

from engine import secrets
from engine.events import Event, Rejection
from engine.tabletop import trades, votes, windows
from engine.trading_mediterranean import dealing, purchasing, tracks, trading
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean.rules_data import Rules, RulesError

Handler = Callable[[Rules, gm.Game, Event], list[str]]
PHASE_ORDERS = {
    gm.CIVIC: "use <building> on <seat>, leave <building>, revolt, convert, done",
    gm.TRADING: "offer <cards> for <goods> to <seat>, accept/decline/withdraw <n>, counter <n> ..., "
                "warehouse <cards>, done",
    gm.PURCHASING: "build <building>, buy <development>, vp <n>, done",
    gm.CALAMITY: "vote <seat>, vote no one, abstain",
}


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
    building, target = str(event.data.get("building")), event.data.get("target")
    if building not in g.civs[seat].buildings:
        raise Rejection(f"{seat} has no building '{building}': it has {', '.join(g.civs[seat].buildings) or 'none'}")
    if rules.building(building).give is None:
        raise Rejection(f"{building} has no \"give opponent\" ability")
    if target is not None and (target == seat or target not in g.civs):
        raise Rejection(f"{building} gives an opponent a step down: name one of "
                        f"{', '.join(s for s in g.order if s != seat)}, not '{target}'")
    g.give.setdefault(seat, {})[building] = None if target is None else str(target)
    return [f"{seat} will use {building} on {target}" if target else f"{seat} leaves {building} unused"]


def _revolt(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.CIVIC)
    acting(g, seat)
    return tracks.revolt(rules, g.civs[seat], str(event.data.get("track")))


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
    give, get = trades.bundle_from(event.data.get("give")), trades.bundle_from(event.data.get("get"))
    sealed = event.data.get("sealed")
    hidden = None
    if sealed is not None and event.secret is not None:
        hidden = secrets.check(event.secret.get("content"), event.secret.get("salt"), str(sealed))
    counters = event.data.get("counters")
    if counters is not None:
        answered = trades.counter(g.market, counters, seat)
        if str(event.data.get("to")) != answered.by:
            raise Rejection(f"a counter-offer goes to {answered.by}, who made offer {answered.id}")
    hold = g.table.holdings[seat]
    missing = [c for c in give.cards if hold.find(c) is None]
    if missing or give.money > g.civs[seat].money or give.resources.get("vp", 0) > g.civs[seat].vp:
        raise Rejection(f"{seat} cannot offer what it does not hold: " + (
            f"no card {', '.join(missing)}" if missing else f"${g.civs[seat].money} and {g.civs[seat].vp} VP"))
    o = trades.offer(g.market, event.seq, seat, str(event.data.get("to")), give, get, list(g.order),
                     str(sealed) if sealed else None, hidden, counters)
    return [o.words()[0].upper() + o.words()[1:] + (" (with a sealed promise)" if sealed else "") + "."]


def _answered(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.TRADING)
    acting(g, seat)
    verb, offer_id = str(event.data.get("answer")), event.data.get("offer")
    if verb == "accept":
        picked = [str(c) for c in event.data.get("picked") or []]
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
    ids = [str(c) for c in event.data.get("cards") or []]
    return [trading.choose(rules, g.table, g.window, g.store, g.civs[seat], ids)]


def _vote(rules: Rules, g: gm.Game, event: Event) -> list[str]:
    seat = seat_of(g, event)
    in_phase(g, gm.CALAMITY)
    if g.vote is None:
        raise Rejection("no vote is open")
    option = event.data.get("option")
    votes.cast(g.vote, seat, None if option is None else str(option))
    return [f"{seat} " + (f"votes {option}." if option is not None else "abstains.")]


def _purchase(what: str) -> Handler:
    def handler(rules: Rules, g: gm.Game, event: Event) -> list[str]:
        seat = seat_of(g, event)
        in_phase(g, gm.PURCHASING)
        acting(g, seat)
        civ = g.civs[seat]
        try:
            if what == "build":
                return purchasing.build(rules, civ, str(event.data.get("name")))
            if what == "vp":
                count = event.data.get("count")
                if not isinstance(count, int) or isinstance(count, bool):
                    raise Rejection(f"a number of victory points is a whole number, not {count!r}")
                return purchasing.buy_vp(rules, civ, count)
            dev = rules.development(str(event.data.get("name")))
            steps = event.data.get("steps", 0)
            if not isinstance(steps, int) or isinstance(steps, bool):
                raise Rejection(f"steps are a whole number, not {steps!r}")
            opt = {k: (None if event.data.get(k) is None else str(event.data.get(k))) for k in ("rural", "target", "symbol")}
            return purchasing.develop(rules, civ, dev, g.turn, g.shown, rural=opt["rural"], target=opt["target"],
                                      steps=steps, symbol=opt["symbol"])
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
}
