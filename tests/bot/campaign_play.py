"""A whole Mare Nostrum campaign played by scripted players through the bot's own handlers.

Every player gives plain-text orders, chosen by a simple deterministic strategy from the public state,
as a person would type them; the GM opens and closes the turns and reports the battles. Used by the
15-turn campaign test and by the benchmark.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bot.schedule.clock import FixedClock
from bot.store.db import open_engine
from bot.service.legatus import Legatus
from engine.geography import GameMap
from tests.fixture_paths import LOTTO

REPO = Path(__file__).resolve().parents[2]
PLAYERS = {
    "Carthaginians": "hanno",
    "Gauls": "brennus",
    "Macedonians": "philip",
    "Ptolemaics": "ptolemy",
    "Romans": "scipio",
    "Seleucids": "antiochus",
}


@dataclass
class Transcript:
    posts: list[tuple[str, str, str]] = field(default_factory=list)  # author, text, answer

    def refused(self) -> list[tuple[str, str, str]]:
        return [p for p in self.posts if "✗" in p[2]]


def post(service: Legatus, transcript: Transcript, author: str, text: str) -> str:
    answer = service.post(author, text).render()
    transcript.posts.append((author, text, answer))
    return answer


def capital_open(view: dict[str, Any], game_map: GameMap, province: str) -> bool:
    prov = game_map.provinces[province]
    owner = view["provinces"][province]["owner"]
    if not (prov.is_capital and prov.nation == owner):
        return True
    home = [p.name for p in game_map.provinces.values() if p.nation == owner and p.is_home and not p.is_capital]
    return sum(view["provinces"][p]["owner"] != owner for p in home) >= 2


def choose_orders(view: dict[str, Any], game_map: GameMap, nation: str, turn: int) -> list[str]:
    me = view["nations"][nation]
    provinces = view["provinces"]
    attacked = {p for p, v in provinces.items() if v["attacked"]}
    mine = [p for p in game_map.provinces if provinces[p]["owner"] == nation]
    orders: list[str] = []
    free = [p for p in mine if p not in attacked]
    actions = me["actions"]
    if "earthquake" in me["choices"]:
        target = next((p for p in game_map.provinces if provinces[p]["owner"] not in (nation,) and provinces[p]["fortification"]), None)
        if target:
            orders.append(f"earthquake in {target}")
    if "defensive_artworks" in me["choices"] and mine:
        orders.append(f"defensive artworks in {mine[0]}")
    planned: list[str] = []
    if me["stability"] <= 3 and len(planned) < actions:
        planned.append("grain distribution")
    order = view["order_of_play"]
    later = order[order.index(nation) + 1:]
    if turn % 3 == 0 and later and len(planned) < actions:
        planned.append(f"peace treaty with the {later[turn % len(later)]}")

    def hostile(owner: str | None) -> bool:
        return owner is None or (owner != nation and nation not in view["nations"][owner]["peace_with"])

    for sea, counts in sorted(view["fleets"].items()):
        if len(planned) >= actions:
            break
        if counts.get(nation, 0) == 0:
            continue
        enemies = [n for n in sorted(counts) if n != nation and counts[n] and hostile(n) and f"{sea}|{n}" not in view["naval_attacked"]]
        if enemies:
            planned.append(f"naval battle against the {enemies[0]} in {sea}")
    if len(planned) < actions:
        for base in free:
            targets = [
                t for t in sorted(game_map.land[base], key=game_map.province_order)
                if hostile(provinces[t]["owner"]) and t not in attacked and capital_open(view, game_map, t)
            ]
            if targets:
                planned.append(f"attack {targets[(turn + len(mine)) % len(targets)]} from {base}")
                break
    builds: list[str] = []
    for p in free:
        v = provinces[p]
        if not v["suburbs"]:
            builds.append(f"build suburbs in {p}")
        elif not v["temple"]:
            builds.append(f"build temple in {p}")
        if not v["fortification"] and game_map.provinces[p].is_home:
            builds.append(f"build fortification in {p}")
    for order in builds:
        if len(planned) >= actions:
            break
        planned.append(order)
    if len(planned) < actions:
        seas = sorted({s for p in free for s in game_map.coasts[p]}, key=game_map.sea_order)
        for sea in seas:
            if view["fleets"].get(sea, {}).get(nation, 0) < 1:
                planned.append(f"raise a fleet in the {sea}")
                break
    orders.extend(planned)
    if len(planned) < actions:
        orders.append("pass")
    return orders


def play_full_campaign(db: Path, max_turns: int = 40) -> tuple[Legatus, Transcript]:
    clock = FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc))
    service = Legatus(open_engine(db), clock=clock)
    transcript = Transcript()
    for name in ("draws-2023-01.txt", "draws-2026-09.txt"):
        service.import_draws((LOTTO / name).read_text(encoding="utf-8"), name)
    service.create_campaign("mare-nostrum", "mare-nostrum", "gm", dict(PLAYERS))
    ruleset = __import__("engine.rulesets", fromlist=["load_ruleset"]).load_ruleset("mare-nostrum", service.data_dir)
    game_map: GameMap = ruleset.rules.map
    dates = [
        line.split("\t")[0].replace("/", "-")
        for name in ("draws-2023-01.txt", "draws-2026-09.txt")
        for line in (LOTTO / name).read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    days = sorted(set(dates))
    for turn in range(1, max_turns + 1):
        if turn > len(days):
            break
        post(service, transcript, "gm", f"/turn open {days[turn - 1]}")
        for _ in range(40):
            view = service.state()
            nation = view["to_play"]
            if view["phase"] != "orders" or nation is None:
                break
            orders = choose_orders(view, game_map, nation, turn)
            post(service, transcript, PLAYERS[nation], "\n".join(orders))
        view = service.state()
        for battle in view["battles"]:
            if battle["status"] != "to_fight":
                continue
            attacker_wins = battle["id"] % 3 != 0
            reporter = battle["attacker_player"] if battle["id"] % 2 else "gm"
            side = "attacker" if attacker_wins else "defender"
            answer = post(service, transcript, reporter, f"/battle {battle['province']} winner {side}")
            claim = re.search(r"; (\S+) confirms with", answer)
            if claim:  # a claimed victory: the other player gives their word
                post(service, transcript, claim.group(1), f"/battle {battle['province']} winner {side}")
        post(service, transcript, "gm", "/turn close")
        view = service.state()
        if view["winner"]:
            break
    return service, transcript
