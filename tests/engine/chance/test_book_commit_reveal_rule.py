"""The chance book every game but Mare Nostrum keeps (engine/chance/book.py) follows the commit-reveal rule its
campaign names: under rule 2 a roll binds only with a drand round, and the values recorded for it must be that
round's (section 2's derivation of its randomness and the label); under rule 1, as before, the seed's, unchecked
until the reveal."""
from __future__ import annotations

import hashlib

import pytest

from engine import commit_reveal
from engine.chance import book as chance
from engine.chance import derive
from engine.events import Event, Rejection

RANDOMNESS = hashlib.sha256(b"example round").hexdigest()


def _event(kind: str, data: dict[str, object], draws: tuple[str, ...] = ()) -> Event:
    return Event(seq=1, kind=kind, actor="legatus", data=data, draws=draws)


def _bound(rule: int) -> tuple[chance.ChanceBook, chance.Binding]:
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL, rule=rule)
    binding = chance.ask(book, _event("order", {}, ("drand:5123456",)), "t1.volley", 1, 6, count=3)
    chance.record(book, _event("beacon.recorded", {"round": "5123456", "randomness": RANDOMNESS}))
    return book, binding


def test_a_new_campaign_names_rule_2_and_an_old_one_none() -> None:
    assert chance.rule_of(chance.COMMIT_REVEAL, {commit_reveal.RULE_FIELD: 2}) == commit_reveal.RULE_AT_ONCE
    assert chance.rule_of(chance.COMMIT_REVEAL, {}) == commit_reveal.RULE_SEED
    assert chance.rule_of(chance.DRAND, {commit_reveal.RULE_FIELD: 2}) == commit_reveal.RULE_SEED


def test_rule_2_takes_the_rounds_values_and_refuses_any_other() -> None:
    """Operator with the database: under rule 2 a forged value is refused when the log is folded, not at a reveal."""
    book, binding = _bound(commit_reveal.RULE_AT_ONCE)
    assert binding.label == "t1.volley@drand:5123456"
    theirs = derive.values(bytes.fromhex(RANDOMNESS), binding.label, 3, 1, 6)
    forged = [v % 6 + 1 for v in theirs]
    with pytest.raises(Rejection, match=f"is recorded as {', '.join(map(str, forged))}, but drand round 5123456 gives "):
        chance.record(book, _event("random.recorded", {"numbers": {binding.label: forged}}))
    with pytest.raises(Rejection, match="no roll of this campaign is bound to 't9.other@drand:5123456'"):
        chance.record(book, _event("random.recorded", {"numbers": {"t9.other@drand:5123456": 4}}))
    chance.record(book, _event("random.recorded", {"numbers": {binding.label: theirs}}))
    assert [b.values for b in chance.settle(book, _event("random.recorded", {}))] == [theirs]


def test_rule_2_binds_no_roll_without_a_round() -> None:
    """Operator with the clock: a bot that offers no round cannot fall back on the seed, unchecked until the reveal."""
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL, rule=commit_reveal.RULE_AT_ONCE)
    with pytest.raises(Rejection, match="no future drand round was offered to bind this roll to"):
        chance.ask(book, _event("order", {}), "t1.volley", 1, 6)
    assert book.bindings == [] and book.used == []


def test_rule_1_keeps_the_seeds_values() -> None:
    book, binding = _bound(commit_reveal.RULE_SEED)
    seeds = commit_reveal.uniform(commit_reveal.mixed_key(b"seed", RANDOMNESS), binding.label, 3, 1, 6)
    chance.record(book, _event("random.recorded", {"numbers": {binding.label: seeds}}))
    assert book.numbers[binding.label] == seeds
    assert chance.ask(book, _event("order", {}), "t1.unmixed", 1, 6).label == "t1.unmixed"
