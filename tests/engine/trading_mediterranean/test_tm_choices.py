"""Rules version 2: the players choose what the seed lets them choose. A calamity victim names its losses (a prompt
whose deadline default is version 1's fixed order), a Bank's owner its use; losing the warehouse cube discards the
cards warehoused. Each through the orders in words, with exact results; the export replays and verifies."""
from __future__ import annotations

from functools import cache

import pytest

from engine.events import Event, Rejection
from engine.ruleset import REACTION, Prompt
from engine.tabletop import hands
from engine.trading_mediterranean import flow
from engine.trading_mediterranean import game as gm
from engine.verify import verify
from tests.engine.trading_mediterranean.tm_players import play
from tests.engine.trading_mediterranean.tm_table import RULES, Table, replay

AT = "2026-11-01T12:00:00+00:00"
FOUR = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan"}
FAMINE_ON_BOB = ("Famine strikes Bob: Bob names 1 population cube(s) to lose, 'lose <places and buildings>' (its "
                 "cubes: city 1, farm:salt 1, farm:timber 1, farm:wool 1, industry 1, warehouse 1); at the deadline: "
                 "'lose city'")


@cache
def first_calamity() -> Table:
    t = Table(FOUR, "game 4", rules_version=2)
    play(t, FOUR, until=lambda g: g.loss_due is not None)
    return t


def test_the_victim_is_asked_with_the_fixed_order_as_its_deadline_default() -> None:
    g = first_calamity().state
    assert (g.turn, g.phase, g.loss_due) == (2, gm.CALAMITY, ("Bob", "Famine"))
    assert RULES.prompts(g) == [Prompt("Bob", REACTION, FAMINE_ON_BOB, ("lose city",), "lose city", 4 / 60)]
    assert RULES.private_view(g, "Bob")["choices"] == ["lose city"]
    assert RULES.private_view(g, "Ann")["choices"] == []


def test_a_victim_names_its_own_losses_and_a_wrong_line_is_refused_with_what_would_be_right() -> None:
    t = Table(FOUR, "game 4", rules_version=2)
    play(t, FOUR, until=lambda g: g.loss_due is not None)
    assert t.order("ann", "lose city") == ["no calamity asks Ann to name its losses; Bob names its losses to Famine"]
    assert t.order("bob", "lose city, farm:salt") == ["Famine takes 1 population cube(s): name 1 places, not 2"]
    assert t.order("bob", "lose moon") == [
        "'lose moon': 'moon' is neither a place of Bob's cubes (city, farm:salt, farm:timber, farm:wool, industry, "
        "warehouse) nor one of its buildings (none)"]
    assert t.order("bob", "lose farm:ore") == [
        "Bob has no cube on 'farm:ore' to lose; its cubes are city 1, farm:salt 1, farm:timber 1, farm:wool 1, "
        "industry 1, warehouse 1"]
    vp = t.state.civs["Bob"].vp
    assert t.state.civs["Bob"].population() == 6  # nothing half-applied
    assert t.order("bob", "lose salt farm") == []
    assert t.state.civs["Bob"].cubes == {"farm:timber": 1, "farm:wool": 1, "industry": 1, "warehouse": 1, "city": 1}
    assert t.state.civs["Bob"].vp == vp - 2  # Famine's 2 VP
    assert "Famine strikes Bob: Bob loses farm:salt" in t.messages
    assert t.state.loss_due == ("Dan", "Burning")  # the next calamity's victim is asked in turn
    again = replay(t.export())
    assert again.head == t.folded.head and RULES.public_view(again.state) == RULES.public_view(t.state)


def test_losing_the_warehouse_cube_discards_the_warehoused_cards_revealed() -> None:
    t = Table(FOUR, "game 4", rules_version=2)
    play(t, FOUR, until=lambda g: g.turn == 2 and g.phase == gm.TRADING)
    for seat, user in FOUR.items():  # each warehouses its first three cards
        keep = [h.id for h in t.state.table.holdings[seat].cards if not RULES.rules.card(str(h.card))[1].no_warehouse]
        assert t.order(user, f"warehouse {', '.join(keep[:3])}\ndone") == []
    play(t, FOUR, until=lambda g: g.loss_due is not None)
    g = t.state
    assert g.loss_due == ("Bob", "Famine") and g.store.stored["Bob"] == ["salt.8", "timber.8", "wool.8"]
    discards = {d: list(g.table.decks[d].discard) for d in ("salt", "timber", "wool")}
    assert t.order("bob", "lose warehouse") == []
    g = t.state
    assert g.civs["Bob"].cubes == {"farm:salt": 1, "farm:timber": 1, "farm:wool": 1, "industry": 1, "city": 1}
    assert g.table.holdings["Bob"].cards == [] and g.store.stored["Bob"] == []
    assert {d: g.table.decks[d].discard[len(discards[d]):] for d in discards} == {
        "salt": ["salt venus"], "timber": ["timber democracy"], "wool": ["wool poverty"]}
    assert [m for m in t.messages if "warehouse" in m and "Bob" in m][-2:] == [
        "Bob's warehouse is lost: salt.8, timber.8, wool.8 are revealed and discarded",
        "Bob discards salt venus, timber democracy, wool poverty from its lost warehouse"]
    assert [h.id for h in g.table.holdings["Dan"].cards] == ["salt.6", "timber.6", "wool.6"]  # others keep theirs
    play(t, FOUR)
    assert t.state.phase == gm.OVER
    exported = t.export()
    assert replay(exported).head == t.folded.head
    assert [str(f) for f in verify(RULES, exported, {}, beacon_check=lambda data: None).findings] == []


def spending(cards: dict[str, list[str]], bank: set[str]) -> gm.Game:
    """A version-2 game at the reveal of the spent cards: each seat's cards, revealed, a Bank for ``bank``."""
    g = RULES.initial_state({"gm": "gm", "players": FOUR, "randomness": "drand", "rules_version": 2})
    g.order, g.turn, g.phase = list(FOUR), 1, gm.SPENDING
    for seat, held in cards.items():
        g.table.holdings[seat].cards = [hands.Held(f"{seat}.{i}", c.split()[0], c.split()[0], card=c, revealed=True)
                                        for i, c in enumerate(held)]
        g.spending[seat] = [h.id for h in g.table.holdings[seat].cards]
    for seat in bank:
        g.civs[seat].cubes["bank"] = 1
    return g


def post(g: gm.Game, user: str, line: str, seq: int) -> gm.Game:
    (p,) = RULES.read_post(g, user, line)
    assert p.error is None and p.kind is not None, p.error
    return RULES.apply(g, Event(seq, p.kind, user, p.data, at=AT, draws=(f"drand:{1000 + seq}",))).state  # type: ignore[no-any-return]


HANDS = {"Ann": ["grain prosperity", "grain poverty", "salt poverty"], "Bob": ["grain prosperity", "wool poverty"],
         "Cat": ["ore prosperity"], "Dan": []}


@pytest.mark.parametrize(("line", "vp", "happiness"), [
    ("bank poverty", 5 + 1, 0),  # poverty ignored, prosperity once
    ("bank prosperity", 5 + 3, -2),  # prosperity tripled, both poverty cards felt: also the deadline's default
])
def test_a_bank_owner_chooses_its_use_when_both_prosperity_and_poverty_are_spent(line: str, vp: int, happiness: int) -> None:
    g = spending(HANDS, {"Ann", "Cat"})
    flow.progress(RULES.rules, g, Event(1, "check", "gm", at=AT, draws=("drand:1001",)))
    assert (g.phase, g.bank) == (gm.SPENDING, {"Ann": None})  # Cat spent prosperity alone: tripled, not asked
    assert RULES.prompts(g) == [Prompt("Ann", REACTION, "Ann's Bank: triple prosperity or ignore poverty this turn?",
                                       ("bank prosperity", "bank poverty"), "bank prosperity", 24.0)]
    with pytest.raises(Rejection, match="no Bank's use is asked of Bob now"):
        post(g, "bob", "bank poverty", 2)
    assert RULES.read_post(g, "ann", "bank riches")[0].error == (
        "'bank riches': not understood; now: a Bank's owner: bank prosperity, bank poverty")
    after = post(g, "ann", line, 2)
    assert after.phase == gm.PURCHASING and after.bank == {}
    assert (after.civs["Ann"].vp, after.civs["Ann"].happiness, after.civs["Ann"].money) == (vp, happiness, 4)
    assert (after.civs["Cat"].vp, after.civs["Bob"].vp, after.civs["Bob"].happiness) == (5 + 3, 5 + 1, -1)


def test_a_campaign_without_rules_version_keeps_the_fixed_choices() -> None:
    base = {"gm": "gm", "players": FOUR, "randomness": "drand"}
    assert RULES.initial_state(base).rules_version == 1 and RULES.rules_version == 2
    g = spending(HANDS, {"Ann"})
    g.rules_version = 1
    flow.progress(RULES.rules, g, Event(1, "check", "gm", at=AT, draws=("drand:1001",)))
    assert g.phase == gm.PURCHASING and (g.civs["Ann"].vp, g.civs["Ann"].happiness) == (5 + 3, -2)
    with pytest.raises(Rejection, match="rules_version 3 is not one of this game's: 1 to 2"):
        RULES.initial_state({**base, "rules_version": 3})
