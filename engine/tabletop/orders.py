"""Trade orders in plain words, for every game: ``offer <bundle> for <bundle> to <seat|everyone>``, optionally
followed by ``secretly <text>`` (a promise only the two parties read), ``accept <n> [with <card ids>]``,
``decline <n>``, ``withdraw <n>``, ``counter <n> <bundle> for <bundle>``.

A bundle is items separated by commas or "and": ``3 money``, ``2 grain`` (a resource, or cards asked for by their
public face), a card id the giver holds (``goods.4``), ``"a promise in quotes"``, or ``nothing``. Which words are
resources, faces and card ids the game says (``Vocabulary``); anything else is refused with the word quoted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.events import Rejection
from engine.tabletop.hands import MAX_AMOUNT
from engine.tabletop.trades import EVERYONE

ITEM = re.compile(r'^(?:(\d+)\s+)?(.+?)$', re.S)  # any non-empty item, a line break in it too
OFFER = re.compile(r'^offer\s+(.*?)\s+for\s+(.*?)\s+to\s+(\S+)(?:\s+secretly\s+(.+))?$', re.I | re.S)
COUNTER = re.compile(r'^counter\s+(\d+)\s+(.*?)\s+for\s+(.*?)(?:\s+secretly\s+(.+))?$', re.I | re.S)
ANSWER = re.compile(r'^(accept|decline|withdraw)\s+(\S+)(?:\s+with\s+(.+))?$', re.I)


@dataclass(frozen=True)
class Vocabulary:
    money: str = "money"
    resources: tuple[str, ...] = ()
    faces: tuple[str, ...] = ()  # public faces of cards that can be asked for
    cards: tuple[str, ...] = ()  # the ids of the cards the giver holds


def bundle(text: str, words: Vocabulary, giving: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"money": 0, "resources": {}, "cards": [], "faces": {}, "text": ""}
    quoted = re.findall(r'"([^"]*)"', text)
    if quoted:
        out["text"] = " ".join(q.strip() for q in quoted)
        text = re.sub(r'"[^"]*"', "", text)
    for raw in re.split(r",|\band\b", text):
        item = raw.strip()
        if not item or item.lower() == "nothing":
            continue
        number, word = ITEM.match(item).groups()  # type: ignore[union-attr]  # ITEM matches any non-empty item
        n = int(number) if number else 1
        if not 1 <= n <= MAX_AMOUNT:
            raise Rejection(f"'{item}': an amount is 1 to {MAX_AMOUNT}")
        word = word.strip().lower()
        if word == words.money:
            out["money"] += n
        elif word in words.resources or word.rstrip("s") in words.resources:
            name = word if word in words.resources else word.rstrip("s")
            out["resources"][name] = out["resources"].get(name, 0) + n
        elif word in (c.lower() for c in words.cards) and not number:
            out["cards"].append(next(c for c in words.cards if c.lower() == word))
        elif not giving and (word in words.faces or word.rstrip("s") in words.faces):
            face = word if word in words.faces else word.rstrip("s")
            out["faces"][face] = out["faces"].get(face, 0) + n
        else:
            known = [words.money, *words.resources, *(words.cards if giving else words.faces)]
            raise Rejection(f"'{item}' is not something you can {'give' if giving else 'ask for'}: "
                            f"name {', '.join(known)}, or a promise in quotes")
    return out


def read_offer(line: str, words_give: Vocabulary, words_get: Vocabulary, seats: dict[str, str]) -> dict[str, Any] | None:
    """An ``offer`` line: {"to", "give", "get", "secret"}; None if the line is not an offer. ``seats``: lower-case
    name (seat or player) -> seat."""
    m = OFFER.match(line.strip())
    if not m:
        return None
    give, get, to, secret = m.groups()
    target = EVERYONE if to.lower() == EVERYONE else seats.get(to.lower())
    if target is None:
        raise Rejection(f"'{to}' is not a seat nor a player: offer to one of {', '.join(sorted(set(seats.values())))} or everyone")
    return {"to": target, "give": bundle(give, words_give, True), "get": bundle(get, words_get, False),
            "secret": secret.strip() if secret else None}


def read_counter(line: str, words_give: Vocabulary, words_get: Vocabulary) -> dict[str, Any] | None:
    m = COUNTER.match(line.strip())
    if not m:
        return None
    offer_id, give, get, secret = m.groups()
    return {"offer": int(offer_id), "give": bundle(give, words_give, True), "get": bundle(get, words_get, False),
            "secret": secret.strip() if secret else None}


def read_answer(line: str) -> tuple[str, int, list[str]] | None:
    """``accept 3 with goods.4, goods.7`` -> ("accept", 3, ["goods.4", "goods.7"])."""
    m = ANSWER.match(line.strip())
    if not m:
        return None
    verb, number, cards = m.groups()
    if not number.isdigit() or not 1 <= int(number) <= 100_000:
        raise Rejection(f"'{number}' is not an offer number: write '{verb.lower()} <number>', e.g. '{verb.lower()} 3'")
    return verb.lower(), int(number), [c.strip() for c in re.split(r",|\band\b", cards or "") if c.strip()]
