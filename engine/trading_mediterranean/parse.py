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
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean.play import PHASE_ORDERS
from engine.trading_mediterranean.rules_data import Rules

Reader = Callable[[Rules, gm.Game, str, re.Match[str]], tuple[str, dict[str, Any], str]]
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


def _offer(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    hold = g.table.holdings[seat]
    mine = orders.Vocabulary(resources=("vp",), cards=tuple(h.id for h in hold.cards))
    asked = orders.Vocabulary(resources=("vp",), faces=_faces(rules))
    line = f"offer {give_by_face(rules, hold, m.group(1))} for {m.group(2)}"
    read = orders.read_offer(line, mine, asked, _names(g))
    if read is None:
        raise Rejection("write 'offer <what you give> for <what you ask> to <seat|everyone>'")
    return _offer_event(seat, read, None)


def _offer_event(seat: str, read: dict[str, Any], counters: int | None) -> tuple[str, dict[str, Any], str]:
    data = {"seat": seat, "to": read["to"], "give": read["give"], "get": read["get"],
            **({"counters": counters} if counters is not None else {}), **({"secret": read["secret"]} if read["secret"] else {})}
    return "trade.offered", data, f"{seat} offers to {read['to']}"


def _counter(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    hold = g.table.holdings[seat]
    mine = orders.Vocabulary(resources=("vp",), cards=tuple(h.id for h in hold.cards))
    asked = orders.Vocabulary(resources=("vp",), faces=_faces(rules))
    read = orders.read_counter(f"counter {m.group(1)} {give_by_face(rules, hold, m.group(2))} for {m.group(3)}", mine, asked)
    if read is None:
        raise Rejection("write 'counter <n> <what you give> for <what you ask>'")
    answered = g.market.find(read["offer"])
    return _offer_event(seat, {**read, "to": answered.by}, answered.id)


def _answer(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    answer = orders.read_answer(m.group(0))
    if answer is None:
        raise Rejection("write 'accept <offer number>', 'decline <n>' or 'withdraw <n>'")
    verb, offer_id, picked = answer
    if verb == "accept" and not picked:
        o = g.market.find(offer_id)
        hold = g.table.holdings[seat]
        picked = [h.id for face, n in o.get.faces.items() for h in tb.hands.of_face(hold, face, n)]
    data = {"seat": seat, "answer": verb, "offer": offer_id, **({"picked": picked} if picked else {})}
    return "trade.answered", data, f"{seat}: {verb} offer {offer_id}"


def _warehouse(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    text = m.group(1).strip()
    ids = [] if text.lower() == "nothing" else [c for c in give_by_face(rules, g.table.holdings[seat], text).split(", ") if c]
    return "warehouse.chosen", {"seat": seat, "cards": ids}, f"{seat} warehouses {', '.join(ids) or 'nothing'}"


def _use(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    building = rules.building(m.group(1)).name
    target = _seat(g, m.group(2))
    return "civic.give", {"seat": seat, "building": building, "target": target}, f"{seat} uses {building} on {target}"


def _leave(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    building = rules.building(m.group(1)).name
    return "civic.give", {"seat": seat, "building": building, "target": None}, f"{seat} leaves {building} unused"


def _revolt(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    track = "government" if m.group(1).lower() == "revolt" else "religion"
    return "civic.revolt", {"seat": seat, "track": track}, f"{seat} flips its {track}"


def _done(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    return "window.done", {"seat": seat}, f"{seat} is done"


def _build(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    name = rules.building(m.group(1)).name
    return "building.built", {"seat": seat, "name": name}, f"{seat} builds {name}"


BUY = re.compile(r"^(.+?)(?:\s+from\s+(\w+))?(?:\s+on\s+(\w+))?(?:\s+in\s+(\w+))?(?:\s+steps\s+(-?\d+))?$", re.I)


def _buy(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    parts = BUY.match(m.group(1).strip())
    assert parts is not None  # the pattern matches any text
    name, rural, target, symbol, steps = parts.groups()
    dev = rules.development(name).name
    if steps is not None and not -10 <= int(steps) <= 10:
        raise Rejection(f"steps are -10 to 10, not {steps}")
    data: dict[str, Any] = {"seat": seat, "name": dev}
    for key, value in (("rural", rural), ("target", target), ("symbol", symbol)):
        if value:
            data[key] = value.lower()
    if steps is not None:
        data["steps"] = int(steps)
    return "development.bought", data, f"{seat} buys {dev}"


def _vp(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    n = hands.amount(m.group(1), "victory points")
    return "vp.bought", {"seat": seat, "count": n}, f"{seat} buys {n} VP"


def _vote(rules: Rules, g: gm.Game, seat: str, m: re.Match[str]) -> tuple[str, dict[str, Any], str]:
    if m.group(1) is None:
        return "vote.cast", {"seat": seat, "option": None}, f"{seat} abstains"
    word = m.group(1).strip()
    option = NO_ONE if word.lower() == NO_ONE else _seat(g, word)
    return "vote.cast", {"seat": seat, "option": option}, f"{seat} votes {option}"


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
]


def read_line(rules: Rules, g: gm.Game, seat: str, line_no: int, line: str) -> Proposal:
    words = line.strip()
    for pattern, reader in READERS:
        m = pattern.match(words)
        if m is None:
            continue
        try:
            kind, data, understood = reader(rules, g, seat, m)
        except (Rejection, ValueError) as e:
            reason = e.reason if isinstance(e, Rejection) else str(e)
            return Proposal(line_no, line, error=f"'{words}': {reason}")
        secret = data.pop("secret", None)
        return Proposal(line_no, line, kind, data, understood, secret={"promise": secret} if secret else None)
    return Proposal(line_no, line, error=f"'{words}': not understood; now: " + PHASE_ORDERS.get(g.phase, "no order is taken now"))
