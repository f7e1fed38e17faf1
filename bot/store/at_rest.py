"""Encryption at rest of what the database must keep secret: sealed contents and cached folds (snapshots).

AES-256-GCM (the ``cryptography`` package), a fresh 96-bit nonce per row, and the row's place as associated data
(``sealed_content`` campaign id and event number; ``snapshot`` campaign id, last event, its hash and the fold key),
so a row copied to another campaign or event, or a body changed by one bit, fails to open instead of being read.
The key is ``bot/store/rest_key.py``'s, never in the database nor in a backup.

Authenticated before anything is parsed: a snapshot body is unpickled only once it opened with the bot's key, so a
pickle written into the database by anyone else (a crafted row, a crafted backup) is never loaded, it is ignored.

``cryptography`` is imported on first use: its import is about 12 ms, which `legatus state` on a campaign with
no snapshot and no sealed content never pays.
"""
from __future__ import annotations

import base64
import json
import os
from typing import Any

from bot.store.campaign_names import CampaignNotFound
from bot.store.rest_key import NoRestKey, how_to_supply, rest_keys

SEALED_PREFIX = "aesgcm1:"  # sealed_content.content of an encrypted row; a row without it is an older plain one
SNAPSHOT_MAGIC = b"legatus-snapshot-aesgcm1\n"
_NONCE = 12
_ciphers: dict[bytes, Any] = {}


class SealedKeyMissing(CampaignNotFound):
    """The campaign's sealed contents cannot be read (or written) with the key this bot has. A CampaignNotFound, so
    every face that answers "no such campaign" in one line answers this one in one line too."""


def _cipher(key: bytes) -> Any:
    if key not in _ciphers:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        _ciphers[key] = AESGCM(key)
    return _ciphers[key]


def _encrypt(plain: bytes, associated: bytes) -> bytes:
    nonce = os.urandom(_NONCE)
    return nonce + _cipher(rest_keys()[0]).encrypt(nonce, plain, associated)


def _decrypt(blob: bytes, associated: bytes) -> bytes | None:
    """The plain bytes, or None when no key this bot has opens ``blob`` (another key, or altered)."""
    from cryptography.exceptions import InvalidTag

    for key in rest_keys(create=False):
        try:
            return bytes(_cipher(key).decrypt(blob[:_NONCE], blob[_NONCE:], associated))
        except (InvalidTag, ValueError):
            continue
    return None


# --- sealed contents ------------------------------------------------------------------------------------------------


def _sealed_place(campaign_id: int, seq: int) -> bytes:
    return f"legatus/sealed_content/{int(campaign_id)}/{int(seq)}".encode()


def missing_key_line(campaign_id: int, why: str) -> str:
    return (f"The sealed contents of campaign #{campaign_id} {why}: the key they were sealed with is missing here. "
            f"To supply it, {how_to_supply()}.")


def seal_row(campaign_id: int, seq: int, secret: dict[str, Any]) -> tuple[str, str]:
    """The (content, salt) columns of a sealed content: the content and its salt encrypted together (the salt
    is as secret as the content: with it a small content, a bid, is found from its public digest by trying them
    all); the salt column is left empty."""
    plain = json.dumps({"content": secret["content"], "salt": str(secret["salt"])}, sort_keys=True).encode("utf-8")
    try:
        blob = _encrypt(plain, _sealed_place(campaign_id, seq))
    except NoRestKey as exc:
        raise SealedKeyMissing(f"Nothing was sealed for campaign #{campaign_id}: {exc}.") from None
    return SEALED_PREFIX + base64.b64encode(blob).decode("ascii"), ""


def open_row(campaign_id: int, seq: int, content: str, salt: str) -> dict[str, Any]:
    """A stored sealed content as ``{"content", "salt"}``; an older plain row as it is. SealedKeyMissing when the
    bot's key does not open it."""
    if not content.startswith(SEALED_PREFIX):
        return {"content": json.loads(content), "salt": salt}
    try:
        plain = _decrypt(base64.b64decode(content[len(SEALED_PREFIX):]), _sealed_place(campaign_id, seq))
    except NoRestKey:
        plain = None
    if plain is None:
        raise SealedKeyMissing(missing_key_line(campaign_id, "cannot be read with this bot's key"))
    opened: dict[str, Any] = json.loads(plain)
    return {"content": opened["content"], "salt": opened["salt"]}


# --- snapshots ------------------------------------------------------------------------------------------------------


def _snapshot_place(campaign_id: int, seq: int, head: str, key: str) -> bytes:
    return f"legatus/snapshot/{int(campaign_id)}/{int(seq)}/{head}/{key}".encode()


def seal_snapshot(campaign_id: int, seq: int, head: str, key: str, body: bytes) -> bytes | None:
    """The stored form of a snapshot body; None when no key can be had (then no snapshot is kept: it is a cache)."""
    try:
        return SNAPSHOT_MAGIC + _encrypt(body, _snapshot_place(campaign_id, seq, head, key))
    except NoRestKey:
        return None


def open_snapshot(campaign_id: int, seq: int, head: str, key: str, stored: bytes) -> bytes | None:
    """The body a stored snapshot holds if this bot wrote it for this place; None for anything else (an older plain
    pickle, another key, a row made or changed by anyone but the bot): never parsed then."""
    stored = bytes(stored)
    if not stored.startswith(SNAPSHOT_MAGIC):
        return None
    try:
        return _decrypt(stored[len(SNAPSHOT_MAGIC):], _snapshot_place(campaign_id, seq, head, key))
    except NoRestKey:
        return None
