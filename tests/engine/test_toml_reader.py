"""The rules and maps are read by tomli where installed (engine/toml_reader.py), to exactly what the standard
library's tomllib reads, and a mistake is still a TOMLDecodeError the loaders word."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.area_map import MapError, load_map
from engine.toml_reader import toml

DATA = Path(__file__).resolve().parents[2] / "data"


def test_the_installed_reader_is_tomli() -> None:
    assert toml.__name__ == "tomli"


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.toml")), ids=lambda p: str(p.relative_to(DATA)))
def test_every_data_file_reads_as_tomllib_reads_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert toml.loads(text) == tomllib.loads(text)
    with path.open("rb") as file:
        assert toml.load(file) == tomllib.loads(text)


def test_a_mistake_is_a_toml_decode_error_the_map_loader_words(tmp_path: Path) -> None:
    with pytest.raises(toml.TOMLDecodeError):
        toml.loads("[areas\nname = 1")
    (tmp_path / "maps").mkdir()
    bad = tmp_path / "maps" / "bad.toml"
    bad.write_text("[areas\nname = 1\n", encoding="utf-8")
    with pytest.raises(MapError, match=r"^bad\.toml: not valid TOML: "):
        load_map(bad)
