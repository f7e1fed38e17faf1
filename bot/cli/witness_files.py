"""Reading the witness files given to `legatus verify --witnesses`: exports of a campaign's channel."""
from __future__ import annotations

from pathlib import Path

from engine.witness import Witness, read_witnesses


def read_witness_files(paths: list[Path]) -> tuple[list[Witness], list[str]]:
    """Every head line of the files, with the time Discord gave its message, and what could not be used (each
    quoting its file). ValueError saying what is wrong, and what would be right, when a file cannot be read."""
    witnesses: list[Witness] = []
    problems: list[str] = []
    for path in paths:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ValueError(f"cannot read {path}: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{path} is not UTF-8 (byte 0x{raw[exc.start:exc.start + 1].hex()} at position "
                             f"{exc.start}): give the export as the exporter wrote it (JSON is UTF-8)") from None
        found, unusable = read_witnesses(text, str(path))
        witnesses.extend(found)
        problems.extend(unusable)
    return witnesses, problems
