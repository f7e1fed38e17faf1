"""Issue 12, item 4: `lotto import` says which wheels an incomplete draw lacks (non-zero exit), and reads the
official history zip (storico01-oggi.txt) directly."""
from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import LOTTO

JANUARY = (LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def keep_logging() -> Iterator[None]:
    handlers = list(logging.root.handlers)
    yield
    logging.root.handlers[:] = handlers


def zipped(member: str, text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, text)
    return buffer.getvalue()


def test_an_incomplete_draw_is_reported_with_its_missing_wheels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = "\n".join(line for line in JANUARY.splitlines() if line.startswith(("2023/01/03\tBA", "2023/01/03\tCA"))) + "\n"
    path = tmp_path / "two.txt"
    path.write_text(two, encoding="utf-8")
    code = main(["lotto", "import", "--db", str(tmp_path / "c.db"), str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "1 incomplete draw" in out
    assert "2023-01-03 lacks 9 of 11 wheels: FI, GE, MI, NA, PA, RM, RN, TO, VE" in out


def test_the_official_history_zip_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "storico.zip"
    official = "\n".join(line for line in JANUARY.splitlines() if not line.startswith("#")) + "\n"
    path.write_bytes(zipped("storico01-oggi.txt", official))
    code = main(["lotto", "import", "--db", str(tmp_path / "c.db"), str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "13 draws (143 wheel results) added" in out


def test_a_zip_without_the_history_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.zip"
    path.write_bytes(zipped("readme.txt", "hello"))
    code = main(["lotto", "import", "--db", str(tmp_path / "c.db"), str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "readme.txt" in err and "storico01-oggi.txt" in err
