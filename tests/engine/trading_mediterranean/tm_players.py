"""Scripted players for whole games through the ruleset's orders in words: in the civic phase they leave every
"give opponent" ability to be used on the next seat; in trading each offers its first card's good for the next
seat's first card's good and the next seat accepts, then they warehouse what they may (civic and luxury first); a calamity's victim and a Bank's owner
answer what their prompt's deadline would;
in purchasing they click their choices in order (a choice refused is skipped); a tied calamity's voters name the
first tied seat."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.trading_mediterranean import game as gm
from tests.engine.trading_mediterranean.tm_table import RULES

HARBOURS = ("buy Fishing Port", "buy Harbour", "buy Lighthouse")


def harbours_only(offered: list[str]) -> list[str]:
    """A strategy that buys the developments that put a worker in a harbour and nothing else: a harbour is dealt a
    luxury card each turn, and only a luxury card can be Piracy."""
    return [c for c in offered if c.startswith(HARBOURS)]


def play(t: Any, players: dict[str, str], max_steps: int = 10_000,
         until: Callable[[gm.Game], bool] | None = None, pick: Callable[[list[str]], list[str]] | None = None,
         answer: Callable[[Any], str | None] | None = None, warehouses: bool = True) -> Counter[str]:
    """Play to the end, or until ``until(state)`` holds (then return with the table as it stands). ``pick``: the
    purchasing choices a player clicks, in order, out of those offered (a strategy's; all of them by default); ``answer``: a prompt's reply
    in place of its deadline's (None: leave that prompt to its deadline, the table waits for it); ``warehouses``:
    False, the players warehouse nothing and spend every card they hold each turn."""
    refusals: Counter[str] = Counter()
    for _ in range(max_steps):
        g = t.state
        if g.phase == gm.OVER or (until is not None and until(g)):
            return refusals
        if not RULES.prompts(g):  # waiting for a public value (a reshuffle's round): the shell's table waits
            assert hasattr(t, "wait"), RULES.status(g)
            t.wait()
            continue
        if g.phase == gm.CIVIC:
            for i, seat in enumerate(g.order):
                nxt = g.order[(i + 1) % len(g.order)]
                lines = [f"use {b} on {nxt}" for b in g.civs[seat].buildings if RULES.rules.building(b).give]
                refusals.update(t.order(players[seat], "\n".join(lines + ["done"])))
        elif g.phase == gm.TRADING:
            order = list(g.order)
            for i, seat in enumerate(order):
                nxt = order[(i + 1) % len(order)]
                mine, theirs = t.state.table.holdings[seat].cards, t.state.table.holdings[nxt].cards
                if mine and theirs:
                    refusals.update(t.order(players[seat], f"offer 1 {mine[0].face} for 1 {theirs[0].face} to {nxt}"))
                    refusals.update(t.order(players[nxt], f"accept {len(t.state.market.offers)}"))
            for seat in order:
                hold = t.state.table.holdings[seat]
                room = 3 if warehouses and t.state.civs[seat].cubes.get("warehouse") else 0
                keep = [h.id for h in hold.cards if h.deck in ("civic", "luxury")
                        and not RULES.rules.card(str(h.card))[1].no_warehouse][:room]
                refusals.update(t.order(players[seat], f"warehouse {', '.join(keep) or 'nothing'}\ndone"))
        elif g.phase == gm.PURCHASING:
            for seat in list(g.order):
                offered = RULES.private_view(t.state, seat)["choices"]
                for choice in pick(offered) if pick else offered:
                    if choice == "done":
                        continue
                    civ = t.state.civs[seat]
                    extra = ""
                    if choice.startswith("buy "):
                        farm = next((p.split(":")[1] for p, n in sorted(civ.cubes.items()) if p.startswith("farm:") and n), "grain")
                        extra = f" from {farm} on grain in " + min(RULES.rules.culture_symbols, key=lambda s: civ.culture.get(s, 0))
                    refusals.update(t.order(players[seat], choice + extra))
                civ = t.state.civs[seat]
                price = max(1, 4 - civ.industry)
                if civ.money >= price and (civ.industry or t.state.turn == RULES.rules.turns):
                    refusals.update(t.order(players[seat], f"vp {civ.money // price}"))
                refusals.update(t.order(players[seat], "done"))
        elif g.loss_due is not None or any(use is None for use in g.bank.values()):
            for prompt in RULES.prompts(g):  # a victim's losses, a Bank's use: what the deadline would post
                said = str(prompt.on_timeout) if answer is None else answer(prompt)
                if said is None:
                    t.wait()
                else:
                    refusals.update(t.order(players[prompt.seat], said))
        elif g.phase == gm.CALAMITY and g.vote is not None:
            for seat in g.vote.waiting():
                refusals.update(t.order(players[seat], f"vote {g.vote.options[0]}"))
        else:
            raise AssertionError(f"stuck in {g.phase}: {RULES.status(g)}")
    raise AssertionError("the game did not end")


def civs_of(state: Any) -> list[tuple[str, int, int]]:
    return [(s, c.vp, c.money) for s, c in state.civs.items()]
