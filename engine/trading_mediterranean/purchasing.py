"""Purchasing: buildings (limited by how far a track has gone), developments (each of the turn's six once per
player), victory points through industry, and leftover money halved."""
from __future__ import annotations

from collections import Counter

from engine.events import Rejection
from engine.trading_mediterranean import culture, tracks
from engine.trading_mediterranean.rules_data import OPPOSITE, Development, Rules
from engine.trading_mediterranean.state import Civ

MAX_VP_BOUGHT = 1000  # victory points bought in one order: a bound on a typed number


def _pay(civ: Civ, cost: int, what: str) -> None:
    if civ.money < cost:
        raise Rejection(f"{what} costs ${cost}; {civ.seat} has ${civ.money}")
    civ.money -= cost


def build(rules: Rules, civ: Civ, name: str) -> list[str]:
    b = rules.building(name)
    track = getattr(civ, b.track)
    if track.side != b.side:
        raise Rejection(f"{b.name} is a {b.side} building; {civ.seat}'s {b.track} is {track.side}")
    if any(rules.building(o).tile == b.tile for o in civ.buildings):
        raise Rejection(f"{civ.seat} has built tile {b.tile} already ({b.name}'s other side is the same tile)")
    have = len(tracks.standing_on(rules, civ, b.side))
    allowed = tracks.allowance(rules, civ, b.side)
    if have >= allowed:
        raise Rejection(f"{civ.seat}'s {b.track} at {track.side} {track.level} allows {allowed} {b.side} building(s); "
                        f"it has {have}")
    _pay(civ, b.cost, b.name)
    civ.buildings.append(b.name)
    if b.population:
        civ.cubes["available"] = civ.cubes.get("available", 0) + b.population
    return [f"{civ.seat} builds {b.name} for ${b.cost}" + (f" (+{b.population} population)" if b.population else "")]


def _take_worker(civ: Civ, dev: Development, rural: str | None) -> None:
    """A cube from AVAILABLE, else (not in the iron age) the rural worker the buyer names."""
    if civ.cubes.get("available"):
        civ.cubes["available"] -= 1
        return
    if dev.age == "iron":
        raise Rejection(f"{dev.name} is an iron age development: it needs an available worker and {civ.seat} has none")
    if rural is None or not civ.cubes.get(f"farm:{rural}"):
        farms = [p.split(":", 1)[1] for p, n in sorted(civ.cubes.items()) if p.startswith("farm:") and n]
        raise Rejection(f"{civ.seat} has no available worker: name a rural worker to move ({', '.join(farms) or 'none'})")
    civ.cubes[f"farm:{rural}"] -= 1


def develop(rules: Rules, civ: Civ, dev: Development, turn: int, offered: list[str], *, rural: str | None = None,
            target: str | None = None, steps: int = 0, symbol: str | None = None) -> list[str]:
    """Buy one of the turn's developments. ``rural``: the farm whose worker moves when none is available;
    ``target``: the basic good of a farm or an industry; ``steps``: a status development's move on the government
    or religion track (toward the side face up, negative away from it); ``symbol``: the Scholar's culture row."""
    if dev.name not in offered:
        raise Rejection(f"{dev.name} is not among this turn's developments ({', '.join(offered)})")
    if dev.name in civ.bought:
        raise Rejection(f"{civ.seat} has bought {dev.name} this turn: each development once")
    reach = dev.government or dev.religion
    if abs(steps) > reach:
        raise Rejection(f"{dev.name} moves up to {reach} step(s) either way, not {steps}")
    if dev.place in ("farm", "industry") and target not in rules.goods["basic"]:
        raise Rejection(f"{dev.name} needs a basic good ({', '.join(rules.goods['basic'])}), not {target!r}")
    if dev.place == "industry" and civ.industry >= rules.industry_length:
        raise Rejection(f"{civ.seat}'s industry track is at its end")
    before = (civ.money, dict(civ.cubes))
    _pay(civ, dev.price(turn), dev.name)
    try:
        if dev.place is not None:
            _take_worker(civ, dev, rural)
            place = {"farm": f"farm:{target}", "industry": f"industry:{target}",
                     "warehouse": "warehouse_upgrade"}.get(dev.place, dev.place)
            if dev.place == "culture":
                culture.place(rules, civ, dev, symbol)
            else:
                civ.cubes[place] = civ.cubes.get(place, 0) + 1
            if dev.place == "industry":
                civ.industry += 1
            improvement = rules.improvements.get(dev.place, {})
            for track in ("happiness", "safety"):
                tracks.step(rules, civ, track, int(improvement.get(track, 0)))
    except Rejection:
        civ.money, civ.cubes = before  # nothing half-applied
        raise
    civ.vp += dev.vp
    civ.money += dev.money
    tracks.step(rules, civ, "happiness", dev.happiness)
    tracks.step(rules, civ, "safety", dev.safety)
    if steps:
        name = "government" if dev.government else "religion"
        side = getattr(civ, name).side
        arrows: Counter[str] = Counter({side if steps > 0 else OPPOSITE[side]: abs(steps)})
        tracks.apply_arrows(rules, civ, arrows)
    if dev.wonder:
        built = [b for b in civ.buildings if rules.building(b).track == dev.wonder]
        civ.vp += 3 * len(built)
    civ.bought.append(dev.name)
    return [f"{civ.seat} buys {dev.name} for ${dev.price(turn)}"]


def vp_price(rules: Rules, civ: Civ) -> int:
    """$4 a victory point, $1 less per industry step (Don, two steps: $2), never below the floor."""
    return max(rules.industry_vp_floor, rules.industry_vp_price - civ.industry)


def buy_vp(rules: Rules, civ: Civ, n: int) -> list[str]:
    if not 1 <= n <= MAX_VP_BOUGHT:
        raise Rejection(f"buy 1 to {MAX_VP_BOUGHT} victory points, not {n}")
    if not any(p.startswith("industry") and k for p, k in civ.cubes.items() if p != "warehouse_upgrade"):
        raise Rejection(f"{civ.seat} has no industry cube: industry is lost")
    price = vp_price(rules, civ)
    _pay(civ, n * price, f"{n} victory point(s) at ${price}")
    civ.vp += n
    return [f"{civ.seat} buys {n} VP for ${n * price}"]


def end_of_turn(civ: Civ) -> None:
    """Leftover money is halved, rounded down ($3 -> $1); the turn's purchases are forgotten."""
    civ.money //= 2
    civ.bought = []
