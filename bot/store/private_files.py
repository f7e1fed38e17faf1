"""The store's files readable by their owner only (0600), whatever the umask: the database holds the whole game,
hidden hands' digests and the campaigns' players; a backup is the same bytes.

SQLite creates a database 0644 less the umask, and its ``-wal`` and ``-shm`` with the database file's own mode. So
the database file is made here, empty (an empty file is an empty SQLite database), before SQLite or SQLAlchemy
opens it; its companions then follow. A file left wider by an older version is narrowed when the bot opens it.
"""
from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger("legatus.store")
PRIVATE = 0o600
COMPANIONS = ("-wal", "-shm", "-journal", ".locks")


def narrow(path: Path) -> None:
    """Take away group's and others' access to ``path`` if it exists, is ours and has any."""
    with contextlib.suppress(OSError):  # not ours, or gone: nothing this process may change
        mode = path.stat().st_mode
        if stat.S_IMODE(mode) & 0o077 and path.stat().st_uid == os.getuid():
            os.chmod(path, stat.S_IMODE(mode) & 0o700)
            log.info("%s was readable by other users: now by its owner only", path)


def private_database(path: Path) -> None:
    """Make the SQLite database ``path`` 0600 if it does not exist yet; narrow it and its companions if they do."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        pass
    except OSError:
        return  # a folder that does not exist or cannot be written: SQLite says so in its own words
    else:
        os.close(fd)
        return
    for file in (path, *(Path(f"{path}{suffix}") for suffix in COMPANIONS)):
        narrow(file)
