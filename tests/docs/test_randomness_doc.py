"""docs/randomness.md: every shell command prints the line the page shows, and every number of its worked examples
is what Legatus's own code computes (the page is the test's input: edit one without the other and this fails)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from bot.store.campaign_secret import derive_seed
from engine import commit_reveal, dice
from engine.chance import derive, drand
from engine.lotto import parse_archive
from engine.tabletop import shuffle
from tests.fixture_paths import REPO

DOC = (REPO / "docs" / "randomness.md").read_text(encoding="utf-8")
RECORDED = json.loads((REPO / "tests" / "engine" / "chance" / "data" / "quicknet_recorded.json").read_text())


def _commands() -> list[tuple[str, str]]:
    """(command, the line the page shows after it) for every `$ ` line of the console blocks."""
    pairs = []
    for block in re.findall(r"```console\n(.*?)```", DOC, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ "):
                pairs.append((line[2:], lines[i + 1]))
    return pairs


def test_the_page_has_its_worked_commands() -> None:
    assert len(_commands()) == 13


@pytest.mark.skipif(not all(shutil.which(t) for t in ("openssl", "xxd", "sha256sum")), reason="needs openssl, xxd")
@pytest.mark.parametrize(("command", "shown"), _commands())
def test_each_command_prints_what_the_page_shows(command: str, shown: str) -> None:
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True).stdout
    assert out.strip() == shown.strip()


def test_the_lottery_example() -> None:
    text = (REPO / "tests" / "data" / "lotto" / "draws-2023-01.txt").read_text()
    draw = next(d for d in parse_archive(text, "fixture").draws if d.date.isoformat() == "2023-01-05")
    for wheel in ("BA", "CA", "PA"):
        assert "\t".join([draw.date.strftime("%Y/%m/%d"), wheel, *map(str, draw.numbers[wheel])]) in DOC
    ba, ca, pa = draw.numbers["BA"][0], draw.numbers["CA"][0], draw.numbers["PA"][0]
    assert f"n = {ba}, die = ({ba} − 1) mod 6 + 1 = {ba - 1} mod 6 + 1 = **{dice.die_from_number(ba, 6)}**" in DOC
    assert f"(19 − 1) = **{dice.pair_value(ba, ca)}**" in DOC and f"8100 − 1 = **{dice.pair_limit(7)}**" in DOC
    assert f"die = {dice.pair_value(ba, ca)} mod 7 + 1 = **{dice.die_from_pair(ba, ca, 7)}**" in DOC
    assert dice.die_from_pair(90, 90, 7) is None and dice.die_from_pair(90, 89, 7) is not None
    assert f"reads **{pa}**: 46–90, peace" in DOC and pa >= 46


def test_the_drand_example() -> None:
    beacon = next(b for b in RECORDED["beacons"] if b["round"] == 657413)
    assert beacon["signature"] in DOC and beacon["randomness"] in DOC
    drand.check_beacon(beacon["round"], beacon["signature"])  # genuine quicknet
    assert drand.randomness(beacon["signature"]) == beacon["randomness"]
    assert drand.bind_round(1694775590, margin=10) == 657413 and drand.time_of(657413) == 1694775603
    import datetime as dt

    shown = dt.datetime.fromtimestamp(1694775590, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    assert f"t = 1694775590 ({shown})" in DOC
    assert "bound to round **657413**" in DOC and "**1694775603**" in DOC
    first, second = derive.values(bytes.fromhex(beacon["randomness"]), "siege of Numantia", 2, 1, 6)
    assert f"so the dice are **{first} and {second}**" in DOC


def test_the_commit_reveal_example() -> None:
    seed = derive_seed(b"example server key", "hmac:" + "5eed" * 16)
    assert seed in DOC and commit_reveal.commitment(commit_reveal.key(seed)) in DOC
    a, b = commit_reveal.uniform(commit_reveal.key(seed), "turn 3 siege of Numantia", 2, 1, 6)
    (n,) = commit_reveal.uniform(commit_reveal.key(seed), "turn 3 siege of Numantia", 1, 1, 90)
    assert f"two d6 of 649829479 mod 6 + 1 = **{a}** and 3903018631 mod 6 + 1 = **{b}**" in DOC
    assert f"649829479 mod 90 + 1 = **{n}**" in DOC


def test_the_mixed_commit_reveal_example() -> None:
    seed = derive_seed(b"example server key", "hmac:" + "5eed" * 16)
    randomness = canonical_sha256("example round")
    assert f"randomness is `{randomness[:8]}…{randomness[-4:]}`" in DOC
    label = "turn 3 siege of Numantia@drand:5123456"
    assert f"`{label}`" in DOC and commit_reveal.mixing_round(label) == "5123456"
    key = commit_reveal.mixed_key(commit_reveal.key(seed), randomness)
    assert f"hexkey:{key.hex()}" in DOC
    a, b = commit_reveal.uniform(key, label, 2, 1, 6)
    (n,) = commit_reveal.uniform(key, label, 1, 1, 90)
    assert commit_reveal.label_values(commit_reveal.key(seed), label, 1, 1, 90, {"5123456": randomness}) == [n]
    assert f"two d6 of 5 + 1 = **{a}** and 5 + 1 =\n**{b}**" in DOC and f"mod 90 + 1 = **{n}**" in DOC


def canonical_sha256(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


def test_the_sealed_pick_example() -> None:
    """Section 5: the pick key, the public value and the sorted pool give the marker the page names."""
    from engine import canonical
    from engine.mediterranean_empires import hand
    from engine.mediterranean_empires.rules_data import load_rules

    rules = load_rules(REPO / "data" / "rulesets" / "mediterranean-empires.toml")
    pool = sorted(m for m, n in rules.markers.items() for _ in range(n))
    key, label, values = "5eed5eed5eed5eed5eed5eed5eed5eed", "t1.o0.t1.draw.A1", [1234567890]
    assert f"'{canonical.dumps({'label': label, 'values': values})}'" in DOC
    index = hand.pick_index(key, label, values, len(pool))
    assert f"of the sorted pool" in DOC and f"mod {len(pool)} = **{index}**" in DOC
    assert f"the marker is the {index + 1}th of the sorted pool" in DOC and f"**{pool[index]}**" in DOC
    assert f"full pool of {len(pool)} markers" in DOC and f"2³² − (2³² mod {len(pool)}) = {2**32 - 2**32 % len(pool)}" in DOC


def test_the_rule_2_example() -> None:
    """Section 3: a rule-2 number is section 2's derivation of its round's randomness under its label as written."""
    beacon = next(b for b in RECORDED["beacons"] if b["round"] == 657413)
    label = "turn-3:roll-17:siege@drand:657413"
    assert f"label `{label}`" in DOC and commit_reveal.mixing_round(label) == "657413"
    assert f"hexkey:{beacon['randomness']}" in DOC
    (n,) = commit_reveal.round_values(label, 1, 1, 90, beacon["randomness"])
    assert n == derive.values(bytes.fromhex(beacon["randomness"]), label, 1, 1, 90)[0]
    assert commit_reveal.check_at_once(label, [n], 1, 1, 90, {"657413": beacon["randomness"]}) is None
    assert f"mod 90 = {n - 1}, so the\nnumber is **{n}**: 61–90, the fortification holds" in DOC and n >= 61



def test_the_hidden_deck_example() -> None:
    key = shuffle.shuffle_key("goods.shuffle1", [1234567890, 1], "5eed" * 8)
    assert key.hex() == "c71e8d3303f952cda0b3f94fe11d9f245afaa8926699fd33e5e5d140aed24d38" and key.hex() in DOC
    order = shuffle.permute(["wine", "grain", "grain star"], key, "goods.shuffle1.0")
    assert "The pile\nfrom the top: **" + ", ".join(order) + "**" in DOC
    assert derive.values(key, "goods.shuffle1.0/2", 1, 0, 2) == [0] and derive.values(key, "goods.shuffle1.0/1", 1, 0, 1) == [0]
