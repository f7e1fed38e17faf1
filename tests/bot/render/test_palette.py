"""Nation styles: colour-blind safe colours, and patterns, markers, dashes and tags that differ without colour."""
from __future__ import annotations

from pathlib import Path

from bot.render.palette import (
    INDEPENDENT, INDEPENDENT_FILL, MIN_DISTANCE, OKABE_ITO, SEA_FILL, hex_to_rgb, min_distance, seat_styles, rgb_to_hex,
)
from engine.rulesets import load_ruleset

DATA = Path(__file__).resolve().parents[3] / "data"


def mare_nostrum_nations():  # type: ignore[no-untyped-def]
    return load_ruleset("mare-nostrum", DATA).rules.nations  # type: ignore[attr-defined]


def test_the_mare_nostrum_palette_stays_apart_for_every_kind_of_colour_vision() -> None:
    styles = seat_styles(mare_nostrum_nations())
    fills = [s.fill for name, s in styles.items() if name != INDEPENDENT]
    distance, vision = min_distance([*fills, INDEPENDENT_FILL, SEA_FILL])
    assert distance >= MIN_DISTANCE, f"two colours are only {distance:.1f} apart under {vision}"
    assert all(fill in OKABE_ITO.values() or rgb_to_hex(fill) in _data_colours() for fill in fills)


def _data_colours() -> set[str]:
    return {n.colour.lower() for n in mare_nostrum_nations().values()}


def test_each_nation_keeps_a_colour_near_its_own_when_the_data_colours_clash() -> None:
    # Two greens and a near-duplicate orange: confusable for deuteranopes, so the set is replaced as a whole.
    data = {"Reds": {"colour": "#d95f02"}, "Greens": {"colour": "#1b9e77"}, "Olives": {"colour": "#66a61e"},
            "Blues": {"colour": "#1f78b4"}}
    assert min_distance([hex_to_rgb(d["colour"]) for d in data.values()])[0] < MIN_DISTANCE
    styles = seat_styles(data)
    assert rgb_to_hex(styles["Reds"].fill) == "#d55e00"  # vermillion
    assert rgb_to_hex(styles["Greens"].fill) == "#009e73"  # bluish green
    assert rgb_to_hex(styles["Blues"].fill) == "#0072b2"  # blue
    assert min_distance(s.fill for s in styles.values())[0] >= MIN_DISTANCE


def test_safe_data_colours_are_kept_as_written() -> None:
    data = {"A": {"colour": "#0072B2"}, "B": {"colour": "#E69F00"}, "C": {"colour": "#CC79A7"}}
    styles = seat_styles(data)
    assert [rgb_to_hex(styles[n].fill) for n in "ABC"] == ["#0072b2", "#e69f00", "#cc79a7"]


def test_nations_differ_in_everything_but_colour_too() -> None:
    styles = seat_styles(mare_nostrum_nations())
    nations = [s for name, s in styles.items() if name != INDEPENDENT]
    for attribute in ("pattern", "marker", "dash", "tag", "fill"):
        values = [getattr(s, attribute) for s in nations]
        assert len(set(values)) == len(values), attribute
    independent = styles[INDEPENDENT]
    assert independent.pattern not in {s.pattern for s in nations}
    assert independent.fill not in {s.fill for s in nations}
    assert [s.tag for s in nations] == ["CAR", "GAU", "MAC", "PTO", "ROM", "SEL"]


def test_styles_are_deterministic_and_work_from_names_alone() -> None:
    nations = mare_nostrum_nations()
    assert seat_styles(nations) == seat_styles(dict(nations))
    by_name = seat_styles(["Romans", "Gauls", "Romani"])
    assert by_name == seat_styles(["Romans", "Gauls", "Romani"])
    assert len({s.tag for s in by_name.values()}) == 4
    many = seat_styles([f"Nation {i}" for i in range(12)])
    assert len({s.fill for s in many.values()}) >= 11  # past the palette, patterns and markers carry on


def test_a_broken_colour_in_the_data_does_not_break_the_map() -> None:
    styles = seat_styles({"A": {"colour": "not a colour"}, "B": {}})
    assert styles["A"].fill != styles["B"].fill
