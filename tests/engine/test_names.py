"""Name resolution: what players type for provinces, seas, nations and invader forces."""
from __future__ import annotations

import pytest

from engine.names import NameIndex, Resolution, join_or, normalise

PROVINCES = {
    "Latium": ("Rome", "Roma", "Lazio"),
    "Etruria": ("Tuscany",),
    "Apulia": ("Puglia",),
    "Campania": (),
    "Bruttium": ("Calabria",),
    "Macedonia": ("Macedon",),
    "Mauretania": (),
    "Gallia Cisalpina": ("Cisalpine Gaul",),
    "Baetica": ("Andalusia",),
}
SEAS = {
    "Mare Tyrrhenum": ("Tyrrhenian Sea", "Tyrrhenian"),
    "Mare Adriaticum": ("Adriatic Sea", "Adriatic"),
}


@pytest.fixture
def provinces() -> NameIndex:
    return NameIndex(PROVINCES, "province")


@pytest.fixture
def seas() -> NameIndex:
    return NameIndex(SEAS, "sea")


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Latium", "latium"),
        ("  LÁTIUM  ", "latium"),
        ("Épire", "epire"),
        ("Gallia-Cisalpina", "gallia cisalpina"),
        ("gallia   cisalpina", "gallia cisalpina"),
        ("Gallia. Cisalpina", "gallia cisalpina"),
        ("Rome's", "romes"),
        ("Rome\u2019s", "romes"),
        ("the Adriatic", "adriatic"),
        ("The  Tyrrhenian Sea", "tyrrhenian sea"),
        ("the", "the"),
        ("", ""),
    ],
)
def test_normalise(written: str, expected: str) -> None:
    assert normalise(written) == expected


def test_join_or() -> None:
    assert join_or([]) == ""
    assert join_or(["A"]) == "A"
    assert join_or(["A", "B"]) == "A or B"
    assert join_or(["A", "B", "C"]) == "A, B or C"


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Latium", "Latium"),
        ("latium", "Latium"),
        ("LATIUM", "Latium"),
        ("Rome", "Latium"),
        ("roma", "Latium"),
        ("Lázio", "Latium"),
        ("Tuscany", "Etruria"),
        ("Gallia Cisalpina", "Gallia Cisalpina"),
        ("gallia-cisalpina", "Gallia Cisalpina"),
        ("Cisalpine Gaul", "Gallia Cisalpina"),
        ("the Macedon", "Macedonia"),
    ],
)
def test_exact_names_and_aliases(provinces: NameIndex, typed: str, name: str) -> None:
    assert provinces.resolve(typed) == Resolution(name=name)
    assert provinces.resolve(typed).ok
    assert provinces.exact(typed) == name


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Lat", "Latium"),
        ("etru", "Etruria"),
        ("Gallia", "Gallia Cisalpina"),
        ("gal cis", "Gallia Cisalpina"),  # a beginning of each word
        ("cisalpina", "Gallia Cisalpina"),  # a beginning of a later word
        ("Calab", "Bruttium"),  # through an alias
        ("Maced", "Macedonia"),
    ],
)
def test_unique_prefix(provinces: NameIndex, typed: str, name: str) -> None:
    assert provinces.resolve(typed).name == name
    # A prefix is never an exact name.
    assert provinces.exact(typed) is None


def test_prefix_through_an_alias_of_a_sea(seas: NameIndex) -> None:
    assert seas.resolve("tyrrh").name == "Mare Tyrrhenum"
    assert seas.resolve("adriat").name == "Mare Adriaticum"
    assert seas.resolve("the Tyrrhenian sea").name == "Mare Tyrrhenum"


def test_ambiguous_prefix_lists_the_candidates() -> None:
    places = NameIndex({"Macedonia": ("Macedon",), "Mauretania": (), "Mare Tyrrhenum": ("Tyrrhenian Sea",)}, "place")
    assert places.resolve("Ma") == Resolution(
        error="'Ma' could be Macedonia, Mauretania or Mare Tyrrhenum: write more of the name"
    )


def test_ambiguous_prefix_of_three_letters(provinces: NameIndex) -> None:
    assert provinces.resolve("Mac").name == "Macedonia"
    assert provinces.resolve("Ma").error == "'Ma' could be Macedonia or Mauretania: write more of the name"


def test_a_shared_word_is_ambiguous(seas: NameIndex) -> None:
    assert seas.resolve("sea").error == "'sea' could be Mare Tyrrhenum or Mare Adriaticum: write more of the name"
    assert seas.resolve("Mare").error == "'Mare' could be Mare Tyrrhenum or Mare Adriaticum: write more of the name"


def test_a_shared_alias_is_ambiguous() -> None:
    index = NameIndex({"Numidia": ("Africa",), "Africa Proconsularis": ("Africa",)}, "province")
    assert index.resolve("africa").error == (
        "'africa' could be Numidia or Africa Proconsularis: write more of the name"
    )
    assert index.exact("africa") is None


def test_a_unique_prefix_must_have_three_letters(provinces: NameIndex) -> None:
    assert provinces.resolve("Ap").error == "'Ap' is too short to be sure: did you mean Apulia? Write more of the name"
    assert provinces.resolve("Apu").name == "Apulia"


def test_unknown_name_suggests_close_names(provinces: NameIndex) -> None:
    assert provinces.resolve("Latum") == Resolution(error="unknown province 'Latum': did you mean Latium?")
    # Aliases are matched too, but the canonical name is reported.
    assert provinces.resolve("Lazo").error == "unknown province 'Lazo': did you mean Latium?"
    assert provinces.resolve("Tuscanny").error == "unknown province 'Tuscanny': did you mean Etruria?"


def test_unknown_name_suggests_at_most_three() -> None:
    index = NameIndex({f"Regio{c}": () for c in "ABCDE"}, "province")
    error = index.resolve("Regio").error or ""
    assert error.startswith("'Regio' could be RegioA, RegioB, RegioC, RegioD or RegioE")
    error = index.resolve("Regoi X").error or ""
    assert error.startswith("unknown province 'Regoi X': did you mean ")
    assert error.count("Regio") <= 3


def test_unknown_name_lists_a_short_list(provinces: NameIndex) -> None:
    assert provinces.resolve("Xyz").error == (
        "unknown province 'Xyz'; provinces are: Latium, Etruria, Apulia, Campania, Bruttium, Macedonia, "
        "Mauretania, Gallia Cisalpina, Baetica"
    )


def test_unknown_name_sends_to_the_map_when_the_list_is_long() -> None:
    index = NameIndex({f"Province {n}": () for n in "ABCDEFGHIJKLM"}, "province")
    assert index.resolve("Qwx").error == "unknown province 'Qwx': check the map for the province's name"


def test_kind_words_in_messages() -> None:
    invaders = NameIndex({"Samnites": ("Samnite",), "Iberians": ()}, "invader force")
    assert invaders.article == "an"
    assert invaders.plural == "invader forces"
    assert invaders.resolve("Zzz").error == "unknown invader force 'Zzz'; invader forces are: Samnites, Iberians"
    assert NameIndex({}, "sea").article == "a"


def test_empty_text(provinces: NameIndex) -> None:
    assert provinces.resolve("   ").error == "missing province name"
    assert provinces.resolve("...").error == "missing province name"


def test_find_longest(seas: NameIndex, provinces: NameIndex) -> None:
    tokens = ["through", "the", "tyrrhenian", "sea", "to", "rome"]
    assert seas.find_longest(tokens, 2) == ("Mare Tyrrhenum", 4)
    assert seas.find_longest(tokens, 0) is None
    assert provinces.find_longest(tokens, 5) == ("Latium", 6)
    assert provinces.find_longest(tokens, 6) is None
    assert provinces.find_longest(["gallia", "cisalpina"], 0) == ("Gallia Cisalpina", 2)


def test_index_protocol(provinces: NameIndex) -> None:
    assert "Latium" in provinces
    assert "Rome" not in provinces  # aliases are not names
    assert len(provinces) == 9
    assert list(provinces)[:2] == ["Latium", "Etruria"]
    assert "tyrrhenian" in NameIndex(SEAS, "sea").words
