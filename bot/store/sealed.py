"""Sealed content kept for its seat until the game reveals it: the private half of a sealed order or bid.

The public log holds only the digest (engine/secrets.py) of the content and its salt; this table holds both,
so the bot can show the content to its seat, fold it for live checks, and reveal it when the game says it is
due. It is never exported with the log. Alembic revision 0005 makes the table.

Both are encrypted at rest (``bot/store/at_rest.py``): ``content`` holds the ciphertext of content and salt together,
``salt`` is left empty. Rows written before that, in clear, are read as they are until ``encrypt_plain_rows``
(run whenever the service opens the database) encrypts them.
"""
from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Field, Session, SQLModel, col, select

from bot.store.at_rest import SEALED_PREFIX, open_row, seal_row

log = logging.getLogger("legatus.secrets")


class SealedRow(SQLModel, table=True):
    __tablename__ = "sealed_content"

    campaign_id: int = Field(primary_key=True, foreign_key="campaign.id")
    seq: int = Field(primary_key=True)
    content: str  # "aesgcm1:" + the encrypted content and salt (older rows: canonical JSON of the content)
    salt: str  # empty (older rows: the salt in clear)


def put(session: Session, campaign_id: int, seq: int, secret: dict[str, Any]) -> None:
    content, salt = seal_row(campaign_id, seq, secret)
    session.add(SealedRow(campaign_id=campaign_id, seq=seq, content=content, salt=salt))


def get(session: Session, campaign_id: int, seq: int) -> dict[str, Any] | None:
    row = session.get(SealedRow, (campaign_id, seq))
    return None if row is None else open_row(campaign_id, seq, row.content, row.salt)


def all_for(session: Session, campaign_id: int, after_seq: int = 0) -> dict[int, dict[str, Any]]:
    rows = session.exec(select(SealedRow).where(SealedRow.campaign_id == campaign_id, SealedRow.seq > after_seq))
    return {row.seq: open_row(campaign_id, row.seq, row.content, row.salt) for row in rows}


def encrypt_plain_rows(engine: Engine) -> int:
    """Encrypt the rows an older Legatus wrote in clear; how many. An alembic migration cannot: the key is not in
    the database and a migration must not depend on the environment. Does nothing (and says why in the log) when
    the database cannot be written or no key can be had: the plain rows are still read, and encrypted next time."""
    from bot.store.db import writer

    try:
        with Session(writer(engine)) as session:
            plain = list(session.exec(select(SealedRow).where(col(SealedRow.content).notlike(f"{SEALED_PREFIX}%"))))
            if not plain:
                return 0
            if engine.dialect.name == "sqlite":
                # The pages the clear rows leave are zeroed, not merely freed: else the file would still hold them.
                session.connection().exec_driver_sql("PRAGMA secure_delete=ON")
            for row in plain:
                row.content, row.salt = seal_row(row.campaign_id, row.seq, open_row(row.campaign_id, row.seq,
                                                                                     row.content, row.salt))
                session.add(row)
            session.commit()
        if engine.dialect.name == "sqlite":  # and the WAL, which held the old pages, is emptied into the file
            raw = engine.raw_connection()
            try:
                assert raw.driver_connection is not None  # a connection just taken from the pool is open
                raw.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                raw.close()
    except Exception as exc:  # never a reason not to start: the rows stay readable as they are
        log.warning("sealed contents kept in clear by an older version could not be encrypted now (%s); "
                    "they are read as they are and encrypted at the next start", exc)
        return 0
    log.info("encrypted %d sealed content(s) an older version kept in clear", len(plain))
    return len(plain)
