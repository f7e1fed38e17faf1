"""Rules version 2: the development and calamity decks are face down. The attack: an outsider holding the export
(every public event, every beacon) tries to name the next turn's developments and calamities before the civic
phase reveals them, by shuffling each deck as the public rule does. On version 1's open decks it succeeds (their
order is public); on version 2's hidden decks, keyed by the deck key the bot sealed at the start, the export's fold
knows only each pile's size, and the same derivation names other cards. At the end the key is revealed and
``verify`` derives every reveal again."""
from __future__ import annotations

from typing import Any

from engine.events import Event
from engine.tabletop import shuffle
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean.rules_data import AGES, CALAMITY_KINDS
from engine.verify import verify
from tests.engine.trading_mediterranean.tm_players import play
from tests.engine.trading_mediterranean.tm_table import RULES, Table, replay

FOUR = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan"}


def outsiders_guess(exported: list[Event]) -> tuple[list[str], list[str]]:
    """Turn 2's developments and calamities as an outsider derives them from the export: each deck's first shuffle
    with its public values and no key (an open deck's rule), the cards turn 1 showed taken off the top."""
    folded = replay(exported)
    g = folded.state
    order: dict[str, list[str]] = {}
    for name in (*AGES, *CALAMITY_KINDS):
        first = g.table.decks[name].shuffles[0]
        values = next(b.values for b in g.book.bindings if b.id == first.roll)
        order[name] = shuffle.permute(first.piles[0], shuffle.shuffle_key(first.label, values or [], None),
                                      f"{first.label}.0")
    stack = RULES.rules.stack
    devs = order[stack[1].age][stack[0].developments:stack[0].developments + stack[1].developments]
    return devs, [order[k][0] for k in CALAMITY_KINDS]


def at_turn_2_production(rules_version: int) -> tuple[Table, Any]:
    t = Table(FOUR, "face down", rules_version=rules_version)
    play(t, FOUR, until=lambda g: g.turn == 2)
    exported = t.export()
    play(t, FOUR, until=lambda g: g.turn == 2 and g.phase == gm.CIVIC)
    return t, exported


def test_version_1_open_decks_let_an_outsider_name_the_next_turns_developments() -> None:
    t, exported = at_turn_2_production(1)
    assert outsiders_guess(exported) == (t.state.shown, t.state.calamities)


def test_version_2_face_down_decks_keep_the_next_turns_developments_from_an_outsider() -> None:
    t, exported = at_turn_2_production(2)
    devs, calamities = outsiders_guess(exported)
    assert sorted(devs) != sorted(t.state.shown) and calamities != t.state.calamities
    public = replay(exported).state
    for name in (*AGES, *CALAMITY_KINDS):
        assert public.table.decks[name].pile is None  # the export's fold: sizes only
        assert "pile" not in RULES.public_view(public)["table"]["decks"][name]
    assert len(t.state.shown) == 6 and len(t.state.calamities) == 2  # revealed at the civic phase, to everyone
    assert RULES.public_view(replay(t.export()).state)["developments"] == t.state.shown
    play(t, FOUR)
    result = verify(RULES, t.export(), {}, beacon_check=lambda data: None)
    assert [str(f) for f in result.findings] == []
