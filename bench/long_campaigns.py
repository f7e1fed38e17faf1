"""Long and large Mare Nostrum campaigns for the benchmarks (bench/growth.py, bench/throughput.py, bench/memory.py).

The stock rules end a campaign after turn 15, and the real draws in tests/data/lotto cover 27 days. For hundreds of
turns the benchmarks use a copy of the rules data that plays on (``turns`` and ``provinces_to_win`` out of reach),
and synthetic draws on the lottery's real schedule between the two recorded months, from a fixed seed. For a large
map they append rows of independent provinces (a separate block of the grid, below an empty row) to the map.
"""
from __future__ import annotations

import random
import re
import shutil
import sys
from datetime import date, datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.schedule.clock import FixedClock, draw_moment, scheduled_draws_after  # noqa: E402
from bot.service.legatus import DATA_DIR, Legatus  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from engine.lotto import format_archive_line, wheels_on  # noqa: E402
from tests.bot.campaign_play import PLAYERS, choose_orders  # noqa: E402
from tests.fixture_paths import LOTTO  # noqa: E402

FIXTURES = ("draws-2023-01.txt", "draws-2026-09.txt")
SEED = 20261123
CONSONANTS, VOWELS = "bdgklmnprstvz", "aeiou"


def long_rules(folder: Path, extra_provinces: int = 0) -> Path:
    """A copy of the rules data that never ends by itself, its map grown by ``extra_provinces`` independents."""
    data = folder / "data"
    shutil.copytree(DATA_DIR, data)
    toml = data / "rulesets" / "mare-nostrum.toml"
    text = toml.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^turns = \d+", "turns = 100000", text)
    text = re.sub(r"(?m)^provinces_to_win = \d+", "provinces_to_win = 100000", text)
    toml.write_text(text, encoding="utf-8")
    if extra_provinces:
        _grow_map(data / "maps" / "mare-nostrum.map", extra_provinces)
    return data


def _name(i: int) -> str:
    syllables = [CONSONANTS[j % 13] + VOWELS[(j // 13) % 5] for j in (i // 4225, (i // 65) % 65, i % 65)]
    return "Nova " + "".join(syllables).capitalize()


def _grow_map(path: Path, extra: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    grid_end = lines.index("[provinces]")
    width = len(next(line for line in lines[lines.index("[grid]") + 1:grid_end]
                     if line.strip() and not line.startswith("#")).split())
    codes = [f"X{i:04d}" for i in range(extra)]
    rows = ["  ".join(["."] * width)]  # an empty row: the new block touches no old province
    rows += ["  ".join((codes[r:r + width] + ["."] * width)[:width]) for r in range(0, extra, width)]
    while grid_end and not lines[grid_end - 1].strip():
        grid_end -= 1
    provinces = [f"{code} | {_name(i)} | - | independent |" for i, code in enumerate(codes)]
    seas_at = lines.index("[seas]")
    while seas_at and not lines[seas_at - 1].strip():
        seas_at -= 1
    lines = lines[:grid_end] + rows + lines[grid_end:seas_at] + provinces + lines[seas_at:]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def draw_archive(days: int) -> str:
    """Synthetic results for the scheduled draw days after January 2023 (before the recorded September 2026)."""
    rng = random.Random(SEED)
    out: list[str] = []
    day = date(2023, 1, 31)
    for when in scheduled_draws_after(draw_moment(day), days):
        if when >= date(2026, 9, 1):
            break
        for wheel in wheels_on(when):
            out.append(format_archive_line(when, wheel, rng.sample(range(1, 91), 5)))
    return "\n".join(out) + "\n"


def new_service(db: Path, data: Path, synthetic_days: int = 0) -> Legatus:
    service = Legatus(open_engine(db), data_dir=data, clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
    for name in FIXTURES:
        service.import_draws((LOTTO / name).read_text(encoding="utf-8"), name)
    if synthetic_days:
        service.import_draws(draw_archive(synthetic_days), "synthetic")
    return service


def turn_days(service: Legatus) -> list[str]:
    from sqlmodel import Session

    from bot.store import draws as draw_store

    with Session(service.engine) as session:
        return [d.isoformat() for d in draw_store.draw_dates_after(session, date(2000, 1, 1), 100000)]


class Player:
    """Plays a campaign on with the scripted strategy of tests/bot/campaign_play.py, a turn at a time."""

    def __init__(self, service: Legatus, campaign: str) -> None:
        self.service, self.campaign = service, campaign
        self.ruleset = service.ruleset_of(campaign)
        self.days = turn_days(service)
        self.turn = 0

    def play_turn(self) -> bool:
        """One turn, opened, ordered, fought and closed; False once the campaign is over or out of draws."""
        s, c = self.service, self.campaign
        if self.turn >= len(self.days) - 8:
            return False
        self.turn += 1
        s.post("gm", f"/turn open {self.days[self.turn - 1]}", c)
        for _ in range(40):
            view = s.state(c)
            nation = view["to_play"]
            if view["phase"] != "orders" or nation is None:
                break
            s.post(PLAYERS[nation], "\n".join(choose_orders(view, self.ruleset.rules.map, nation, self.turn)), c)
        view = s.state(c)
        for battle in view["battles"]:
            if battle["status"] != "to_fight":
                continue
            side = "attacker" if battle["id"] % 3 else "defender"
            reporter = battle["attacker_player"] if battle["id"] % 2 else "gm"
            answer = s.post(reporter, f"/battle {battle['province']} winner {side}", c).render()
            claim = re.search(r"; (\S+) confirms with", answer)
            if claim:
                s.post(claim.group(1), f"/battle {battle['province']} winner {side}", c)
        s.post("gm", "/turn close", c)
        return s.state(c)["phase"] != "over"


def create(service: Legatus, name: str) -> None:
    service.create_campaign(name, "mare-nostrum", "gm", dict(PLAYERS))
