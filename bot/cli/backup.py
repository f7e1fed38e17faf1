"""`legatus backup` and `legatus restore`: the commands; the copying itself is bot/store/backup.py."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_commands(sub: Any) -> None:
    """Add `backup` and `restore` to the `legatus` subcommands (``sub`` from ``add_subparsers``)."""
    sp = sub.add_parser("backup", help="copy the campaign database to a file, safely while the bot runs")
    sp.add_argument("--db", default=None, help="the SQLite file or database URL (default: $DATABASE_URL, else legatus.db)")
    sp.add_argument("--out", type=Path, required=True, help="the backup file to write (replaced if it exists)")
    sp.set_defaults(func=cmd_backup)

    sp = sub.add_parser("restore", help="put a backup back as the campaign database (stop the bot first)")
    sp.add_argument("--from", dest="source", type=Path, required=True, metavar="FILE", help="a file made by legatus backup")
    sp.add_argument("--db", default=None, help="the SQLite file to restore into (default: $DATABASE_URL, else legatus.db)")
    sp.add_argument("--force", action="store_true", help="replace a database that already holds data")
    sp.set_defaults(func=cmd_restore, creates_db=True)


# --- the commands -----------------------------------------------------------------------------------------------------


def _sqlite_target(args: argparse.Namespace, postgres_hint: str) -> Path | int:
    """The SQLite file the command works on, or the exit code after saying why there is none."""
    from bot.store.backup import BackupError, sqlite_path, redacted
    from bot.store.db import database_url

    url = database_url(args.db)
    try:
        path = sqlite_path(url)
    except BackupError as exc:
        print(f"legatus: {exc}", file=sys.stderr)
        return 2
    if path is None:
        print(f"legatus: {redacted(url)} is a PostgreSQL database: {postgres_hint}", file=sys.stderr)
        return 2
    return path


def cmd_backup(args: argparse.Namespace) -> int:
    from bot.store.backup import BackupError, backup, libpq_url
    from bot.store.db import database_url

    url = database_url(args.db)
    path = _sqlite_target(
        args, f"back it up with PostgreSQL's own tool, e.g. pg_dump --format=custom --file {args.out} "
        f"'{libpq_url(url)}' (restore: pg_restore --clean -d ...)",
    )
    if isinstance(path, int):
        return path
    try:
        summary = backup(path, args.out)
    except BackupError as exc:
        print(f"legatus: {exc}", file=sys.stderr)
        return 1
    print(f"backup of {path} written to {args.out}: {summary}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from bot.store.backup import BackupError, restore

    path = _sqlite_target(args, "restore it with pg_restore from a pg_dump file; legatus restore puts back SQLite backups only")
    if isinstance(path, int):
        return path
    try:
        summary = restore(args.source, path, force=args.force)
    except BackupError as exc:
        print(f"legatus: {exc}", file=sys.stderr)
        return 1
    print(f"{args.source} restored to {path}: {summary}")
    return 0
