"""`legatus verify`: a campaign re-checked from its log and the public draws; every tamper is caught."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import read_log
from bot.service import DATA_DIR
from engine.lotto import parse_archive
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.conftest import LOTTO

FIXTURES = [LOTTO / "draws-2023-01.txt", LOTTO / "draws-2026-09.txt"]


def public_draws() -> dict[str, dict[str, list[int]]]:
    out: dict[str, dict[str, list[int]]] = {}
    for path in FIXTURES:
        for draw in parse_archive(path.read_text(encoding="utf-8")).draws:
            out[draw.date.isoformat()] = {w: list(n) for w, n in draw.numbers.items()}
    return out


def test_the_campaign_verifies_clean_from_the_command_line(played_campaign: tuple[Path, Path]) -> None:
    _, log = played_campaign
    args = [sys.executable, "-m", "bot.cli", "verify", str(log)] + [a for p in FIXTURES for a in ("--draws", str(p))]
    result = subprocess.run(args, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
    assert "everything matches the public draws" in result.stdout


# The tampers in parts, each a test of its own: xdist spreads them over the workers (130 whole verifications).
PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
def test_every_single_number_tamper_of_a_used_draw_is_caught(played_campaign: tuple[Path, Path], part: int) -> None:
    """Every number a roll used, every number of three turns' draws, and all 55 numbers of one draw: this part's
    share of them, every PARTS-th in their order.

    (bench/verify.py runs the same over every number of every draw the campaign recorded.)
    """
    from engine.log import replay
    from engine.verify import slot_uses

    _, log = played_campaign
    events = read_log(log)
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    public = public_draws()
    assert verify(ruleset, events, public).ok
    view = ruleset.public_view(replay(ruleset, events).state)
    turn_days = [str(e.data["draw"]) for e in events if e.kind == "turn.opened"]
    chosen = {k for k, (_, purpose) in slot_uses(ruleset, events, view).items() if "roll #" in purpose or k[0] in turn_days[:3]}
    chosen |= {(turn_days[4], w, p) for w in public[turn_days[4]] for p in range(1, 6)}
    assert len(chosen) > 100
    mine = sorted(chosen)[part::PARTS]
    caught = 0
    for day, wheel, pos in mine:
        numbers = public[day][wheel]
        tampered = {d: {w: list(n) for w, n in ws.items()} for d, ws in public.items()}
        tampered[day][wheel][pos - 1] = next(n for n in range(1, 91) if n not in numbers)
        result = verify(ruleset, events, tampered)
        assert not result.ok, (day, wheel, pos)
        assert any(f"the log has {numbers[pos - 1]}" in str(f) for f in result.findings)
        caught += 1
    assert caught == len(mine) > 25


def test_a_used_number_names_its_turn_and_purpose(played_campaign: tuple[Path, Path]) -> None:
    _, log = played_campaign
    events = read_log(log)
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    public = public_draws()
    first_turn = next(str(e.data["draw"]) for e in events if e.kind == "turn.opened")
    public[first_turn]["NA"][0] = public[first_turn]["NA"][0] % 90 + 1
    result = verify(ruleset, events, public)
    assert any(f.turn == 1 and f.purpose == "order of play of the Seleucids" for f in result.findings), result.findings


def test_a_changed_or_inserted_event_is_caught(played_campaign: tuple[Path, Path]) -> None:
    _, log = played_campaign
    events = read_log(log)
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    rng = random.Random(7)
    for index in rng.sample(range(1, len(events)), 10):
        event = events[index]
        changed = replace(event, data={**event.data, "tampered": True})
        result = verify(ruleset, events[:index] + [changed] + events[index + 1:], public_draws())
        assert any(f.purpose == "hash chain" and f.seq == event.seq for f in result.findings)
    dropped = events[:5] + events[6:]
    assert not verify(ruleset, dropped, public_draws()).ok


def test_a_changed_roll_number_in_the_log_is_caught_even_with_a_recomputed_chain(played_campaign: tuple[Path, Path], tmp_path: Path) -> None:
    from engine.ledger import GENESIS, event_hash

    _, log = played_campaign
    events = read_log(log)
    index = next(i for i, e in enumerate(events) if e.kind == "draw.recorded" and i > 10)
    event = events[index]
    numbers = {w: list(n) for w, n in event.data["numbers"].items()}
    numbers["PA"][0] = numbers["PA"][0] % 90 + 1
    events[index] = replace(event, data={**event.data, "numbers": numbers})
    head = GENESIS
    rechained = []
    for e in events:  # a forger who rewrites every hash still cannot change the public draws
        e = replace(e, hash="")
        e = replace(e, hash=event_hash(head, e))
        head = e.hash
        rechained.append(e)
    result = verify(load_ruleset("mare-nostrum", DATA_DIR), rechained, public_draws())
    assert not result.ok
    assert any("wheel PA, position 1" in str(f) for f in result.findings)
    tampered_log = tmp_path / "forged.log"
    tampered_log.write_text("".join(json.dumps(e.to_dict()) + "\n" for e in rechained), encoding="utf-8")
    args = [sys.executable, "-m", "bot.cli", "verify", str(tampered_log)] + [a for p in FIXTURES for a in ("--draws", str(p))]
    cli = subprocess.run(args, capture_output=True, text=True)
    assert cli.returncode == 1 and "MISMATCH" in cli.stdout
