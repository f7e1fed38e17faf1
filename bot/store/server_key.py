"""The server key and the derivation of a commit-reveal seed from it: what ``bot/store/campaign_secret.py`` keeps in
the database is only a nonce. Apart from the table so that a post written over Python's own sqlite3
(``bot/store/sqlite_post_store.py``) derives a seed as the service does, without importing SQLAlchemy."""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

KEY_ENV, KEY_FILE_ENV = "LEGATUS_SECRET_KEY", "LEGATUS_SECRET_KEY_FILE"
DERIVED = "hmac:"


class NoServerKey(LookupError):
    pass


def server_key(environ: Mapping[str, str] = os.environ) -> bytes:
    """The server key's bytes; NoServerKey (saying what to set) when neither variable gives one."""
    text = environ.get(KEY_ENV, "")
    path = environ.get(KEY_FILE_ENV, "")
    if not text and path:
        try:
            text = Path(path).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise NoServerKey(f"{KEY_FILE_ENV}={path[:80]} cannot be read ({exc.strerror})") from None
    if not text:
        raise NoServerKey(f"commit-reveal needs a server key kept outside the database: set {KEY_ENV} to a long "
                          f"random text, or {KEY_FILE_ENV} to a file holding it (e.g. `openssl rand -hex 32`)")
    return text.encode("utf-8")


def new_nonce() -> str:
    return DERIVED + secrets.token_hex(32)


def derive_seed(key: bytes, stored: str) -> str:
    """The seed a stored value stands for: HMAC-SHA256(key, nonce) for "hmac:<nonce>", else the value itself."""
    if not stored.startswith(DERIVED):
        return stored
    return hmac.new(key, stored[len(DERIVED):].encode("utf-8"), hashlib.sha256).hexdigest()


def seed_from_stored(stored: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """The seed a stored value stands for; None when it needs the server key and none is set."""
    if not stored.startswith(DERIVED):
        return stored
    try:
        return derive_seed(server_key(environ), stored)
    except NoServerKey:
        return None
