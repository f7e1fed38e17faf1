"""Issue 15: stratagem markers are private to their owner until played. The attack: a player holding the public
log (the export) or reading /ledger in the middle of a game works out the other player's markers.

Before the defence, a pick was a die bound to a drand round: replaying the export gave every hand. Now two games
whose hands differ (the bot's pick key differs) must give the same export, its digests aside, and the same
/ledger: whatever a player computes from them, it cannot tell the hands apart.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import re
from pathlib import Path
from typing import Any

from engine.log import replay
from engine.mediterranean_empires import hand
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from tests.games.mediterranean_empires_players import USERS, Table, decide, post_standing_orders, table


def _stratagem_phase(t: Table, seed: str, until: str = "political") -> None:
    """Turn 1's draws, four each, with the bot's salts (the pick key among them) drawn from ``seed``; on to the
    phase ``until``."""
    salts = itertools.count(1)
    t.service.salt = lambda: hashlib.sha256(f"{seed} {next(salts)}".encode()).hexdigest()[:32]
    post_standing_orders(t)
    ruleset = t.service.ruleset_of(None)
    for _ in range(300):
        if t.state.phase == until:
            return
        prompts = ruleset.prompts(t.state)
        if not prompts:
            t.say("gm", "/status")
            continue
        who, line = decide(ruleset, t.state, prompts[0], t.plan)
        t.say(who, line)
    raise AssertionError(f"the game did not reach the {until} phase")


def _blind(value: Any) -> Any:
    """An export with every digest and salt blanked: what is left is what a player can compute from."""
    if isinstance(value, dict):
        return {k: ("…" if k in ("sealed", "hash", "salt") else _blind(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_blind(v) for v in value]
    return value


def test_the_export_and_the_ledger_tell_nothing_of_the_hands(tmp_path: Path) -> None:
    runs = []
    # Two pick keys whose draws show neither the Plague, the Pope nor the Crusade (a marker shown is public: such a
    # game's export differs, rightly); "second table" draws the Plague and the Pope on these beacons.
    for seed in ("first table", "third table"):
        with table(tmp_path / f"{seed.split()[0]}.db") as t:
            _stratagem_phase(t, seed)
            ruleset = t.service.ruleset_of(None)
            hands = {seat: ruleset.private_view(t.state, seat)["markers"] for seat in USERS}
            export = [json.loads(line) for line in t.service.export().splitlines()]
            runs.append((hands, export, t.say("bob", "/ledger"), t.service.state(), t.events(), ruleset))
    (hands_1, export_1, ledger_1, view_1, events_1, ruleset), (hands_2, export_2, ledger_2, view_2, _, _) = runs
    assert all(len(h) == 4 for h in hands_1.values()), hands_1  # no Plague, Pope or Crusade shown in either game
    assert hands_1 != hands_2, "the two pick keys give other hands"
    # Everything a player may read is the same in both games, digests aside: it cannot tell one hand from the other.
    assert _blind(export_1) == _blind(export_2)
    head = re.compile(r"\b\d+:[0-9a-f]{64}\b")  # the chain's head: a hash over the digests
    assert head.sub("…", ledger_1) == head.sub("…", ledger_2) and "pending" not in ledger_1
    assert view_1 == view_2
    # The attack of old: replay the export (no private store) and read the hands. The fold knows only counts.
    public = replay(ruleset, events_1).state
    assert [e["marker"] for side in ("A", "B") for e in public.sides[side].hand] == [None] * 8
    assert hand.pool(public) is None and hand.pool_size(public) == view_1["pool"]
    for seat in USERS:
        assert ruleset.private_view(public, seat)["markers"] == []
    # Each sealed marker is bound: its digest is in the chain (the bot's secret.sealed event), its content is not.
    sealed = [e for e in export_1 if e["kind"] == "secret.sealed"]
    assert len(sealed) == 8 and all(set(e["data"]) <= {"key", "sealed", "by"} for e in sealed)


def test_the_pick_key_is_sealed_before_any_picks_public_value_exists(tmp_path: Path) -> None:
    """The operator cannot steer a pick: the key is fixed (its digest in the chain) in the first draw order, which
    binds the first pick to a drand round still to come; a pick key changed afterwards would not match it."""
    with table(tmp_path / "key.db") as t:
        _stratagem_phase(t, "key", until="recruitment")
        events = t.events()
        ruleset = load_ruleset("mediterranean-empires", t.service.data_dir)
    # Mid-game, the export verifies: the markers revealed so far (Diplomacy for the political attempts) are checked
    # against their digests; the pick key and the rest stay sealed.
    result = verify(ruleset, events, {})
    assert_verified_but_for_the_test_chain(result)  # the tests' chain: verify never passes it
    shown = [e for e in events if e.kind == "secret.revealed"]
    assert shown and all(e.data["content"].get("marker") == "Diplomacy" for e in shown)
    assert replay(ruleset, events).state.pick_key["salt"] is None
    first_draw = next(e for e in events if e.kind == "order" and e.data.get("order", {}).get("order") == "draw")
    assert "sealed" in first_draw.data and first_draw.draws[0].startswith("drand:")
    beacons = [e for e in events if e.kind == "beacon.recorded"]
    assert beacons and all(b.seq > first_draw.seq for b in beacons)
    assert min(int(b.data["round"]) for b in beacons) >= int(first_draw.draws[0].split(":")[1])
    # Every pick's public value is a roll bound to a later round than the event that asked for it (verify checks
    # the margin); the key was sealed before the first of them.
    picks = [e for e in ruleset.ledger(replay(ruleset, events).state) if str(e["purpose"]).endswith(".pick")]
    assert len(picks) >= 8 and all(int(p["key"]) >= int(first_draw.draws[0].split(":")[1]) for p in picks)
