"""Commit–reveal randomness: the bot commits to a secret seed before the first roll and reveals it at the end.

Before any roll the bot publishes ``commitment(seed)`` = SHA-256(seed), hex. Every roll is named by a label
(e.g. "turn 3 siege of Numantia") and derived from HMAC-SHA256(seed, label) alone, so once the seed is
revealed anyone can check it matches the commitment and recompute every roll.

The method, for a roll in low..high (n = high - low + 1 values):
  for counter = 0, 1, 2, ...: digest = HMAC-SHA256(key=seed, msg=UTF-8 of f"{label}#{counter}");
  read the digest as eight 4-byte big-endian unsigned integers x, in order;
  accept x only if x < 2**32 - (2**32 mod n) (rejection sampling: no modulo bias), giving low + x mod n.
Several dice under one label are the successive accepted values of that one stream, so ``roll(seed, label,
1, 6)`` is the first die of ``dice(seed, label, count, 6)``.

Mixed with a public value. A seed alone lets whoever holds it (the bot's operator: the server key and the
database) compute every roll before it is made. So a roll is also bound, when it is asked for, to a drand round
still in the future, written into its label: "turn-3:roll-17:siege@drand:5123456". Its values are then drawn
with the key HMAC-SHA256(key=seed, msg=b"drand|" + the 32 bytes of that round's randomness) instead of the seed:
nobody knows them before the round exists (its randomness is unknown to all), and nobody can steer them after
(the seed was committed at the campaign's creation, the round fixed at the binding). Labels without "@drand:"
(campaigns made before this rule) use the seed alone.

Checkable at once (rule 2, ``"commit_reveal_rule": 2`` in ``campaign.created``). Mixed with a round, the seed adds
nothing: nobody could foresee the round's randomness anyway, and the values are public in the log the moment they
are recorded. What it did add was a window: a recorded value could not be checked until the GM chose to reveal the
seed, so a forged one passed every check until then. A campaign created under rule 2 draws a mixed label's values
from its round's randomness alone, as a drand roll (engine/chance/derive.py), and binds no label without a round:
the game checks every value as it is recorded, and anyone can redo it from the log at once. Campaigns created
before (no rule named: rule 1) keep drawing from the seed, so their logs replay unchanged.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping
from typing import Any

from engine.events import Rejection

SPACE = 2**32
MIX_TAG = "@drand:"
RULE_FIELD = "commit_reveal_rule"  # in campaign.created; absent in campaigns made before rule 2
RULE_SEED, RULE_AT_ONCE = 1, 2


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def verify_reveal(seed: bytes, commitment_hex: str) -> bool:
    return hmac.compare_digest(commitment(seed), commitment_hex.strip().lower())


def words(key: bytes, label: str) -> Iterator[int]:
    """The endless stream of 4-byte big-endian integers HMAC(key, 'label#0'), HMAC(key, 'label#1'), ..."""
    counter = 0
    while True:
        digest = hmac.new(key, f"{label}#{counter}".encode(), hashlib.sha256).digest()
        for i in range(0, len(digest), 4):
            yield int.from_bytes(digest[i:i + 4], "big")
        counter += 1


def uniform(key: bytes, label: str, count: int, low: int, high: int) -> list[int]:
    """``count`` unbiased integers in low..high from the stream of ``label``."""
    n = high - low + 1
    if n < 1 or n > SPACE:
        raise ValueError(f"the range {low}..{high} must hold 1 to 2**32 values")
    if count < 0:
        raise ValueError("count must not be negative")
    limit = SPACE - SPACE % n
    out: list[int] = []
    stream = words(key, label)
    while len(out) < count:
        x = next(stream)
        if x < limit:
            out.append(low + x % n)
    return out


def roll(seed: bytes, label: str, low: int, high: int) -> int:
    return uniform(seed, label, 1, low, high)[0]


def dice(seed: bytes, label: str, count: int, sides: int) -> list[int]:
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return uniform(seed, label, count, 1, sides)


def key(seed_text: str) -> bytes:
    """The bytes of a campaign's seed as Legatus stores and reveals it (hex text): its UTF-8, as typed.

    So ``commitment(key(seed))`` is what ``printf %s SEED | sha256sum`` prints.
    """
    return seed_text.encode("utf-8")


def revealed_seed(data: Mapping[str, Any], commitment_hex: str | None, seed_so_far: str | None, *,
                  what: str = "game") -> str:
    """The seed a GM's reveal gives (``data["seed"]``), held to the commitment published at creation; a Rejection
    when there is none still to reveal or it does not match."""
    if commitment_hex is None or seed_so_far is not None:
        raise Rejection(f"this {what} has no commit-reveal seed still to reveal")
    seed = str(data.get("seed", ""))
    if not verify_reveal(key(seed), commitment_hex):
        raise Rejection(f"this seed does not match the commitment published at creation ({commitment_hex[:12]}…)")
    return seed


def with_round(label: str, round_number: int | str) -> str:
    """The label of a roll mixed with a drand round (see the module's text)."""
    return f"{label}{MIX_TAG}{int(round_number)}"


def mixing_round(label: str) -> str | None:
    """The drand round a label is mixed with, as digits, or None for a label drawn from the seed alone."""
    _, tag, digits = label.rpartition(MIX_TAG)
    return digits if tag and digits.isdigit() else None


def waits_for_round(label: str, beacons: dict[str, str]) -> str | None:
    """Why values for ``label`` cannot be recorded yet (its round's beacon is not recorded), or None."""
    round_number = mixing_round(label)
    if round_number is None or round_number in beacons:
        return None
    return (f"'{label}' is mixed with drand round {round_number}, whose beacon is not recorded yet: its values cannot "
            "exist before that round")


def mixed_key(seed_key: bytes, randomness_hex: str) -> bytes:
    """The key a mixed label's values are drawn with: HMAC-SHA256(seed, b"drand|" + the round's randomness)."""
    return hmac.new(seed_key, b"drand|" + bytes.fromhex(randomness_hex), hashlib.sha256).digest()


def label_values(seed_key: bytes, label: str, count: int, low: int, high: int, beacons: dict[str, str]) -> list[int] | None:
    """A label's values: mixed with its round's randomness (``beacons``: round -> randomness hex), or from the
    seed alone for an unmixed label; None while the round's beacon is not known."""
    round_number = mixing_round(label)
    if round_number is None:
        return uniform(seed_key, label, count, low, high)
    randomness = beacons.get(round_number)
    if randomness is None:
        return None
    return uniform(mixed_key(seed_key, randomness), label, count, low, high)


def rule_of(created: dict[str, object]) -> int:
    """The commit-reveal rule a campaign follows, from its ``campaign.created`` data (RULE_SEED when none is named)."""
    named = created.get(RULE_FIELD)
    return RULE_AT_ONCE if isinstance(named, int) and not isinstance(named, bool) and named >= RULE_AT_ONCE else RULE_SEED


def round_values(label: str, count: int, low: int, high: int, randomness_hex: str) -> list[int]:
    """A rule-2 label's values: its round's randomness alone is the key, as for a drand roll (section 2)."""
    return uniform(bytes.fromhex(randomness_hex), label, count, low, high)


def check_at_once(label: str, values: list[int], count: int, low: int, high: int,
                  beacons: dict[str, str]) -> str | None:
    """Why ``values`` recorded for a rule-2 label are refused, or None: the label must be mixed with a round whose
    beacon is recorded, and the values must be that round's."""
    round_number = mixing_round(label)
    if round_number is None:
        return (f"'{label}' is mixed with no drand round: in this campaign every number comes from a drand round "
                "(commit_reveal_rule 2)")
    randomness = beacons.get(round_number)
    if randomness is None:
        return waits_for_round(label, beacons)
    theirs = round_values(label, count, low, high, randomness)
    if values != theirs:
        return (f"'{label}' is recorded as {_shown(values)}, but drand round {round_number} gives {_shown(theirs)} "
                "(the round's randomness alone is its key): refused")
    return None


def _shown(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)
