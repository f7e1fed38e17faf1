"""`legatus lotto fetch`: fetch one draw from the sources and store it if two agree.

``bot.cli.main`` adds these commands under ``legatus lotto`` with ``add_commands(lotto_subparsers)``.
"""
from __future__ import annotations

import argparse
import datetime as dt
from typing import TYPE_CHECKING, Any

from bot.lottery.source_names import SOURCE_NAMES

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

EXIT_STORED = 0
EXIT_NOT_STORED = 1


def add_commands(lotto_subparsers: Any) -> None:  # argparse's _SubParsersAction is private
    sp = lotto_subparsers.add_parser(
        "fetch",
        help="fetch a draw from the sources; store it only if two agree",
        description=(
            "Fetch the draw of DATE from the operator's archive and the official site, keep their answers, "
            "and store the draw only if two sources agree on every wheel. Prints one line per source problem "
            "and one for the outcome; exits 0 when the draw is stored, 1 otherwise. URLs and timeouts come from "
            "LEGATUS_LOTTO_ARCHIVE_URLS (comma-separated mirrors), LEGATUS_LOTTO_DRAW_URL, "
            "LEGATUS_LOTTO_CALENDAR_URL, LEGATUS_LOTTO_CONNECT_TIMEOUT, LEGATUS_LOTTO_READ_TIMEOUT (seconds), "
            "LEGATUS_LOTTO_RETRIES (tries per request) and LEGATUS_LOTTO_BACKOFF (first wait, seconds)."
        ),
    )
    sp.add_argument("--db", default=None, help="the SQLite file (default: $DATABASE_URL, else legatus.db)")
    sp.add_argument("--date", required=True, type=_day, metavar="YYYY-MM-DD", help="the draw day")
    sp.add_argument(
        "--sources", nargs="+", default=list(SOURCE_NAMES), metavar="SOURCE",
        help=f"which sources to ask (default: {' '.join(SOURCE_NAMES)})",
    )
    sp.set_defaults(func=cmd_lotto_fetch, creates_db=True)


def cmd_lotto_fetch(args: argparse.Namespace) -> int:
    from sqlmodel import Session

    from bot.lottery.fetch import fetch_draw
    from bot.lottery.reconcile import Status
    from bot.lottery.sources import LottoSettings, build_sources
    from bot.store.db import open_engine

    names = [n.strip() for item in args.sources for n in item.split(",") if n.strip()]
    unknown = [n for n in names if n not in SOURCE_NAMES]
    if unknown:
        print(f"unknown source {', '.join(unknown)}; the sources are {', '.join(SOURCE_NAMES)}")
        return EXIT_NOT_STORED
    try:
        settings = LottoSettings.from_env()
    except ValueError as exc:
        print(f"bad setting: {exc}")
        return EXIT_NOT_STORED
    engine = open_engine(args.db)
    try:
        with Session(engine) as session:
            outcome = fetch_draw(session, args.date, build_sources(settings, names))
        for line in outcome.lines():
            print(line)
        if outcome.status is Status.STORED:
            _let_campaigns_move_on(engine)
    finally:
        engine.dispose()
    return EXIT_STORED if outcome.stored and not outcome.alert else EXIT_NOT_STORED


def _let_campaigns_move_on(engine: Engine) -> None:
    """As `legatus lotto import` does: campaigns waiting for this draw resolve what it decides."""
    from bot.service.legatus import Legatus

    service = Legatus(engine)
    for name in service.campaign_names():
        messages = service.pump(name)
        if messages:
            print(f"Campaign '{name}':")
            for message in messages:
                print(f"  {message}")


def _day(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date (YYYY-MM-DD)") from None
