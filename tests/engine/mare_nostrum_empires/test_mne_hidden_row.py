"""The Heroes and Wonders row face down for real (rules version 2): a hidden deck keyed by the deck key the bot
seals at the campaign's creation; each tile turned up is sealed, checked against the order, and revealed at once;
at the game's end the key is revealed and the order derived again. The attacks first: an outsider with the export
cannot name the next tile; the operator cannot turn up another tile than the shuffle gives."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_play import Play, quick_claims, quick_commerce, quick_turns, ruleset

from engine import secrets
from engine.events import Event, Rejection
from engine.mare_nostrum_empires import hidden_row, tiles
from engine.mare_nostrum_empires.game import Game
from engine.tabletop import shuffle

NEW = 2


def _shuffle(game: Game) -> tuple[str, list[int]]:
    """The row's shuffle: its label and its public values."""
    assert game.table is not None
    label = game.table.decks[hidden_row.DECK].shuffles[0].label
    binding = next(b for b in game.book.bindings if b.label == label)
    assert binding.values is not None
    return label, binding.values


def _order(game: Game, deck_key: str | None) -> list[str]:
    label, values = _shuffle(game)
    return shuffle.permute(tiles.row_tiles(ruleset().rules), shuffle.shuffle_key(label, values, deck_key),
                           f"{label}.0")


def test_an_outsider_with_the_export_cannot_name_the_next_tile() -> None:
    p = Play(3, rules_version=NEW)
    assert p.state.row is not None and p.state.table is not None
    bot_pile = p.state.table.decks[hidden_row.DECK].pile
    assert bot_pile is not None and len(bot_pile) == 9  # the bot's fold, which holds the key, knows the order
    export = p.replay()
    assert export.row is not None and export.table is not None
    assert export.table.decks[hidden_row.DECK].pile is None  # the export's fold knows only how many are left
    assert export.row.public() == p.state.row.public() == {"face_up": p.state.row.face_up, "face_down": 9}
    assert p.rs.public_view(export) == p.rs.public_view(p.state)
    # The public value alone, read as an open shuffle (version 1's rule), gives another order than the real one.
    assert _order(export, None)[:6] != [*p.state.row.face_up, bot_pile[0]]
    # And what the bot's order puts next stays out of every public word until it turns up.
    assert bot_pile[0] not in str(p.rs.public_view(p.state)) and bot_pile[0] not in " ".join(p.said)


def test_the_operator_cannot_turn_up_another_tile_than_the_shuffle_gives() -> None:
    p = Play(3, rules_version=NEW)
    assert p.state.table is not None and p.state.row is not None
    first = p.state.row.face_up[0]
    wrong = next(t for t in tiles.row_tiles(ruleset().rules) if t != first)
    sealed = next(e for e in p.events if e.kind == secrets.SEALED and e.data.get("key") == "row.1")
    game = ruleset().initial_state(p.setup)
    for e in p.events[:p.events.index(sealed)]:
        game = ruleset().apply(game, e).state
    salt = "ab" * 32
    content = {"card": wrong, "deck": "row", "draw": "row.1"}
    forged = Event(sealed.seq, secrets.SEALED, "legatus", dict(sealed.data, sealed=secrets.digest(content, salt)),
                   secret={"content": content, "salt": salt})
    with pytest.raises(Rejection, match="the card sealed as 'row.1' is not the one its shuffle puts there"):
        ruleset().apply(game, forged)
    honest = ruleset().apply(game, sealed).state  # the bot's true seal: accepted, and its reveal due at once
    assert honest.table is not None and honest.table.due == [sealed.seq]


def test_a_reveal_that_does_not_match_its_seal_is_refused() -> None:
    p = Play(3, rules_version=NEW)
    sealed = next(e for e in p.events if e.kind == secrets.SEALED and e.data.get("key") == "row.1")
    revealed = next(e for e in p.events if e.kind == secrets.REVEALED and e.data.get("seq") == sealed.seq)
    game = ruleset().initial_state(p.setup)
    for event in p.events[:p.events.index(revealed)]:
        game = ruleset().apply(game, Event(event.seq, event.kind, event.actor, event.data)).state
    lie = dict(revealed.data, content={"card": "Homer", "deck": "row", "draw": "row.1"})
    with pytest.raises(Rejection):
        ruleset().apply(game, Event(revealed.seq, revealed.kind, revealed.actor, lie))


def test_the_row_turns_up_five_tiles_each_sealed_then_revealed() -> None:
    p = Play(3, rules_version=NEW)
    kinds = [(e.kind, e.data.get("key") or e.data.get("seq")) for e in p.events]
    assert kinds[0] == (secrets.SEALED, "deck-key")
    assert kinds[1:] == [k for n in range(1, 6) for k in ((secrets.SEALED, f"row.{n}"),
                                                          (secrets.REVEALED, 2 * n))]
    face_up = ["Spartacus", "Oracle of Delphi", "Alexander", "Mausoleum", "Colossus of Rhodes"]
    assert p.state.row is not None and p.state.row.face_up == face_up
    assert [line for line in p.said if line.startswith("The row turns up")] == [
        f"The row turns up {t}." for t in face_up]


def test_nothing_comes_before_the_deck_keys_seal() -> None:
    rs = ruleset()
    game = rs.initial_state({"players": {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat"},
                             "randomness": "fixed", "fixed_values": [1, 2], "rules_version": NEW})
    with pytest.raises(Rejection, match="the deck key is sealed first, when the campaign is created; 'order' "
                                        "\\(event #1\\) cannot come before it"):
        rs.apply(game, Event(1, "order", "cat", {"seat": "Carthaginians", "order": {"kind": "token", "token": "I",
                                                                                      "face": 1}}))


def test_an_old_campaign_keeps_the_open_shuffle_bound_at_its_first_event() -> None:
    p = Play(3)
    assert p.state.table is None and p.events == [] and p.state.row is None
    quick_commerce(p)
    assert p.state.row is not None and p.state.row.face_up[:2] == ["Spartacus", "Leonidas"]


def test_at_the_end_the_deck_key_is_revealed_and_the_order_derived_again() -> None:
    p = _to_three_titles()
    export = p.replay()
    assert export.table is not None and p.state.table is not None and export.row is not None
    assert export.table.key_revealed and export.table.key == p.state.table.key
    derived = _order(export, export.table.key)
    # The order the revealed key derives is the one the row showed: the first five, then the sixth in the gap.
    assert export.row.face_up == [derived[5], *derived[1:5]]
    assert export.board.screens["Greeks"].tiles == ["Pericles", derived[0]]


def _to_three_titles() -> Play:
    """A 3-player game to the Romans' three titles in two rounds; the Greeks buy the first tile of the row."""
    p = Play(3, rules_version=NEW)
    quick_commerce(p)
    assert p.state.row is not None
    quick_turns(p, {"Romans": "buy legion in Rome with taxes\nbuy influence in Gallia Cisalpina with gladiators, "
                              "marble, wine", "Greeks": f"buy {p.state.row.face_up[0]} with taxes"})
    quick_turns(p)
    quick_claims(p)
    quick_commerce(p, "II 2")
    quick_turns(p, {"Romans": "buy caravan in Gallia Cisalpina with taxes"})
    quick_turns(p)
    assert p.state.winners == [("Romans", "hold the three titles")]
    return p


def _with_revealed_contents(events: list[Event]) -> list[Event]:
    """verify's replay: each revealed content given back to the event that sealed it."""
    revealed = {int(e.data["seq"]): {"content": e.data["content"], "salt": e.data["salt"]}
                for e in events if e.kind == secrets.REVEALED}
    return [Event(e.seq, e.kind, e.actor, e.data, secret=revealed.get(e.seq)) for e in events]


def test_an_operator_who_turns_up_a_chosen_tile_is_caught_once_the_key_is_revealed() -> None:
    p = _to_three_titles()
    honest = [Event(e.seq, e.kind, e.actor, e.data) for e in p.events]
    sealed = next(e for e in honest if e.kind == secrets.SEALED and e.data.get("key") == "row.2")
    revealed = next(e for e in honest if e.kind == secrets.REVEALED and e.data.get("seq") == sealed.seq)
    assert p.state.row is not None
    chosen = next(t for t in tiles.row_tiles(ruleset().rules) if t not in p.state.row.face_up)
    content, salt = {"card": chosen, "deck": "row", "draw": "row.2"}, "cd" * 32
    forged = [Event(e.seq, e.kind, e.actor, dict(e.data, sealed=secrets.digest(content, salt))) if e is sealed else
              Event(e.seq, e.kind, e.actor, dict(e.data, content=content, salt=salt)) if e is revealed else e
              for e in honest]
    # The export's fold, without the key's order, cannot tell: the forged tile stands face up...
    game = ruleset().initial_state(p.setup)
    for e in forged:
        game = ruleset().apply(game, e).state
    assert game.row is not None and game.row.face_up[1] == chosen
    # ...but once the key is revealed, the replay with every content given back derives the order and refuses it.
    game = ruleset().initial_state(p.setup)
    with pytest.raises(Rejection, match="the card sealed as 'row.2' is not the one its shuffle puts there"):
        for e in _with_revealed_contents(forged):
            game = ruleset().apply(game, e).state
    game = ruleset().initial_state(p.setup)
    for e in _with_revealed_contents(honest):
        game = ruleset().apply(game, e).state
    assert p.rs.public_view(game) == p.rs.public_view(p.state)


def test_a_refill_turns_up_gaps_in_slot_order_only_while_a_tile_is_face_down() -> None:
    """One tile left face down and two gaps: the first gap gets it; the second stays empty, now and at the next refill."""
    p = Play(3, rules_version=NEW)
    row = p.state.row
    assert row is not None and row.turning == {}
    row.face_up[1] = row.face_up[3] = None
    row.unseen = 1
    hidden_row.refill(p.state)
    assert (row.turning, row.unseen) == ({"row.6": 1}, 0)
    hidden_row.refill(p.state)
    assert (row.turning, row.unseen, row.face_up[3]) == ({"row.6": 1}, 0, None)


def test_each_tile_turned_up_is_sealed_to_the_rows_own_seat() -> None:
    """The seat's name is written into every seal of a rules-version-2 log: a log's seals must keep naming it."""
    p = Play(3, rules_version=NEW)
    first = p.events[1]
    assert first.kind == secrets.SEALED
    assert {k: v for k, v in first.data.items() if k != "sealed"} == {
        "key": "row.1", "deck": "row", "face": "row", "from": "top", "seat": "row"}
    assert p.state.table is not None and list(p.state.table.holdings) == ["Romans", "Greeks", "Carthaginians", "row"]
