"""The game's end reveals every legendary good: the deck key and each card still sealed, including a card owed by
the very event that ends the game (dealt in that event's fold, sealed by the bot only after the end)."""
from __future__ import annotations

from typing import Any

from engine.events import Event
from engine.mare_nostrum_empires.game import OVER, Game
from tests.engine.mare_nostrum_empires.mne_play import Play
from tests.engine.mare_nostrum_empires.test_mne_legendary import GOOD, to_round_two


def _craft(state: Game) -> None:
    """Round 2's Commerce, the Egyptians holding legendary.1 face down: the Greeks are owed a legendary good (as a
    pillage of a legendary city owes one) and the Romans have built the Pyramids, so the next event both deals the
    Greeks' good (its seal, the bot's, comes after) and ends the game."""
    state.legendary_rolls.append(("Greeks", -1))
    state.board.screens["Romans"].pyramids = True


def test_a_good_dealt_by_the_event_that_ends_the_game_is_revealed_after_its_seal() -> None:
    p = to_round_two()
    _craft(p.state)
    p.post("cat", "token II 2")
    assert p.state.phase == OVER and p.state.winners == [("Romans", "have built the Pyramids")]
    dealt = next(e for e in p.events if e.kind == "secret.sealed" and e.data.get("key") == "legendary.2")
    over = [e.seq for e in p.events if e.kind == "order" and e.data["order"].get("kind") == "token"][-1]
    assert dealt.seq > over and dealt.data["seat"] == "Greeks"  # sealed after the end
    table = p.state.table
    assert table is not None
    cards = {h.id: (h.card, h.revealed) for hold in table.holdings.values() for h in hold.cards if h.deck == "legendary"}
    greeks = cards["legendary.2"][0]
    assert greeks is not None
    assert cards == {"legendary.1": (GOOD, True), "legendary.2": (greeks, True)}
    assert table.key_revealed and table.due == [] and table.sealing == [] and table.queue == []
    assert [n for n in p.rs.needs(p.state) if n.source in ("secret", "seal")] == []
    revealed = [e for e in p.events if e.kind == "secret.revealed" and e.data["seq"] == dealt.seq]
    assert len(revealed) == 1 and revealed[0].data["content"] == {"card": greeks, "deck": "legendary",
                                                                   "draw": "legendary.2"}
    assert p.said[-1] == f"Card legendary.2 is revealed: {greeks} (it matches digest {dealt.data['sealed'][:12]}…)."
    # The export's fold (the same crafted state at the same point): nothing is left sealed; given every revealed
    # content back (as `verify` replays it), each card sealed is the one its shuffle deals, the same public state.
    exported = _refold(p, over, {})
    assert exported.table is not None
    assert all(h.revealed for hold in exported.table.holdings.values() for h in hold.cards)
    contents = {int(e.data["seq"]): {"content": e.data["content"], "salt": e.data["salt"]}
                for e in p.events if e.kind == "secret.revealed"}
    with_secrets = _refold(p, over, contents)
    assert p.rs.public_view(with_secrets) == p.rs.public_view(exported) == p.rs.public_view(p.state)


def _refold(p: Play, crafted_before: int, contents: dict[int, dict[str, Any]]) -> Game:
    state = p.rs.initial_state(p.setup)
    for e in p.events:
        if e.seq == crafted_before:
            _craft(state)
        state = p.rs.apply(state, Event(e.seq, e.kind, e.actor, e.data, secret=contents.get(e.seq))).state
    return state
