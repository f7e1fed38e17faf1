"""A tile's ability as data: its effect, amount and item checked when the data is read, and a GM's edited tile
reusing an effect with other numbers, played."""
from __future__ import annotations

from typing import Any

import pytest

from tests.engine.mare_nostrum_empires.mne_board import raw, rebuild, rules
from tests.engine.mare_nostrum_empires.mne_play import Play, quick_commerce

from engine.events import Rejection
from engine.mare_nostrum_empires.ability_data import EFFECTS, Ability
from engine.mare_nostrum_empires.rules_data import RulesError
from engine.mare_nostrum_empires.ruleset import MareNostrumEmpires


def _edit(name: str, **fields: Any) -> dict[str, Any]:
    data = raw()
    tile = next(t for kind in ("hero", "wonder") for t in data[kind] if t["name"] == name)
    for key in ("effect", "amount", "item"):
        tile.pop(key, None)
    tile.update(fields)
    return data


def test_every_shipped_tile_has_an_ability_and_the_effects_it_uses_are_all_played() -> None:
    tiles = rules().tiles
    assert len(tiles) == 19 and all(t.ability is not None for t in tiles.values())
    assert tiles["Pericles"].ability == Ability("price", 2, "influence")
    assert tiles["Spartacus"].ability == Ability("good_bonus", 1, "gladiators")
    assert tiles["Homer"].ability == Ability("wins_ties")
    assert sorted({t.ability.effect for t in tiles.values() if t.ability}) == sorted(EFFECTS)


def test_an_unknown_effect_is_refused_with_the_known_ones() -> None:
    with pytest.raises(RulesError, match="hero 'Homer': effect 'charm' is not one of legion_range, trireme_range"):
        rebuild(_edit("Homer", effect="charm"))


def test_an_amount_out_of_range_or_missing_is_refused() -> None:
    with pytest.raises(RulesError, match="wonder 'Mausoleum': effect 'keep_taxes' needs an amount of 1 to 20, not 0"):
        rebuild(_edit("Mausoleum", effect="keep_taxes", amount=0))
    with pytest.raises(RulesError, match="hero 'Caesar': effect 'legion_range' needs an amount of 1 to 20, not 0"):
        rebuild(_edit("Caesar", effect="legion_range"))


def test_an_item_of_the_wrong_kind_or_where_none_is_taken_is_refused() -> None:
    with pytest.raises(RulesError, match="hero 'Spartacus': effect 'good_bonus' needs an item, a resource of sheep, "
                                         "perfume, .*, not 'tax'"):
        rebuild(_edit("Spartacus", effect="good_bonus", item="tax", amount=1))
    with pytest.raises(RulesError, match="hero 'Homer': effect 'wins_ties' takes no item, and 'politics' is given"):
        rebuild(_edit("Homer", effect="wins_ties", item="politics"))


def test_a_tile_without_an_effect_is_only_shown() -> None:
    edited = rebuild(_edit("Homer"))
    assert edited.tiles["Homer"].ability is None and edited.tiles["Homer"].text == rules().tiles["Homer"].text


def test_a_gms_edited_tile_reuses_an_effect_with_other_numbers() -> None:
    # Pericles edited to make legions cost 1 instead of influence 2.
    edited = MareNostrumEmpires(rebuild(_edit("Pericles", effect="price", item="legion", amount=1)))
    p = Play(3, rules_version=2, rs=edited)
    quick_commerce(p)
    p.post("bob", "next Greeks")
    p.post("bob", "buy legion in Attica with oil")
    assert p.state.board.provinces["Attica"].legions == {"Greeks": 2}
    with pytest.raises(Rejection, match="this costs 3 different goods \\(or 3 taxes\\), and 2 goods are named"):
        p.post("bob", "buy influence in Epirus with oil, timber")
