"""What each face shows: the public view (no card's bottom), a seat's private view (its own cards with their
bottoms, the promises it is party to, the orders a click can give) and the status text; the status picture is
picture.py."""
from __future__ import annotations

from typing import Any

from engine.tabletop import trades
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean import choices as asked
from engine.trading_mediterranean import purchasing, tracks
from engine.trading_mediterranean.rules_data import Rules


def choices(rules: Rules, g: gm.Game, seat: str) -> list[str]:
    """The orders a click can give now (Discord's hand menu; typed in the console)."""
    if g.phase == gm.CALAMITY and g.loss_due is not None:
        return [asked.losses_line(*asked.default_losses(g.civs[seat], rules.calamity(g.loss_due[1])))] * (
            g.loss_due[0] == seat)
    if g.phase == gm.SPENDING and g.bank.get(seat, "") is None:
        return ["bank prosperity", "bank poverty"]
    if g.window is None or g.window.closed or seat not in g.window.waiting():
        if g.phase == gm.CALAMITY and g.vote is not None and seat in g.vote.waiting():
            return [f"vote {o}" for o in g.vote.options] + ["abstain"]
        return []
    civ = g.civs[seat]
    if g.phase == gm.TRADING:
        offers = [o for o in g.market.open() if o.by != seat and o.to in (seat, trades.EVERYONE)]
        return ([f"accept {o.id}" for o in offers] + [f"decline {o.id}" for o in offers if o.to == seat]
                + [f"withdraw {o.id}" for o in g.market.open() if o.by == seat] + ["done"])
    if g.phase == gm.PURCHASING:
        built = {rules.building(b).tile for b in civ.buildings}
        can_build = [f"build {b.name}" for b in rules.buildings
                     if b.tile not in built and getattr(civ, b.track).side == b.side and b.cost <= civ.money
                     and len(tracks.standing_on(rules, civ, b.side)) < tracks.allowance(rules, civ, b.side)]
        can_buy = [f"buy {d}" for d in g.shown if d not in civ.bought and rules.development(d).price(g.turn) <= civ.money]
        return can_build + can_buy + ["done"]
    if g.phase == gm.CIVIC:
        gives = [f"leave {b}" for b in civ.buildings if rules.building(b).give]
        return gives + ["revolt", "convert", "done"]
    return []


def public(rules: Rules, g: gm.Game) -> dict[str, Any]:
    return {"ruleset": rules.id, "gm": g.gm, "mode": g.mode, **g.public()}


def private(rules: Rules, g: gm.Game, seat: str) -> dict[str, Any]:
    return {"seat": seat, "holding": g.table.holdings[seat].private(),
            "warehouse": list(g.store.stored.get(seat, [])),
            "offers": [{"id": o.id, "promise": (o.hidden or {}).get("promise")} for o in g.market.offers
                       if o.hidden is not None and seat in o.parties()],
            "choices": choices(rules, g, seat)}


def status(rules: Rules, g: gm.Game) -> str:
    lines = [f"{rules.title}: turn {g.turn} of {rules.turns}, {g.phase}"]
    if g.shown:
        lines.append(f"Developments: {', '.join(g.shown)}" + (f"; calamities: {', '.join(g.calamities)}" if g.calamities else ""))
    for seat in g.order or g.seats():
        c = g.civs[seat]
        faces = ", ".join(f"{n} {f}" for f, n in g.table.holdings[seat].public()["faces"].items()) or "no card"
        lines.append(f"{seat} ({g.players.get(seat) or 'nobody'}): {c.vp} VP, ${c.money}, government "
                     f"{c.government.side} {c.government.level}, religion {c.religion.side} {c.religion.level}, "
                     f"happiness {c.happiness}, safety {c.safety}, industry {c.industry} "
                     f"(VP ${purchasing.vp_price(rules, c)}), {len(c.buildings)} buildings; holds {faces}")
    lines += [o.words() + f" [{o.status}]" for o in g.market.offers if o.status == "open"]
    if g.window is not None and not g.window.closed:
        lines.append(f"Until {g.window.closes_at}; waiting for {', '.join(g.window.waiting())}")
    if g.vote is not None:
        lines.append(f"Vote: {g.vote.question} Waiting for {', '.join(g.vote.waiting()) or 'nobody'}")
    if g.outcome:
        lines.append(g.outcome)
    return "\n".join(lines)

