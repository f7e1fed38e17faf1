"""Orders in plain words, one per line: a table of readers (a pattern -> the event it proposes), and a refusal that
quotes the line and says what would be right. Trades use the tabletop's words (engine/tabletop/orders.py); a seat
may also give cards by their good ("offer 2 grain for 1 wine to Carla": its first two grain cards)."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.events import Rejection
from engine.ruleset import Proposal
from engine.tabletop import hands, orders
from engine.tabletop import table as tb
from engine.trading_mediterranean import choices
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean import orders as od
from engine.trading_mediterranean.play import PHASE_ORDERS
from engine.trading_mediterranean.rules_data import Rules

Read = tuple[od.Order, str, str | None]  # the order, as understood in words, a promise to seal
Reader = Callable[[Rules, gm.Game, str, re.Match[str]], Read]
NO_ONE = "no one"


def _names(g: gm.Game) -> dict[str, str]:
    return {s.lower(): s for s in g.civs} | {str(p).lower(): s for s, p in g.players.items() if p}


def _seat(g: gm.Game, word: str) -> str:
    seat = _names(g).get(word.strip().lower())
    if seat is None:
        raise Rejection(f"'{word}' is not a seat nor a player: name one of {', '.join(g.civs)}")
    return seat


def _faces(rules: Rules) -> tuple[str, ...]:
    return (*rules.goods["basic"], *rules.goods["civic"], "luxury")


def give_by_face(rules: Rules, hold: hands.Holding, text: str) -> str:
    """'2 grain, civic.3' -> 'grain.4, salt.1, civic.3': goods named by face become the holder's own card ids."""
    used: list[str] = []
    out = []
    for raw in re.split(r",|\band\b", text):
        item = raw.strip()
        m = re.match(r"^(?:(\d+)\s+)?([a-z]+?)s?$", item.lower())
        if m and m.group(2) in _faces(rules):
            n = int(m.group(1) or 1)
            if not 1 <= n <= hands.MAX_AMOUNT:
                raise Rejection(f"'{item}': an amount is 1 to {hands.MAX_AMOUNT}")
            cards = [h for h in hold.cards if h.face == m.group(2) and h.id not in used][:n]
            if len(cards) < n:
                raise Rejection(f"you hold {len(cards)} {m.group(2)} card(s), not {n}")
            used += [h.id for h in cards]
            out.append(", ".join(h.id for h in cards))
        elif item:
            out.append(item)
    return ", ".join(out)


def _offer(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    hold = g.table.holdings[seat]
    mine = orders.Vocabulary(resources=("vp",), cards=tuple(h.id for h in hold.cards))
    asked = orders.Vocabulary(resources=("vp",), faces=_faces(rules))
    line = f"offer {give_by_face(rules, hold, m.group(1))} for {m.group(2)}"
    read = orders.read_offer(line, mine, asked, _names(g))
    if read is None:
        raise Rejection("write 'offer <what you give> for <what you ask> to <seat|everyone>'")
    return _offer_event(seat, read, None)


def _offer_event(seat: str, read: dict[str, Any], counters: int | None) -> Read:
    return od.Offer(seat, read["to"], read["give"], read["get"], counters), f"{seat} offers to {read['to']}", read["secret"]


def _counter(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    hold = g.table.holdings[seat]
    mine = orders.Vocabulary(resources=("vp",), cards=tuple(h.id for h in hold.cards))
    asked = orders.Vocabulary(resources=("vp",), faces=_faces(rules))
    read = orders.read_counter(f"counter {m.group(1)} {give_by_face(rules, hold, m.group(2))} for {m.group(3)}", mine, asked)
    if read is None:
        raise Rejection("write 'counter <n> <what you give> for <what you ask>'")
    answered = g.market.find(read["offer"])
    return _offer_event(seat, {**read, "to": answered.by}, answered.id)


def _answer(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    answer = orders.read_answer(m.group(0))
    if answer is None:
        raise Rejection("write 'accept <offer number>', 'decline <n>' or 'withdraw <n>'")
    verb, offer_id, picked = answer
    if verb == "accept" and not picked:
        o = g.market.find(offer_id)
        hold = g.table.holdings[seat]
        picked = [h.id for face, n in o.get.faces.items() for h in tb.hands.of_face(hold, face, n)]
    return od.Answer(seat, verb, offer_id, tuple(picked) if picked else None), f"{seat}: {verb} offer {offer_id}", None


def _warehouse(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    text = m.group(1).strip()
    ids = [] if text.lower() == "nothing" else [c for c in give_by_face(rules, g.table.holdings[seat], text).split(", ") if c]
    return od.Warehouse(seat, tuple(ids)), f"{seat} warehouses {', '.join(ids) or 'nothing'}", None


def _use(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    building = rules.building(m.group(1)).name
    target = _seat(g, m.group(2))
    return od.Give(seat, building, target), f"{seat} uses {building} on {target}", None


def _leave(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    building = rules.building(m.group(1)).name
    return od.Give(seat, building, None), f"{seat} leaves {building} unused", None


def _revolt(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    track = "government" if m.group(1).lower() == "revolt" else "religion"
    return od.Revolt(seat, track), f"{seat} flips its {track}", None


def _done(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    return od.Done(seat), f"{seat} is done", None


def _build(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    name = rules.building(m.group(1)).name
    return od.Build(seat, name), f"{seat} builds {name}", None


BUY = re.compile(r"^(.+?)(?:\s+from\s+(\w+))?(?:\s+on\s+(\w+))?(?:\s+in\s+(\w+))?(?:\s+steps\s+(-?\d+))?$", re.I)


def _buy(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    parts = BUY.match(m.group(1).strip())
    assert parts is not None  # the pattern matches any text
    name, rural, target, symbol, steps = parts.groups()
    dev = rules.development(name).name
    if steps is not None and not -10 <= int(steps) <= 10:
        raise Rejection(f"steps are -10 to 10, not {steps}")
    low = [v.lower() if v else None for v in (rural, target, symbol)]
    order = od.Develop(seat, dev, low[0], low[1], low[2], None if steps is None else int(steps))
    return order, f"{seat} buys {dev}", None


def _vp(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    n = hands.amount(m.group(1), "victory points")
    return od.BuyVp(seat, n), f"{seat} buys {n} VP", None


def _vote(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    if m.group(1) is None:
        return od.Vote(seat, None), f"{seat} abstains", None
    word = m.group(1).strip()
    option = NO_ONE if word.lower() == NO_ONE else _seat(g, word)
    return od.Vote(seat, option), f"{seat} votes {option}", None


def _lose(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    cubes, buildings = choices.read_losses(rules, g.civs[seat], m.group(1))
    return od.Losses(seat, tuple(cubes), tuple(buildings)), f"{seat} loses {', '.join([*cubes, *buildings])}", None


def _bank(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> Read:
    use = m.group(1).lower()
    return od.Bank(seat, use), f"{seat}'s Bank: {choices.BANK_USES[use]}", None


READERS: list[tuple[re.Pattern[str], Reader]] = [
    (re.compile(r"^offer\s+(.*?)\s+for\s+(.*)$", re.I | re.S), _offer),
    (re.compile(r"^counter\s+(\d+)\s+(.*?)\s+for\s+(.*)$", re.I | re.S), _counter),
    (re.compile(r"^(?:accept|decline|withdraw)\b.*$", re.I), _answer),
    (re.compile(r"^warehouse\s+(.+)$", re.I), _warehouse),
    (re.compile(r"^use\s+(.+?)\s+on\s+(\S+)$", re.I), _use),
    (re.compile(r"^leave\s+(.+?)(?:\s+unused)?$", re.I), _leave),
    (re.compile(r"^(revolt|convert)$", re.I), _revolt),
    (re.compile(r"^done$", re.I), _done),
    (re.compile(r"^build\s+(.+)$", re.I), _build),
    (re.compile(r"^buy\s+(.+)$", re.I), _buy),
    (re.compile(r"^vp\s+(\S+)$", re.I), _vp),
    (re.compile(r"^(?:vote\s+(.+)|abstain)$", re.I), _vote),
    (re.compile(r"^lose\s+(.+)$", re.I), _lose),
    (re.compile(r"^bank\s+(?:triple\s+|ignore\s+)?(prosperity|poverty)$", re.I), _bank),
]


def read_line(rules: Rules, g: gm.Game, seat: str, line_no: int, line: str) -> Proposal:
    words = line.strip()
    for pattern, reader in READERS:
        m = pattern.match(words)
        if m is None:
            continue
        try:
            order, understood, secret = reader(rules, g, seat, m)
        except (Rejection, ValueError) as e:
            reason = e.reason if isinstance(e, Rejection) else str(e)
            return Proposal(line_no, line, error=f"'{words}': {reason}")
        return Proposal(line_no, line, order.kind, order.to_dict(), understood,
                        secret={"promise": secret} if secret else None)
    return Proposal(line_no, line, error=f"'{words}': not understood; now: " + PHASE_ORDERS.get(g.phase, "no order is taken now"))
