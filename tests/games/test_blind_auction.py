"""Blind Auction, a second game hosted through the ruleset boundary alone: sealed hands and bids, tie dice from the
chance book, a private hand. Pure engine: events built by hand and chained through engine/log's start/step."""
from __future__ import annotations

import dataclasses
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import canonical, secrets
from engine.chance import derive
from engine.events import Rejection
from engine.log import replay, start, step
from engine.rulesets import load_ruleset, register, registered
from tests.games.blind_auction import load
from tests.games.blind_auction import register as register_blind_auction
from tests.games.blind_auction.ruleset import BlindAuction
from tests import table_without_shell
from tests.table_without_shell import TableWithoutShell, beacon

PLAYERS = {"North": "ann", "South": "bob"}
RULES = BlindAuction()


def salt_of(tag: str) -> str:
    return table_without_shell.salt_of(tag, 64)  # this game's salts are the whole digest


def beacons_where(label: str, differ: bool, south_higher: bool = False) -> str:
    """The first test beacon whose dice for ``label`` differ (or are equal; or South's is higher): found, not
    hard-coded."""
    for i in range(500):
        a, b = derive.values(bytes.fromhex(beacon(str(i))), label, 2, 1, 6)
        if (a != b) == differ and (b > a or not south_higher):
            return beacon(str(i))
    raise AssertionError("no such beacon among 500")


class Table(TableWithoutShell):
    """A game played as the shell would (tests/table_without_shell.py): sealed orders keep their content and salt
    in a private store, the event carries the digest and (live) ``Event.secret``; events carry no time; the test
    serves (or only reveals) the needs when it chooses."""

    serves_after_orders = False

    def __init__(self, randomness: str = "drand", beacons: dict[str, str] | None = None, live: bool = True,
                 fixed_values: list[int] | None = None) -> None:
        super().__init__(RULES, {"ruleset": RULES.id, "gm": "gm", "players": PLAYERS, "randomness": randomness,
                                 **({"fixed_values": fixed_values} if fixed_values else {})}, beacons, live=live)

    def order_salt(self, seq: int) -> str:
        return salt_of(str(seq))

    def reveal(self) -> None:
        """Reveal the contents due, and nothing else (a beacon asked for stays unrecorded)."""
        for need in RULES.needs(self.folded.state):
            if need.source == "secret":
                self.reveal_due(int(need.key))


def faces(state: Any, messages: tuple[str, ...] = ()) -> str:
    """Everything the shell may show everyone, as one canonical text."""
    return canonical.dumps({
        "view": RULES.public_view(state), "status": RULES.status(state), "picture": dataclasses.asdict(RULES.picture(state)),
        "summary": dataclasses.asdict(RULES.summary(state)), "prompts": [dataclasses.asdict(p) for p in RULES.prompts(state)],
        "needs": [dataclasses.asdict(n) for n in RULES.needs(state)], "ledger": RULES.ledger(state), "messages": list(messages),
    })


def play_whole_game(table: Table, south_round_one: str = "bid 8") -> None:
    table.order("ann", "hand 9 5 2")
    table.order("bob", "hand 3 5 8")
    for north, south in (("bid 9", south_round_one), ("bid 5", "bid 5"), ("bid 2", "bid 3")):
        table.order("ann", north)
        table.order("bob", south)
        table.serve()


def test_a_whole_game_with_the_secrets_folded() -> None:
    table = Table()
    table.order("ann", "hand 9 5 2")
    assert RULES.private_view(table.state, "North")["hand"] == [2, 5, 9]
    assert RULES.to_act(table.state) == ["South"]
    table.order("bob", "hand 3 5 8")
    assert (RULES.summary(table.state).phase, RULES.to_act(table.state)) == ("bids", ["North", "South"])
    table.order("ann", "bid 9")
    assert RULES.private_view(table.state, "North") == {"seat": "North", "hand": [2, 5, 9], "remaining": [2, 5], "bid": 9}
    assert RULES.needs(table.state) == []  # South's bid is not in: nothing is revealed yet
    table.order("bob", "bid 8")
    assert [n.key for n in RULES.needs(table.state)] == ["4", "5"]
    table.serve()
    assert RULES.summary(table.state).turn_label == "Round 2 of 3"
    assert RULES.public_view(table.state)["seats"]["North"]["points"] == 1
    table.order("ann", "bid 5")
    table.order("bob", "bid 5")
    table.reveal()  # the second reveal binds the tie dice to the round its event offers
    binding = table.state.book.bindings[0]
    assert (binding.label, binding.where) == ("round-2-tie", [f"drand:{1000 + table.events[-1].seq}"])
    assert [(n.source, n.key) for n in RULES.needs(table.state)] == [("drand", binding.where[0][6:])]
    tie = table.beacons[binding.where[0][6:]] = beacons_where("round-2-tie", differ=True)
    table.serve()
    # The tie dice follow engine/chance/derive.py's rule from the recorded beacon's randomness.
    dice = derive.values(bytes.fromhex(tie), "round-2-tie", 2, 1, 6)
    tie_winner = "North" if dice[0] > dice[1] else "South"
    assert (table.state.rounds[1].dice, table.state.rounds[1].winner) == ([dice], tie_winner)
    assert (RULES.ledger(table.state)[0]["values"], RULES.ledger(table.state)[0]["turn"]) == (dice, 2)
    table.order("ann", "bid 2")
    table.order("bob", "bid 3")
    table.serve()
    summary = RULES.summary(table.state)
    points = {"North": 1 + (tie_winner == "North"), "South": 1 + (tie_winner == "South")}
    assert (summary.over, summary.winner, summary.phase) == (True, max(points, key=points.__getitem__), "over")
    assert {s: v["points"] for s, v in RULES.public_view(table.state)["seats"].items()} == points
    assert RULES.public_view(table.state)["seats"]["South"]["hand"]["revealed"] == {"cards": [3, 5, 8]}
    assert RULES.needs(table.state) == [] and RULES.prompts(table.state) == []


def test_the_exported_log_without_secrets_shows_the_same_at_every_step() -> None:
    table = Table()
    play_whole_game(table)
    assert RULES.summary(table.state).over
    live = [faces(table.folded.state)]
    folded, _ = start(RULES, table.events[0])
    exported = [faces(folded.state)]
    live_states: list[Any] = []
    replayed, _ = start(RULES, table.events[0])
    replayed_live, _ = start(RULES, table.events[0])
    for event, messages in zip(table.events[1:], table.said):
        replayed_live, live_messages = step(RULES, replayed_live, event)
        replayed, public_messages = step(RULES, replayed, replace(event, secret=None))
        assert live_messages == messages
        assert faces(replayed_live.state, live_messages) == faces(replayed.state, public_messages), f"event #{event.seq}"
        live_states.append(replayed_live.state)
    assert replayed.head == table.folded.head  # the secrets are no part of the hash chain
    assert faces(replay(RULES, [replace(e, secret=None) for e in table.events]).state) == live[0] != exported[0]
    # Only the live fold knows the hands; the export's replay knows them once revealed, and no private view.
    assert RULES.private_view(replayed.state, "North")["hand"] is None
    assert RULES.private_view(live_states[0], "North")["hand"] == [2, 5, 9]


def test_no_sealed_content_is_public_before_its_reveal() -> None:
    table = Table()
    play_whole_game(table)
    replayed, _ = start(RULES, table.events[0])
    revealed: set[int] = set()
    for event, messages in zip(table.events[1:], table.said):
        replayed, _ = step(RULES, replayed, event)
        if event.kind == secrets.REVEALED:
            revealed.add(event.data["seq"])
        shown = faces(replayed.state, messages)
        for seq, kept in table.store.items():
            content = canonical.dumps(kept["content"])
            assert kept["salt"] not in shown or seq in revealed
            if seq not in revealed and seq <= event.seq:
                sealed = secrets.digest(kept["content"], kept["salt"])
                assert sealed in shown  # its digest is public from the start
                view = RULES.public_view(replayed.state)
                things = [v["hand"] for v in view["seats"].values()] + [b for r in view["played"] for b in r["bids"].values()]
                assert [t["revealed"] for t in things if t and t["seq"] == seq] == [None]
                if "cards" in kept["content"]:
                    assert content not in shown and content[1:-1] not in shown, f"hand #{seq} leaked at #{event.seq}"
    assert revealed == set(table.store)


def test_a_tampered_reveal_is_refused() -> None:
    table = Table()
    table.order("ann", "hand 9 5 2")
    table.order("bob", "hand 3 5 8")
    table.order("ann", "bid 9")
    table.order("bob", "bid 8")
    kept = table.store[4]
    for data, why in (
        ({"seq": 4, "content": {"card": 2}, "salt": kept["salt"]}, "does not match the digest"),
        ({"seq": 4, "content": kept["content"], "salt": salt_of("other")}, "does not match the digest"),
        ({"seq": 4, "content": kept["content"], "salt": "short"}, "needs its salt"),
        ({"seq": 2, **table.store[2]}, "not due yet"),
        ({"seq": 99, **table.store[2]}, "holds no sealed content"),
    ):
        with pytest.raises(Rejection, match=why):
            table.append(secrets.REVEALED, "legatus", data)
    table.serve()
    with pytest.raises(Rejection, match="holds no sealed content still to reveal"):
        table.append(secrets.REVEALED, "legatus", {"seq": 4, **kept})


def test_a_bid_not_in_the_hand_is_refused_live_and_loses_the_game_in_a_replay_without_secrets() -> None:
    table = Table()
    table.order("ann", "hand 9 5 2")
    table.order("bob", "hand 3 5 8")
    with pytest.raises(Rejection, match=r"7 is not a card you still hold: bid one of 3, 5, 8"):
        table.order("bob", "bid 7")
    table.order("ann", "bid 9")
    table.order("bob", "bid 8")
    table.serve()
    with pytest.raises(Rejection, match=r"9 is not a card you still hold: bid one of 2, 5"):
        table.order("ann", "bid 9")
    with pytest.raises(Rejection, match=r"you \(bob\) do not play North"):
        table.order("bob", "bid 5", seat="North")
    fresh = Table()
    with pytest.raises(Rejection, match="a hand is 3 different cards"):
        fresh.append("hand.sealed", "ann", {"seat": "North", "sealed": secrets.digest({"cards": [1, 1, 2]}, salt_of("x"))},
                     {"content": {"cards": [1, 1, 2]}, "salt": salt_of("x")})
    # The same game folded without the private store: South's 7 passes, and the hands' reveal judges it.
    cheat = Table(live=False, beacons={str(1000 + 11): beacons_where("round-2-tie", True, south_higher=True)})
    play_whole_game(cheat, south_round_one="bid 7")
    assert cheat.state.book.bindings[0].where == [f"drand:{1000 + 11}"]  # South wins the tie: 2 points to 1
    with pytest.raises(Rejection, match="7 is not a card you still hold"):  # with its secrets, refused at once
        replay(RULES, [replace(e, secret=cheat.store.get(e.seq)) for e in cheat.events])
    state = replay(RULES, cheat.events).state
    assert (state.seats["South"].points, state.seats["North"].points) == (2, 1)
    assert state.fouls == {"South": "bid 7, not a card it held once (hand 3, 5, 8)"}
    assert (RULES.summary(state).winner, state.outcome) == ("North", "North wins")
    assert [s.alive for s in RULES.seats(state)] == [True, False]


def test_equal_tie_dice_roll_again_with_another_label() -> None:
    table = Table()
    table.order("ann", "hand 9 5 2")
    table.order("bob", "hand 3 5 8")
    table.order("ann", "bid 5")
    table.order("bob", "bid 5")
    table.reveal()
    first = table.state.book.bindings[0]
    table.beacons[first.where[0][6:]] = beacons_where("round-1-tie", differ=False)
    table.append("beacon.recorded", "legatus", {"round": int(first.where[0][6:]), "randomness": table.beacons[first.where[0][6:]]})
    # The equal dice are rolled again at once, bound to the round the beacon's own event offers.
    again = table.state.book.bindings[1]
    assert (again.label, again.where) == ("round-1-tie-2", [f"drand:{1000 + table.events[-1].seq}"])
    table.beacons[again.where[0][6:]] = beacons_where("round-1-tie-2", differ=True)
    table.serve()
    values = derive.values(bytes.fromhex(table.beacons[again.where[0][6:]]), "round-1-tie-2", 2, 1, 6)
    dice = table.state.rounds[0].dice
    assert dice[0][0] == dice[0][1] and dice[1] == values and len(dice) == 2
    assert table.state.rounds[0].winner == ("North" if values[0] > values[1] else "South")


def test_a_scenario_says_its_tie_dice_outright_with_fixed_values() -> None:
    """The same rule as above without searching beacons: equal dice (4, 4) roll again, then 2 against 6."""
    table = Table(randomness="fixed", fixed_values=[4, 4, 2, 6])
    table.order("ann", "hand 9 5 2")
    table.order("bob", "hand 3 5 8")
    table.order("ann", "bid 5")
    table.order("bob", "bid 5")
    table.reveal()
    assert table.state.rounds[0].dice == [[4, 4], [2, 6]]
    assert table.state.rounds[0].winner == "South"
    assert [(b.label, b.where) for b in table.state.book.bindings] == [
        ("round-1-tie", ["fixed:0", "fixed:1"]), ("round-1-tie-2", ["fixed:2", "fixed:3"])]
    assert RULES.needs(table.state) == []


def test_verify_never_passes_a_campaign_on_values_given_in_advance() -> None:
    """Attacker: an operator who writes a log on fixed values (its dice chosen before any binding) and offers it as a
    campaign: every check of the values passes, since they are the log's own, so the source itself is the finding."""
    from engine.verify import verify

    table = Table(randomness="fixed", fixed_values=[6, 1])
    play_whole_game(table)
    result = verify(RULES, table.events, {})
    assert [str(f) for f in result.findings if f.purpose == "randomness"] == [
        "event #1: randomness: the campaign draws from 'fixed', values known before they were bound (a source for "
        "scenario tests): not verifiable"]
    assert not result.verified
    honest = Table()
    play_whole_game(honest)
    assert [f for f in verify(RULES, honest.events, {}).findings if f.purpose == "randomness"] == []


def test_a_revealed_outcome_is_never_taken_back() -> None:
    """Reveals are public facts: the bids before them cannot be undone (a GM could redraw the tie die), and a void
    that would orphan a recorded reveal is refused with its reason. The bound label stays bound."""
    table = Table()
    table.order("ann", "hand 9 5 2")
    table.order("bob", "hand 3 5 8")
    table.order("ann", "bid 5")
    table.order("bob", "bid 5")
    table.append(secrets.REVEALED, "legatus", {"seq": 4, **table.store[4]})
    table.append(secrets.REVEALED, "legatus", {"seq": 5, **table.store[5]})
    assert [b.label for b in table.state.book.bindings] == ["round-1-tie"]
    with pytest.raises(Rejection, match="only the GM"):
        table.append("gm.undo", "ann", {"target": 5})
    with pytest.raises(Rejection, match="cannot be undone: a public random value was recorded after it"):
        table.append("gm.undo", "gm", {"target": 5, "reason": "test"})
    with pytest.raises(Rejection):
        table.append("gm.void", "gm", {"target": 5, "reason": "test"})
    assert [b.label for b in table.state.book.bindings] == ["round-1-tie"]
    table.serve()
    assert table.state.rounds[0].winner is not None
    assert faces(replay(RULES, [replace(e, secret=None) for e in table.events]).state) == faces(table.state)


def test_commit_reveal_tie_dice_and_a_concession() -> None:
    table = Table(randomness="commit-reveal")
    table.order("ann", "hand 9 5 2")
    table.order("bob", "hand 3 5 8")
    table.order("ann", "bid 5")
    table.order("bob", "bid 5")
    for seq in (4, 5):
        table.append(secrets.REVEALED, "legatus", {"seq": seq, **table.store[seq]})
    # The tie's label is mixed with the round offered when it was bound: its beacon first, then the seed's values.
    label = "round-1-tie@drand:1007"
    assert [(n.source, n.key) for n in RULES.needs(table.state)] == [("drand", "1007")]
    with pytest.raises(Rejection, match="whose beacon is not recorded yet"):
        table.append("random.recorded", "legatus", {"numbers": {label: [2, 6]}})
    table.append("beacon.recorded", "legatus", {"round": 1007, "randomness": beacon("1007"), "signature": "00"})
    assert [(n.source, n.key, n.mix) for n in RULES.needs(table.state)] == [("commit-reveal", label, beacon("1007"))]
    table.append("random.recorded", "legatus", {"numbers": {label: [2, 6]}})
    assert (table.state.rounds[0].winner, RULES.summary(table.state).turn) == ("South", 2)
    proposal = RULES.read_command(table.state, "ann", "concede", [], is_gm=False)
    table.append(proposal.kind or "", "ann", proposal.data)
    assert (RULES.summary(table.state).winner, RULES.summary(table.state).over) == ("South", True)
    # Once over, whatever is still sealed is due, so the whole game can be checked.
    assert [n.key for n in RULES.needs(table.state)] == ["2", "3"]
    table.serve()
    assert RULES.needs(table.state) == []
    with pytest.raises(Rejection, match="the game is over"):
        table.order("bob", "bid 3")


def test_orders_words_and_commands() -> None:
    state = RULES.initial_state({"players": PLAYERS})
    answers = {p.text: p for p in RULES.read_post(state, "ann", "hand 9 2 5\npass\nbid 12\nhand 2 2 3\nraise 4")}
    assert answers["hand 9 2 5"].secret == {"cards": [2, 5, 9]} and answers["hand 9 2 5"].data == {"seat": "North"}
    assert "9" not in answers["hand 9 2 5"].understood  # the receipt may be public: it names no card
    assert "there is no passing" in (answers["pass"].error or "")
    assert "'bid 12': a bid is one card from 1 to 9" in (answers["bid 12"].error or "")
    assert "'hand 2 2 3': a hand is 3 different cards" in (answers["hand 2 2 3"].error or "")
    assert "'raise 4' is not understood" in (answers["raise 4"].error or "")
    assert "hold no seat" in (RULES.read_post(state, "eve", "bid 5")[0].error or "")
    assert "only the GM" in (RULES.read_command(state, "ann", "concede", ["South"], is_gm=False).error or "")
    assert RULES.read_command(state, "gm", "concede", ["sou"], is_gm=True).data == {"seat": "South"}
    assert "unknown seat" in (RULES.resolve("seat", "East").error or "")
    assert [c.usage() for c in RULES.commands()] == ["/concede [<seat>]"]
    assert RULES.names("seat") == ["North", "South"]
    with pytest.raises(Rejection, match="unknown seat"):
        RULES.initial_state({"players": {"East": "x"}})
    with pytest.raises(Rejection, match="unknown randomness"):
        RULES.initial_state({"players": PLAYERS, "randomness": "coin"})


def test_a_game_registers_without_editing_the_registry() -> None:
    register_blind_auction()
    register_blind_auction()  # the same loader again is harmless
    assert {"blind-auction", "mare-nostrum"} <= set(registered())
    assert isinstance(load_ruleset("blind-auction", Path("data")), BlindAuction)
    with pytest.raises(ValueError, match="already registered"):
        register("blind-auction", lambda data_dir: load(data_dir))
    with pytest.raises(KeyError, match="unknown ruleset 'nope'"):
        load_ruleset("nope", Path("data"))
