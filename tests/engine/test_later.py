"""engine/later.py: a module imported by the first read through its stand-in, and seen as it is at every read."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.later import Later, later


def _probe(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = root / "later_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "counted.py").write_text("import builtins\nbuiltins.later_probe_imports += 1\nVALUE = 41\n")
    (package / "other.py").write_text("NAME = 'other'\n")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr("builtins.later_probe_imports", 0, raising=False)
    for name in ("later_probe", "later_probe.counted", "later_probe.other"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_the_module_is_imported_by_the_first_read_and_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    _probe(tmp_path, monkeypatch)
    counted, other = later("later_probe", "counted", "other")
    assert "later_probe.counted" not in sys.modules
    assert builtins.later_probe_imports == 0  # type: ignore[attr-defined]
    assert counted.VALUE == 41
    assert counted.VALUE == 41
    assert builtins.later_probe_imports == 1  # type: ignore[attr-defined]
    assert "later_probe.other" not in sys.modules
    assert other.NAME == "other"
    assert repr(counted) == "<module 'later_probe.counted', imported where first used>"


def test_a_patched_module_is_seen_as_it_is_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _probe(tmp_path, monkeypatch)
    counted = Later("later_probe.counted")
    assert counted.VALUE == 41
    monkeypatch.setattr(sys.modules["later_probe.counted"], "VALUE", 7)
    assert counted.VALUE == 7


def test_a_name_the_module_lacks_is_an_attribute_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _probe(tmp_path, monkeypatch)
    with pytest.raises(AttributeError, match="MISSING"):
        Later("later_probe.counted").MISSING
