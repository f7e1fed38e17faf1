"""Hole: "`verify --draws` rejects the official zip that `legatus lotto import` reads". Anyone holding the
operator's download (a zip of ``storico01-oggi.txt``) checks a campaign with it as it comes."""
from __future__ import annotations

import contextlib
import io
import zipfile
from pathlib import Path

from bot.cli.main import main
from bot.service.legatus import Legatus
from tests.conftest import LOTTO, PLAYERS


def _official_zip(path: Path, member: str = "storico01-oggi.txt") -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, (LOTTO / "draws-2023-01.txt").read_bytes())
    return path


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    return code, out.getvalue()


def _campaign_log(service: Legatus, tmp_path: Path) -> Path:
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(), "import:draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    service.post("gm", "/turn open 2023-01-03")
    service.post("antiochus", "peace treaty with Gauls")
    log = tmp_path / "c.log"
    log.write_text(service.export("c"))
    return log


def test_verify_reads_the_official_zip_as_lotto_import_does(service: Legatus, tmp_path: Path) -> None:
    """Attacker: outsider with the export. They check the log against the operator's own download, unmodified."""
    log = _campaign_log(service, tmp_path)
    code, said = _run("verify", str(log), "--draws", str(_official_zip(tmp_path / "storico01-oggi.zip")))
    assert code == 0, said
    assert "verified:" in said and "draws checked" in said


def test_verify_says_what_is_wrong_with_a_zip_of_another_shape(service: Legatus, tmp_path: Path) -> None:
    """Attacker: outsider with the export, given a zip that is not the official one: told so, never a traceback."""
    log = _campaign_log(service, tmp_path)
    code, said = _run("verify", str(log), "--draws", str(_official_zip(tmp_path / "old.zip", "storico.txt")))
    assert code != 0
    assert "storico.txt" in said and "storico01-oggi.txt" in said and "Traceback" not in said
