"""The text of a file of public draws, as the operator publishes it or as a person saved it: the official history
zip (its one member ``storico01-oggi.txt``) or that text itself. ``legatus lotto import`` and ``legatus verify
--draws`` read a file the same way, so the download that fills the store also checks a campaign."""
from __future__ import annotations

from pathlib import Path

from bot.lottery.formats import ARCHIVE_MEMBER, Unusable, archive_text, is_zip


class UnreadableDraws(ValueError):
    """Why a file gives no archive text; the message names the file and says what would do."""


def draws_text(path: Path, raw: bytes) -> str:
    """The archive text of ``raw`` (the bytes of ``path``), or UnreadableDraws saying what is wrong."""
    try:
        # The official history zip is read as it comes: its one member is the archive text.
        return archive_text(raw) if is_zip(raw) else raw.decode("utf-8-sig")
    except Unusable as exc:
        raise UnreadableDraws(f"{path}: {exc.problem}; give the official zip holding {ARCHIVE_MEMBER}, or that "
                              "text file") from None
    except UnicodeDecodeError as exc:
        bad = raw[exc.start:exc.end]
        raise UnreadableDraws(
            f"{path} is not a text file in the archive format (YYYY/MM/DD<TAB>WHEEL<TAB>n1..n5), byte "
            f"0x{bad[:1].hex()} at position {exc.start} is not UTF-8; nor is it the official zip holding "
            f"{ARCHIVE_MEMBER}") from None
