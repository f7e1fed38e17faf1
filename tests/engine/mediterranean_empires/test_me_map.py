"""The area map: the loader's checks, and the places the seed names where the seed names them."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.area_map import MapError, build_map, load_map

MAP = Path(__file__).resolve().parents[3] / "data" / "maps" / "mediterranean-empires.toml"

# Every land area the seed names (set-up 3.1-3.3, examples, 13.0), in its own spelling.
SEED_AREAS = [
    "Albi", "Calabria", "County of Toulouse", "Duchy of Apulia", "Kingdom of Naples", "Malta", "Montpellier",
    "Provence County", "Vienne", "Abruzzi", "Auvergne", "Toulouse", "Catalan counties", "Kingdom of Majorca",
    "Kingdom of Murcia", "Kingdom of Valencia", "Lower Aragon", "Rosselló", "Upper Aragon", "Urgell",
    "Caliphate of Tunis", "Genoa", "Corsica", "Olbia", "Pisa", "Arborea", "Caralis", "Venice", "Istria", "Dalmatia",
    "New Castile", "Old Castile", "Biscay", "Duchy of Guyenne", "Papal States", "Brescia", "Ancona", "Milan",
    "Tuscany", "Ravenna", "Navarre", "Merinids", "Kingdom of Tlemcen", "Sultanate of Bougie", "Kingdom of Granada",
]
SEED_CITIES = ["Cagliari", "Taranto", "Rome", "Bordeaux", "Naples", "Palermo"]


@pytest.fixture(scope="module")
def the_map():
    return load_map(MAP)


def test_every_area_the_seed_names_is_on_the_map(the_map) -> None:
    for name in SEED_AREAS:
        assert the_map.index.resolve(name).ok, name
    assert the_map.index.resolve("Toulouse").name == "County of Toulouse"
    cities = the_map.cities()
    for city in SEED_CITIES:
        assert city in cities, city
    assert cities["Bordeaux"] == "Duchy of Guyenne" and cities["Rome"] == "Papal States"


def test_sicily_has_two_land_areas_and_sardinia_three(the_map) -> None:
    """2.1.1 Example: there are three land areas in Sardinia: Arborea, Olbia, and Caralis."""
    sardinia = {"Arborea", "Olbia", "Caralis"}
    for area in sardinia:
        assert set(the_map.land_neighbours(area)) == sardinia - {area}
    assert the_map.land_neighbours("Val di Mazara") == ("Val Demone",)


def test_straits_need_a_fleet(the_map) -> None:
    """10.1: land units cross the straits of Messina and Bonifacio only by fleet."""
    assert "Val Demone" not in the_map.land_neighbours("Calabria")
    assert "Olbia" not in the_map.land_neighbours("Corsica")
    assert the_map.land_neighbours("Corsica") == ()


def test_taranto_faces_the_sea_south_only(the_map) -> None:
    """11.1 Important: Taranto is adjacent to the sea to its south, not to the sea to the north-east."""
    assert the_map.touches("Duchy of Apulia", "Lower Adriatic")
    assert the_map.port_seas("Duchy of Apulia") == ("Ionian Sea",)


def test_cagliari_faces_the_sea_south_east_of_sardinia(the_map) -> None:
    """11.1 Example: the sea south-west of Sardinia touches Caralis and Bougie, but Cagliari is on the south-east sea."""
    assert {"Caralis", "Sultanate of Bougie"} <= set(the_map.seas["Algerian Sea"].coast)
    assert the_map.port_seas("Caralis") == ("South Tyrrhenian Sea",)


def test_every_sea_touches_two_areas_and_links_are_symmetric(the_map) -> None:
    for sea in the_map.seas.values():
        assert len(sea.coast) >= 2
        for other in sea.links:
            assert sea.name in the_map.seas[other].links
    for land in the_map.lands.values():
        for other in land.borders:
            assert land.name in the_map.lands[other].borders


def _raw() -> dict:
    return tomllib.loads(MAP.read_text(encoding="utf-8"))


def test_a_one_sided_border_is_refused() -> None:
    raw = _raw()
    raw["land"]["Albi"]["borders"] = [*raw["land"]["Albi"]["borders"], "Vienne"]
    with pytest.raises(MapError, match="'Albi' borders 'Vienne' but 'Vienne' does not list 'Albi'"):
        build_map(raw)


def test_a_duplicate_name_is_refused() -> None:
    raw = _raw()
    raw["sea"]["Ionian Sea"]["aliases"] = ["Malta"]
    with pytest.raises(MapError, match="'Malta'.*already used by Malta"):
        build_map(raw)


def test_a_sea_touching_one_area_is_refused() -> None:
    raw = _raw()
    raw["sea"]["Lonely Sea"] = {"at": [0, 0], "links": []}
    raw["land"]["Malta"]["coast"] = [*raw["land"]["Malta"]["coast"], "Lonely Sea"]
    with pytest.raises(MapError, match="'Lonely Sea' touches 1 land area"):
        build_map(raw)


def test_a_city_on_a_sea_its_area_does_not_touch_is_refused() -> None:
    raw = _raw()
    raw["land"]["Duchy of Apulia"]["city_coast"] = ["Ionian Sea", "Upper Adriatic"]
    with pytest.raises(MapError, match="Upper Adriatic, which the area itself does not touch"):
        build_map(raw)
