"""`legatus site`: every campaign of a store as a static site (bot/site/build.py), verified in the reader's browser.

    legatus site --db camp.db --out public/ [--campaign NAME]

``bot/cli/main.py`` adds the command with ``add_commands(sub)``. It prints one line when the site is written and
returns 0; on a mistake one line saying what is wrong (2), on a failure to write 1.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXIT_USAGE, EXIT_FAILED = 2, 1


def add_commands(sub: Any) -> None:
    """Add `site` to the `legatus` subparsers, and `--web` to their `run` (a parser built without `run` has none)."""
    run = sub.choices.get("run")
    if run is not None:
        run.add_argument("--web", default=None, metavar="HOST:PORT",
                         help="also serve the campaigns' site live at HOST:PORT while the bot runs, e.g. "
                              "127.0.0.1:8080 (docs/site.md)")
        run.set_defaults(func=cmd_run_with_web)
    sp = sub.add_parser("site", help="write a static site of the campaigns: maps, results, ledger, checked in the "
                                     "reader's browser",
                        description="Write a static site (plain files: open it from disk or put it on any static "
                                    "host) with a page per campaign that re-checks its log in the reader's browser. "
                                    "See docs/site.md.")
    sp.add_argument("--db", default=None, help="the SQLite file (default: $DATABASE_URL, else legatus.db)")
    sp.add_argument("--campaign", default=None, help="only this campaign (default: every campaign of the store)")
    sp.add_argument("--out", type=Path, required=True,
                    help="the folder to write the site into (made if missing; a site written there before is replaced)")
    sp.set_defaults(func=cmd_site)


def cmd_site(args: argparse.Namespace) -> int:
    from bot.service.data_dir import DATA_DIR
    from bot.service.legatus import CampaignNotFound, Legatus
    from bot.site.build import write_site
    from bot.site.record import NotAPublicLog
    from bot.site.source import exports_of
    from bot.store.db import open_engine
    from engine.names import counted

    out: Path = args.out
    if out.exists() and not out.is_dir():
        return _fail(f"--out {out}: it is a file, not a folder; give a folder for the site")
    if out.is_dir() and any(out.iterdir()) and not (out / "index.html").is_file():
        return _fail(f"--out {out}: the folder holds other files and no site; give an empty or new folder "
                     "(the site replaces the folder's content)")
    try:
        campaigns = exports_of(Legatus(open_engine(args.db)), args.campaign)
        written = write_site(out, campaigns, DATA_DIR)
    except CampaignNotFound as exc:
        return _fail(str(exc))
    except NotAPublicLog as exc:
        return _fail(str(exc), EXIT_FAILED)
    except OSError as exc:
        return _fail(f"cannot write the site to {out}: {exc.strerror or exc}", EXIT_FAILED)
    count = len(written)
    print(f"Site of {counted(count, 'campaign')} written to {out} (open {out / 'index.html'})")
    return 0


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"legatus: {message}", file=sys.stderr)
    return code


def cmd_run_with_web(args: argparse.Namespace) -> int:
    """`legatus run [--web HOST:PORT]`: the bot (or the console), with the live site served beside it."""
    from bot.cli.main import _service, cmd_run

    if not getattr(args, "web", None):
        return cmd_run(args)
    from bot.service.data_dir import DATA_DIR
    from bot.site.server import parse_address, start_web

    try:
        parse_address(args.web)  # a mistyped address is refused before the store is opened
        web = start_web(_service(args), args.web, DATA_DIR)
    except ValueError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"--web {args.web}: cannot serve there ({exc.strerror or exc})", EXIT_FAILED)
    print(f"Campaign site at http://{web.host}:{web.port}/ (written again as events land)", file=sys.stderr)
    try:
        return cmd_run(args)
    finally:
        web.stop()
