"""The Ruleset adapter: orders in words, parked rolls bound to the chance book, reactions, standing orders."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import secrets
from engine.events import Event, Rejection
from engine.mediterranean_empires import hand
from engine.mediterranean_empires.hand import PICK_KEY_CONTENT
from engine.mediterranean_empires.ruleset import MediterraneanEmpires
from engine.rulesets import load_ruleset

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module")
def game() -> MediterraneanEmpires:
    return load_ruleset("mediterranean-empires", DATA)  # type: ignore[return-value]


class Play:
    def __init__(self, game: MediterraneanEmpires) -> None:
        self.game = game
        self.seq = 1
        self.state = game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}, "randomness": "commit-reveal"})
        self.messages: list[str] = []

    def event(self, kind: str, data: dict) -> None:
        self.seq += 1
        t = self.game.apply(self.state, Event(self.seq, kind, "x", data))
        self.state = t.state
        self.messages.extend(t.messages)

    def order(self, seat: str, text: str) -> None:
        self.event("order", {"seat": seat, "text": text})

    def roll(self, *values: int) -> None:
        """Records the value of the roll the game waits for (as the commit-reveal source would)."""
        pending = self.state.action.pending
        assert pending.kind == "roll", pending
        self.event("random.recorded", {"numbers": {pending.label: list(values)}})


SALT = "5a" * 16


def sealed_event(seq: int, kind: str, data: dict, content: dict, salt: str = SALT) -> Event:
    """An event as the shell appends a sealed one: the digest in the data, the content in ``secret``."""
    return Event(seq, kind, "x", {**data, "sealed": secrets.digest(content, salt)},
                 secret={"content": content, "salt": salt})


def test_a_draw_waits_for_its_roll_then_for_the_bots_seal_of_the_marker(game) -> None:
    p = Play(game)
    assert game.to_act(p.state) == ["Player A"]
    props = game.read_post(p.state, "ann", "draw")
    assert props[0].secret == PICK_KEY_CONTENT  # the first draw carries the bot's pick key under seal
    with pytest.raises(Rejection, match="sealed pick key"):
        game.apply(p.state, Event(2, "order", "x", {"seat": "Player A", "text": "draw"}))
    p.seq += 1
    p.state = game.apply(p.state, sealed_event(p.seq, "order", {"seat": "Player A", "text": "draw"}, PICK_KEY_CONTENT)).state
    assert p.state.action is not None and p.state.pick_key["salt"] == SALT
    need = game.needs(p.state)
    assert need and need[0].source == "commit-reveal"
    pool = hand.pool(p.state)
    label = p.state.action.pending.label.removesuffix(".pick")
    # A public value whose pick is a marker kept in hand (the Plague, the Pope, the Crusade are shown and act).
    value = next(v for v in range(1, 200) if pool[hand.pick_index(SALT, label, [v], len(pool))] not in hand.IMMEDIATE)
    p.roll(value)
    # The public value is in; the bot's fold knows the pick key and derives the marker it must seal.
    seal = [n for n in game.needs(p.state) if n.source == "seal"]
    assert len(seal) == 1 and p.state.action.pending.kind == "seal"
    spec = json.loads(seal[0].content)
    assert seal[0].key == label and spec["public"] == {}
    index = hand.pick_index(SALT, label, [value], len(pool))
    assert spec["content"] == {"marker": pool[index], "pick": label}
    wrong = next(m for m in pool if m != pool[index] and m not in hand.IMMEDIATE)
    with pytest.raises(Rejection, match="not the one the pick key"):
        game.apply(p.state, sealed_event(p.seq + 1, "secret.sealed", {"key": label}, {"marker": wrong, "pick": label}))
    p.seq += 1
    t = game.apply(p.state, sealed_event(p.seq, "secret.sealed", {"key": label, **spec["public"]}, spec["content"],
                                         "6b" * 16))
    p.state = t.state
    assert p.state.action is None
    assert game.private_view(p.state, "Player A")["markers"] == [pool[index]]
    assert t.private == {"Player A": (f"You draw {pool[index]} (sealed as {t.state.sides['A'].hand[0]['digest'][:12]}…).",)}
    assert game.public_view(p.state)["pool"] == len(pool) - 1
    assert game.to_act(p.state) == ["Player B"]
    with pytest.raises(Rejection, match="not your pick"):
        game.apply(p.state, Event(99, "order", "x", {"seat": "Player A", "text": "draw"}))


def test_orders_are_read_per_line_with_precise_refusals(game) -> None:
    p = Play(game)
    props = game.read_post(p.state, "ann", "draw\nattempt alliance with Genoo\nrecruit 2 levies of France in Vienne\nfly")
    assert props[0].kind == "order" and props[0].data["order"] == {"order": "draw"}
    assert "did you mean Genoa" in props[1].error
    assert props[2].data["order"]["count"] == 2 and props[2].data["order"]["kind"] == "levy"
    assert props[3].data["order"] == {"order": "answer", "answer": "fly"}
    with pytest.raises(Rejection, match="'fly' is not an order"):
        game.apply(p.state, Event(2, "order", "x", {"seat": "Player A", "order": props[3].data["order"]}))


def _to_operations(p: Play) -> None:
    st = p.state
    st.phase, st.to_move = "operations A", "A"


def test_interception_is_a_reaction_with_a_default_and_standing_orders_answer_it(game) -> None:
    p = Play(game)
    _to_operations(p)
    p.order("Player B", "never intercept")
    p.order("Player A", "activate France in Montpellier")
    p.roll(3, 4)
    assert p.state.force.ops == 7
    # Aragon holds Rosselló with units: entering it is an interception chance, which the standing order declines.
    p.order("Player A", "move to Rosselló")
    assert p.state.action is None and p.state.force.area == "Rosselló"
    p.order("Player A", "attack")
    prompts = game.prompts(p.state)
    assert prompts[0].seat == "Player B" and prompts[0].mode == "reaction" and prompts[0].on_timeout == "fight"
    p.order("Player B", "fight")
    assert p.state.action.pending.kind == "roll"  # the initiative rolls follow


def test_the_seats_command_their_powers(game) -> None:
    p = Play(game)
    seats = {s.name: s for s in game.seats(p.state)}
    assert set(seats["Player A"].powers) == {"France", "Anjou"}
    assert set(seats["Player B"].powers) == {"Aragon", "Sicily"}
    assert seats["Player A"].player == "ann"
    pic = game.picture(p.state)
    assert len(pic.spaces) == 60 and all(s.at for s in pic.spaces) and pic.links
    assert game.private_view(p.state, "Player B")["attempts_left"] == ["alliance", "vassalage", "rebellion"]


def _sealed_marker(p: Play, side: str, seq: int, marker: str, *, known: bool) -> dict:
    """A marker in ``side``'s hand as a secret.sealed event left it: the export's fold knows only its digest."""
    content = {"marker": marker, "pick": f"p{seq}"}
    p.state.unseen.remove(marker)  # it came from the pool: the pool no longer holds it...
    hand.to_pool(p.state, marker)  # ...but it is still unseen (a sealed hand's marker), so it stays in ``unseen``
    hand.seal(p.state, side, seq, secrets.digest(content, SALT), f"p{seq}", marker if known else None)
    return {"seq": seq, "content": content, "salt": SALT}


def test_a_claimed_marker_waits_for_its_reveal_which_must_match_the_digest_and_the_claim(game) -> None:
    p = Play(game)
    p.state.phase, p.state.to_move = "political", "A"
    diplomacy = _sealed_marker(p, "A", 50, "Diplomacy", known=False)
    gold = _sealed_marker(p, "A", 51, "Gold", known=False)
    pool = hand.pool_size(p.state)
    p.order("Player A", "attempt alliance with Genoa")
    assert p.state.action.pending.kind == "marker" and p.state.action.pending.choices == ("Diplomacy",)
    assert game.needs(p.state) == [], "only the bot's fold knows which sealed marker is the Diplomacy"
    with pytest.raises(Rejection, match="Gold, is not the Diplomacy claimed"):
        game.apply(p.state, Event(90, "secret.revealed", "x", gold))
    with pytest.raises(Rejection, match="does not match the digest"):
        game.apply(p.state, Event(90, "secret.revealed", "x", {**diplomacy, "content": {"marker": "Diplomacy", "pick": "p51"}}))
    p.event("secret.revealed", diplomacy)
    assert "Player A reveals Diplomacy" in " ".join(p.messages)
    assert p.state.action.pending.kind == "roll", "the attempt goes on: Player B holds nothing, no thwart is asked"
    p.roll(6)
    assert p.state.action is None and p.state.status["Genoa"] == "ally"
    assert [e["seq"] for e in p.state.sides["A"].hand] == [51] and hand.pool_size(p.state) == pool + 1


def test_the_bots_fold_refuses_a_claim_of_a_marker_not_held_and_names_the_one_to_reveal(game) -> None:
    p = Play(game)
    p.state.phase, p.state.to_move = "political", "A"
    _sealed_marker(p, "A", 50, "Gold", known=True)
    with pytest.raises(Rejection, match="Player A holds no Diplomacy stratagem marker to play"):
        game.apply(p.state, Event(2, "order", "x", {"seat": "Player A", "text": "attempt alliance with Genoa"}))
    _sealed_marker(p, "A", 52, "Diplomacy", known=True)
    p.order("Player A", "attempt alliance with Genoa")
    assert [(n.source, n.key) for n in game.needs(p.state)] == [("secret", "52")]
    # Player B may hold a Diplomacy (public knowledge: it holds a sealed marker, and Diplomacy markers are unseen).
    p2 = Play(game)
    p2.state.phase, p2.state.to_move = "political", "A"
    _sealed_marker(p2, "A", 50, "Diplomacy", known=True)
    _sealed_marker(p2, "B", 51, "Gold", known=False)
    p2.order("Player A", "attempt alliance with Genoa")
    p2.event("secret.revealed", {"seq": 50, "content": {"marker": "Diplomacy", "pick": "p50"}, "salt": SALT})
    assert game.prompts(p2.state)[0].seat == "Player B" and "Thwart" in game.prompts(p2.state)[0].what


def test_markers_for_the_op_roll_are_checked_at_once_then_revealed_one_by_one(game) -> None:
    p = Play(game)
    _to_operations(p)
    ma = [_sealed_marker(p, "A", 60, "Military Advantage", known=True)]
    with pytest.raises(Rejection, match="holds 1 Military Advantage stratagem marker\\(s\\), not 2"):
        game.apply(p.state, Event(2, "order", "x", {"seat": "Player A",
                                                    "text": "activate France in Montpellier with two Military Advantage"}))
    ma.append(_sealed_marker(p, "A", 61, "Military Advantage", known=True))
    p.order("Player A", "activate France in Montpellier with two Military Advantage")
    for _ in range(2):
        need = game.needs(p.state)
        assert [n.source for n in need] == ["secret"], need
        p.event("secret.revealed", next(m for m in ma if str(m["seq"]) == need[0].key))
    p.roll(3, 4)
    assert p.state.force.ops == 9 and p.state.sides["A"].hand == []


def test_a_line_read_as_an_answer_is_understood_as_the_answer_it_is(game: MediterraneanEmpires) -> None:
    state = game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}})
    [proposal] = game.read_post(state, "ann", "bid 3")
    assert proposal.understood == "the answer 'bid 3'"  # it read "answer: answer bid 3"
