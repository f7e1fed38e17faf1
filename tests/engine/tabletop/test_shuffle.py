"""The shuffle's rule, redone here from its documentation (hmac, hashlib, no Legatus code), and what it depends on."""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from engine.tabletop import shuffle

CARDS = ["wine", "grain", "grain star", "wine star", "grain", "wine"]


def by_hand(cards: list[str], label: str, values: list[int], key_hex: str | None) -> list[str]:
    """engine/tabletop/shuffle.py's docstring, step by step."""
    message = json.dumps({"label": label, "values": values}, sort_keys=True, separators=(",", ":")).encode()
    k = hashlib.sha256(message).digest() if key_hex is None else hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).digest()
    pile = sorted(cards)
    for i in range(len(pile) - 1, 0, -1):
        n, counter, j = i + 1, 0, None
        while j is None:
            digest = hmac.new(k, f"{label}/{i}#{counter}".encode(), hashlib.sha256).digest()
            for w in range(8):
                x = int.from_bytes(digest[4 * w:4 * w + 4], "big")
                if x < 2**32 - (2**32 % n):
                    j = x % n
                    break
            counter += 1
        pile[i], pile[j] = pile[j], pile[i]
    return pile


def test_an_open_shuffle_is_the_documented_rule() -> None:
    key = shuffle.shuffle_key("goods.shuffle1", [17, 99], None)
    assert shuffle.permute(CARDS, key, "goods.shuffle1") == by_hand(CARDS, "goods.shuffle1", [17, 99], None)


def test_a_hidden_shuffle_is_keyed_by_the_deck_key() -> None:
    key_hex = "5eed" * 8
    key = shuffle.shuffle_key("goods.shuffle1", [17, 99], key_hex)
    assert shuffle.permute(CARDS, key, "goods.shuffle1") == by_hand(CARDS, "goods.shuffle1", [17, 99], key_hex)


def test_the_order_depends_on_the_public_value_the_key_and_the_label_but_not_on_the_cards_order() -> None:
    key_hex = "5eed" * 8
    orders = {
        tuple(shuffle.permute(CARDS, shuffle.shuffle_key("L", [v], key_hex), "L")) for v in range(1, 40)
    }
    assert len(orders) > 20  # 40 public values give many orders (6 cards with repeats: 180 orders at most)
    a = shuffle.permute(CARDS, shuffle.shuffle_key("L", [1], key_hex), "L")
    assert a != shuffle.permute(CARDS, shuffle.shuffle_key("L", [1], "beef" * 8), "L")
    assert a == shuffle.permute(list(reversed(CARDS)), shuffle.shuffle_key("L", [1], key_hex), "L")
    assert sorted(a) == sorted(CARDS)


def test_the_roll_of_a_shuffle_has_enough_public_chance_on_every_source() -> None:
    assert shuffle.roll_shape("lottery") == (1, 90, 5)  # 90^5 ≈ 2^32.5 outcomes
    assert shuffle.roll_shape("drand") == (1, 2**31, 2) == shuffle.roll_shape("commit-reveal") == shuffle.roll_shape("fixed")
    assert shuffle.roll_shape("dice") == shuffle.OTHER_VALUES  # a name no registered source has


def test_a_narrow_source_gives_a_shuffle_enough_numbers_for_2_to_the_32_outcomes() -> None:
    assert [shuffle.numbers_for(s) for s in (2, 3, 90, 256, 2**16, 2**16 - 1, 2**32, 2**40)] == [32, 21, 5, 4, 2, 3, 1, 1]
    with pytest.raises(ValueError, match="a source's span is at least 2 numbers, not 1"):
        shuffle.numbers_for(1)
