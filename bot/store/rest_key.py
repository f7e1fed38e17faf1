"""The key that keeps the database's secrets at rest: sealed contents (``bot/store/sealed.py``) and cached folds
(``bot/store/snapshots.py``) are encrypted with it, so a copy of the database or of a backup shows neither.

It is the server key (``LEGATUS_SECRET_KEY`` or ``LEGATUS_SECRET_KEY_FILE``, ``bot/store/server_key.py``) when one is
set. When none is, the bot must still play games with sealed content, so it keeps a key of its own in a file created
0600 on first need, outside the database and outside whatever `legatus backup` writes: ``$STATE_DIRECTORY`` (set by
systemd's ``StateDirectory=``), else ``$XDG_STATE_HOME/legatus``, else ``~/.local/state/legatus``, file
``secret.key``. Its path is logged when it is made or first used, never its content.

Kept apart from SQLAlchemy so that the direct writer (``bot/store/sqlite_post_store.py``) and the read-only reader
use it too.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from bot.store.server_key import KEY_ENV, KEY_FILE_ENV, NoServerKey, server_key

log = logging.getLogger("legatus.secrets")
KEY_FILE_NAME = "secret.key"
# Domain separation: the at-rest key is never the server key itself, so it is never the key commit-reveal seeds
# are derived with (``derive_seed``), and a change of use never reuses one key for two purposes.
_LABEL = b"legatus/at-rest/aes-256-gcm/v1"
_announced: set[Path] = set()
# The keys found, by what they were found from: a post opens many rows, and a key does not change under a process.
_found: dict[tuple[str, str, str, str], list[bytes]] = {}


class NoRestKey(LookupError):
    """No key can be had (none set, and the default key file cannot be made or read): the message says what to do."""


def default_key_path(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the bot keeps its own key when no server key is set."""
    if environ.get("STATE_DIRECTORY"):
        # systemd may give several folders, colon-separated: the first is the unit's own.
        return Path(environ["STATE_DIRECTORY"].split(":")[0]) / KEY_FILE_NAME
    base = environ.get("XDG_STATE_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".local" / "state")
    return Path(base) / "legatus" / KEY_FILE_NAME


def how_to_supply(environ: Mapping[str, str] = os.environ) -> str:
    return (f"set {KEY_ENV} to the key's text or {KEY_FILE_ENV} to a file holding it, or put the bot's key file "
            f"back at {default_key_path(environ)}, then restart the bot")


def _read_key_file(path: Path) -> bytes:
    text = path.read_text(encoding="utf-8").strip()
    if not text:
        raise NoRestKey(f"the key file {path} is empty: put the key back in it, or remove it to make a new one "
                        "(sealed contents written with the lost key then stay unreadable)")
    return text.encode("utf-8")


def _own_key(environ: Mapping[str, str], create: bool) -> bytes | None:
    path = default_key_path(environ)
    try:
        if path.is_file():
            key = _read_key_file(path)
            if path not in _announced:
                _announced.add(path)
                log.info("secrets at rest are encrypted with the key in %s (no %s set)", path, KEY_ENV)
            return key
        if not create:
            return None
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: use theirs
            return _read_key_file(path)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_hex(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        _announced.add(path)
        log.warning("made a key for secrets at rest in %s (no %s set): keep it, and back it up apart from the "
                    "database; without it sealed contents cannot be read", path, KEY_ENV)
        return _read_key_file(path)
    except OSError as exc:
        raise NoRestKey(f"secrets at rest need a key outside the database, and {path} cannot be "
                        f"{'read' if path.exists() else 'made'} ({exc.strerror}): set {KEY_ENV} to a long random "
                        f"text or {KEY_FILE_ENV} to a file holding it") from None


def _derived(key: bytes) -> bytes:
    return hmac.new(key, _LABEL, hashlib.sha256).digest()


def rest_keys(environ: Mapping[str, str] = os.environ, create: bool = True) -> list[bytes]:
    """The 32-byte keys to try, the one to encrypt with first: the server key's when one is set, else the bot's own
    (made now when ``create``). The bot's own file, when it exists beside a server key, is tried second, so that
    setting a server key later does not lose what was sealed before. Raises NoRestKey when there is none."""
    own = default_key_path(environ)
    # Whether the bot's own file is there is part of what the keys were found from: made later (by a process
    # with no server key), it must be tried too, not missed for the rest of this process.
    where = (environ.get(KEY_ENV, ""), environ.get(KEY_FILE_ENV, ""), str(own), str(own.is_file()))
    if where not in _found:
        _found[where] = _find_keys(environ, create)
    return _found[where]


def _find_keys(environ: Mapping[str, str], create: bool) -> list[bytes]:
    try:
        primary: bytes | None = server_key(environ)
    except NoServerKey as exc:
        if environ.get(KEY_ENV) or environ.get(KEY_FILE_ENV):
            raise NoRestKey(str(exc)) from None  # a variable is set but names no readable key: say so, make none
        primary = None
    if primary is None:
        own = _own_key(environ, create)
        if own is None:
            raise NoRestKey(f"no key for secrets at rest: {how_to_supply(environ)}")
        return [_derived(own)]
    keys = [_derived(primary)]
    try:
        own = _own_key(environ, create=False)
    except NoRestKey:
        own = None
    if own is not None and own != primary:
        keys.append(_derived(own))
    return keys
