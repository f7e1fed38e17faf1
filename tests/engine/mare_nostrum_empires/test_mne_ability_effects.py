"""Each Hero's and Wonder's effect read exactly where a phase asks for it: with and without the tile, at both ends of
each number (a price never above its base, a range never below 1, an offer never below 1), and none of them in a
campaign of rules version 1."""
from __future__ import annotations

import dataclasses

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.mare_nostrum_empires import abilities
from engine.mare_nostrum_empires.abilities import Side
from engine.mare_nostrum_empires.rules_version import ABILITIES
from engine.mare_nostrum_empires.state import Board


def played(**tiles: list[str]) -> Board:
    """A 3-player board of the rules version that plays abilities, each empire holding its national hero and
    ``tiles``."""
    b = board()
    b.rules_version = ABILITIES
    for empire, more in tiles.items():
        b.screens[empire].tiles += more
    return b


def test_version_one_plays_no_ability_and_an_empire_without_a_screen_holds_none() -> None:
    b = played()
    assert [a.effect for a in abilities.held(rules(), b, "Romans", "legion_range")] == ["legion_range"]
    assert abilities.held(rules(), b, "Egyptians", "legion_range") == []
    b.rules_version = ABILITIES - 1
    assert abilities.held(rules(), b, "Romans", "legion_range") == []
    assert abilities.legion_range(rules(), b, "Romans") == 1


def test_held_filters_by_effect_and_item_and_skips_unknown_tiles() -> None:
    b = played(Greeks=["Temple of Artemis", "No Such Tile"])
    assert [a.amount for a in abilities.held(rules(), b, "Greeks", "price")] == [2, 4]
    assert [a.amount for a in abilities.held(rules(), b, "Greeks", "price", "temple")] == [4]
    assert abilities.held(rules(), b, "Greeks", "price", "legion") == []
    assert abilities.has(rules(), b, "Greeks", "price", "influence") is True
    assert abilities.has(rules(), b, "Greeks", "keep_taxes") is False


@pytest.mark.parametrize(("item", "base", "paid"), [("influence", 3, 2), ("influence", 2, 2), ("influence", 1, 1),
                                                    ("temple", 5, 4), ("temple", 3, 3), ("legion", 3, 3)])
def test_a_price_is_the_cheaper_of_the_base_and_the_tiles(item: str, base: int, paid: int) -> None:
    b = played(Greeks=["Temple of Artemis"])
    assert abilities.price(rules(), b, "Greeks", item, base) == paid
    assert abilities.price(rules(), b, "Romans", item, base) == base


@pytest.mark.parametrize(("base", "kept"), [(0, 3), (2, 3), (3, 3), (4, 4)])
def test_the_mausoleum_keeps_at_least_three_taxes(base: int, kept: int) -> None:
    b = played(Romans=["Mausoleum"])
    assert abilities.keep_taxes(rules(), b, "Romans", base) == kept
    assert abilities.keep_taxes(rules(), b, "Greeks", base) == base


def test_the_lighthouse_reaches_every_sea_touching_a_coast_of_its_triremes_seas() -> None:
    b = played(Romans=["Lighthouse of Alexandria"])
    assert abilities.trireme_seas(rules(), b, "Romans") == [
        "Fretum Siculum", "Mare Adriaticum", "Mare Ionium", "Mare Ligusticum", "Mare Sardum", "Mare Tyrrhenum"]
    assert abilities.trireme_seas(rules(), b, "Greeks") == []


def test_the_lighthouse_skips_empty_fleets_and_provinces_not_on_the_board() -> None:
    b = played(Romans=["Lighthouse of Alexandria"])
    b.triremes["Mare Tyrrhenum"]["Romans"] = 0
    assert abilities.trireme_seas(rules(), b, "Romans") == []
    # Aegyptus and Syria are not on a 3-player board: Mare Libycum, reached only through Aegyptus, is not offered.
    b.triremes["Mare Phoenicium"]["Romans"] = 1
    assert abilities.trireme_seas(rules(), b, "Romans") == ["Mare Pamphylium", "Mare Phoenicium"]


@pytest.mark.parametrize(("count", "fewest"), [(0, 0), (1, 1), (2, 1), (3, 2)])
def test_cleopatra_offers_one_fewer_but_never_below_one(count: int, fewest: int) -> None:
    b = played(Romans=["Cleopatra"])
    assert abilities.smallest_offer(rules(), b, "Romans", count) == fewest
    assert abilities.smallest_offer(rules(), b, "Greeks", count) == count


@pytest.mark.parametrize(("market", "temple", "with_hammurabi", "without"), [
    (False, False, False, False), (True, False, True, True), (False, True, True, False), (True, True, True, True)])
def test_hammurabis_temple_doubles_like_a_market(market: bool, temple: bool, with_hammurabi: bool,
                                                 without: bool) -> None:
    b = played(Romans=["Hammurabi"])
    assert abilities.goods_doubled(rules(), b, "Romans", market, temple) is with_hammurabi
    assert abilities.goods_doubled(rules(), b, "Greeks", market, temple) is without


def test_production_bonuses() -> None:
    b = played(Romans=["Spartacus", "Hanging Gardens"])
    assert abilities.good_bonus(rules(), b, "Romans", "gladiators") == 1
    assert abilities.good_bonus(rules(), b, "Romans", "grain") == 0
    assert abilities.tax_bonus(rules(), b, "Romans") == 1
    assert abilities.tax_bonus(rules(), b, "Greeks") == 0


def test_ranges_and_the_colossus_extra_die() -> None:
    b = played(Greeks=["Ulysses", "Colossus of Rhodes"])
    assert (abilities.legion_range(rules(), b, "Romans"), abilities.legion_range(rules(), b, "Greeks")) == (2, 1)
    assert (abilities.trireme_range(rules(), b, "Greeks"), abilities.trireme_range(rules(), b, "Romans")) == (2, 1)
    assert [abilities.extra_dice(rules(), b, "Greeks", at_sea, defending)
            for at_sea, defending in ((True, True), (True, False), (False, True), (False, False))] == [1, 0, 0, 0]
    assert abilities.extra_dice(rules(), b, "Romans", True, True) == 0


def test_a_fortress_adds_five_and_cancels_one_and_archimedes_makes_it_ten() -> None:
    b = played()
    assert abilities.side(rules(), b, "Romans", "Latium", 2, [3, 4], attacking=False) == Side(
        2, [3, 4], 5, 1, ("fortress: +5, one hit cancelled",))
    b.screens["Romans"].tiles.append("Archimedes")
    assert abilities.side(rules(), b, "Romans", "Latium", 2, [3, 4], attacking=True) == Side(
        2, [3, 4], 10, 1, ("fortress: +10, one hit cancelled",))
    assert abilities.side(rules(), b, "Greeks", "Latium", 2, [3, 4], attacking=True) == Side(2, [3, 4])


def test_hannibal_and_alexander_add_only_when_attacking_and_alexander_only_from_the_sea() -> None:
    b = played(Carthaginians=["Alexander"])
    assert abilities.side(rules(), b, "Carthaginians", "Sicilia", 3, [1], attacking=True, by_sea=True) == Side(
        3, [1], 5, 0, ("attacking: +2", "from the trireme chain: +3"))
    assert abilities.side(rules(), b, "Carthaginians", "Sicilia", 3, [1], attacking=True) == Side(
        3, [1], 2, 0, ("attacking: +2",))
    assert abilities.side(rules(), b, "Carthaginians", "Sicilia", 3, [1], attacking=False, by_sea=True) == Side(
        3, [1])
    assert abilities.side(rules(), b, "Greeks", "Sicilia", 3, [1], attacking=True, by_sea=True) == Side(3, [1])


@pytest.mark.parametrize(("units", "attacking", "cancels"), [(1, False, 1), (2, False, 0), (1, True, 0)])
def test_leonidas_cancels_one_more_for_a_lone_defending_legion(units: int, attacking: bool, cancels: int) -> None:
    b = played(Greeks=["Leonidas"])
    got = abilities.side(rules(), b, "Greeks", "Sicilia", units, [2], attacking=attacking)
    assert got.cancels == cancels
    assert got.why == (("one legion defending: 1 more hit cancelled",) if cancels else ())


def test_the_statue_of_zeus_cancels_one_more_in_its_holders_capital_only() -> None:
    b = played(Greeks=["Statue of Zeus"])
    b.provinces["Attica"].fortress = None
    assert abilities.side(rules(), b, "Greeks", "Attica", 2, [2], attacking=False) == Side(
        2, [2], 0, 1, ("in its capital: 1 more hit cancelled",))
    assert abilities.side(rules(), b, "Greeks", "Latium", 2, [2], attacking=True) == Side(2, [2])
    assert abilities.side(rules(), b, "Egyptians", "Attica", 2, [2], attacking=False) == Side(2, [2])


def test_at_sea_only_the_defenders_extra_dice_are_told() -> None:
    b = played()
    assert abilities.side(rules(), b, "Greeks", "Mare Aegaeum", 2, [1, 2, 3], attacking=False) == Side(
        2, [1, 2, 3], why=("1 more die defending",))
    assert abilities.side(rules(), b, "Greeks", "Mare Aegaeum", 2, [1, 2], attacking=False) == Side(2, [1, 2])
    assert abilities.side(rules(), b, "Greeks", "Mare Aegaeum", 2, [1, 2, 3], attacking=True) == Side(2, [1, 2, 3])


def test_homer_wins_a_tie_alone_and_two_tie_winners_cancel_out() -> None:
    b = played(Greeks=["Homer"])
    assert abilities.tie_winner(rules(), b, ["Romans", "Greeks"]) == "Greeks"
    assert abilities.tie_winner(rules(), b, ["Romans", "Carthaginians"]) is None
    b.screens["Romans"].tiles.append("Homer")
    assert abilities.tie_winner(rules(), b, ["Romans", "Greeks"]) is None


def test_the_oracle_names_the_political_successor_unless_two_hold_it() -> None:
    b = played(Carthaginians=["Oracle of Delphi"])
    assert abilities.tie_chooser(rules(), b, "politics") == "Carthaginians"
    assert abilities.tie_chooser(rules(), b, "military") == "Romans"
    b.screens["Romans"].tiles.append("Oracle of Delphi")
    assert abilities.tie_chooser(rules(), b, "politics") == "Greeks"


def test_a_side_is_a_value_that_cannot_be_changed_after_it_is_read() -> None:
    got = abilities.side(rules(), played(), "Romans", "Latium", 2, [3, 4], attacking=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.points = 0  # type: ignore[misc]  # the assignment a frozen dataclass must refuse
