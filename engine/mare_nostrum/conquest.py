"""What changes hands when a battle is won: provinces, capitals, whole nations; and who has won."""
from __future__ import annotations

from engine.mare_nostrum.context import Ctx


def treasury(ctx: Ctx, nation: str) -> int:
    owned = [ctx.state.provinces[p] for p in ctx.state.owned(nation)]
    return len(owned) + sum(p.suburbs for p in owned) + sum(p.temple for p in owned)


def richness(ctx: Ctx, nation: str) -> int:
    owned = [ctx.state.provinces[p] for p in ctx.state.owned(nation)]
    fleets = sum(counts.get(nation, 0) for counts in ctx.state.fleets.values())
    return (
        2 * sum(p.temple for p in owned)
        + sum(p.suburbs for p in owned)
        + sum(p.fortification for p in owned)
        + fleets
        + ctx.state.nations[nation].stability
    )


def remove_fleets(ctx: Ctx, nation: str) -> None:
    for counts in ctx.state.fleets.values():
        counts.pop(nation, None)


def fall(ctx: Ctx, nation: str) -> None:
    """Stability 0: the government crumbles and every province becomes independent."""
    ns = ctx.state.nations[nation]
    ns.alive = False
    ns.fate = "its government crumbled"
    ns.actions = 0
    for name in ctx.state.owned(nation):
        ctx.state.provinces[name].owner = None
    remove_fleets(ctx, nation)
    ctx.say(f"The government of the {nation} crumbles (stability 0): they are out, and their provinces become independent.")
    check_supremacy(ctx)


def conquer(ctx: Ctx, province: str, new_owner: str | None, *, invaded: bool, held_by: str | None = None) -> None:
    """A province changes hands. Only an invasion (a won battle) destroys its temple: the seed says "Temples are
    destroyed in consequence of an invasion", so a province ceded or handed over otherwise keeps it."""
    ps = ctx.state.provinces[province]
    old_owner = ps.owner
    ps.owner = new_owner
    ps.held_by = held_by if new_owner is None else None
    lost = " Its temple is destroyed." if invaded and ps.temple else ""
    if invaded:
        ps.temple = False
    taker = new_owner or held_by or "independent forces"
    ctx.say(f"{province} falls to the {taker}.{lost}")
    prov = ctx.rules.map.provinces[province]
    if old_owner is not None and prov.is_capital and prov.nation == old_owner and ctx.state.nations[old_owner].alive:
        knock_out(ctx, old_owner, new_owner, taker)
    check_supremacy(ctx)


def knock_out(ctx: Ctx, loser: str, conqueror: str | None, taker: str) -> None:
    ns = ctx.state.nations[loser]
    ns.alive = False
    ns.fate = f"lost its capital to the {taker}"
    ns.actions = 0
    rest = ctx.state.owned(loser)
    for name in rest:
        ctx.state.provinces[name].owner = conqueror
    remove_fleets(ctx, loser)
    where = f"pass to the {conqueror}" if conqueror else "become independent"
    ctx.say(f"The {loser} lose their capital and are knocked out; their other provinces ({', '.join(rest) or 'none'}) {where}.")


def check_supremacy(ctx: Ctx) -> None:
    if ctx.state.winner:
        return
    for nation in ctx.state.alive_nations():
        if len(ctx.state.owned(nation)) >= ctx.rules.provinces_to_win:
            declare_winner(ctx, nation, f"holds {len(ctx.state.owned(nation))} provinces")
            return
    alive = ctx.state.alive_nations()
    if len(alive) == 1:
        declare_winner(ctx, alive[0], "is the last nation standing")


def declare_winner(ctx: Ctx, nation: str, why: str) -> None:
    ctx.state.winner = nation
    ctx.state.phase = "over"
    ctx.say(f"The {nation} win the campaign: their nation {why}.")


def final_reckoning(ctx: Ctx) -> None:
    """After the last turn: most provinces, then richness; a tie on both means another turn."""
    alive = ctx.state.alive_nations()
    ranked = sorted(alive, key=lambda n: (len(ctx.state.owned(n)), richness(ctx, n)), reverse=True)
    if not ranked:
        return
    best = ranked[0]
    top = (len(ctx.state.owned(best)), richness(ctx, best))
    tied = [n for n in ranked if (len(ctx.state.owned(n)), richness(ctx, n)) == top]
    if len(tied) > 1:
        ctx.say(
            f"After turn {ctx.state.turn}: {', '.join(tied)} are tied on {top[0]} provinces and richness {top[1]}: "
            "another turn is played."
        )
        return
    declare_winner(ctx, best, f"holds the most provinces ({top[0]}, richness {top[1]}) after turn {ctx.state.turn}")
