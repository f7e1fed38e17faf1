"""Mare Nostrum's rules file as a GM may edit it: a wheel two nations would share is refused when it is read."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.mare_nostrum.rules_data import RulesDataError, load_rules

DATA = Path(__file__).resolve().parents[3] / "data"


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    (tmp_path / "rulesets").mkdir()
    shutil.copytree(DATA / "maps", tmp_path / "maps")
    text = (DATA / "rulesets" / "mare-nostrum.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "rulesets" / "mare-nostrum.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_the_shipped_file_gives_each_nation_its_own_wheel() -> None:
    rules = load_rules(DATA / "rulesets" / "mare-nostrum.toml")
    wheels = [n.wheel for n in rules.nations.values()]
    assert wheels == ["BA", "CA", "FI", "GE", "MI", "NA"]


def test_two_nations_on_one_wheel_are_refused_by_name(tmp_path: Path) -> None:
    path = _edited(tmp_path, 'wheel = "CA"', 'wheel = "BA"')
    with pytest.raises(RulesDataError) as caught:
        load_rules(path)
    assert str(caught.value) == (f"{path}: nation Carthaginians shares wheel 'BA' with another nation: each nation "
                                 f"needs its own")


def test_a_wheel_not_drawn_every_year_is_refused(tmp_path: Path) -> None:
    path = _edited(tmp_path, 'wheel = "NA"', 'wheel = "RN"')
    with pytest.raises(RulesDataError) as caught:
        load_rules(path)
    assert str(caught.value) == (f"{path}: nation Seleucids has wheel 'RN': a wheel is one of BA, CA, FI, GE, MI, "
                                 f"NA, PA, RM, TO, VE")
