"""`legatus map` and `legatus chart`: the campaign map and its history charts, written to files.

    legatus map --db camp.db [--campaign NAME] --out map.png [--turn N] [--width 1600] [--svg map.svg]
    legatus chart --db camp.db [--campaign NAME] --kind provinces|stability --out chart.png [--width 1200]

``bot/cli/main.py`` adds these commands with ``add_commands(sub)``. Each handler prints one line when it has
written its files and returns 0; on a mistake it prints one line saying what is wrong and returns 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXIT_USAGE = 2
EXIT_FAILED = 1
# The map is painted at twice its size: 4000 px wide already means a canvas of about 190 MB.
MAX_WIDTH = 4000


def fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"legatus: {message}", file=sys.stderr)
    return code


def add_commands(sub: Any) -> None:
    """Add `map` and `chart` to the `legatus` subparsers (the object ``add_subparsers`` returned)."""

    def db_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--db", default=None, help="the SQLite file (default: $DATABASE_URL, else legatus.db)")
        sp.add_argument("--campaign", default=None, help="the campaign's name, when the file holds several")

    sp = sub.add_parser("map", help="draw the campaign map as a PNG (or SVG)")
    db_arg(sp)
    sp.add_argument("--out", type=Path, required=True, help="the image to write: .png, or .svg for an SVG")
    sp.add_argument("--svg", type=Path, default=None, metavar="FILE", help="also write the map as SVG to FILE")
    sp.add_argument("--turn", type=int, default=None, metavar="N", help="the map as it was when turn N closed")
    sp.add_argument("--width", type=int, default=1600, help="the image's width in pixels (default 1600)")
    sp.set_defaults(func=cmd_map)

    sp = sub.add_parser("chart", help="draw provinces or stability per nation over the turns as a PNG")
    db_arg(sp)
    sp.add_argument("--kind", choices=("provinces", "stability"), required=True)
    sp.add_argument("--out", type=Path, required=True)
    sp.add_argument("--width", type=int, default=1200, help="the image's width in pixels (default 1200)")
    sp.set_defaults(func=cmd_chart)


def _service(args: argparse.Namespace) -> Any:
    from bot.store.db import open_engine
    from bot.service.legatus import Legatus

    return Legatus(open_engine(args.db))


def _rules(service: Any, view: dict[str, Any]) -> Any:
    from engine.rulesets import load_ruleset

    ruleset = load_ruleset(str(view["ruleset"]), service.data_dir)
    rules = getattr(ruleset, "rules", None)
    if rules is None or getattr(rules, "map", None) is None:
        raise LookupError(f"the '{view['ruleset']}' ruleset has no map to draw")
    return rules


def _write(path: Path, data: bytes | str) -> None:
    if path.parent and not path.parent.exists():
        raise FileNotFoundError(f"the folder {path.parent} does not exist")
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


def cmd_map(args: argparse.Namespace) -> int:
    from bot.render.history import TurnNotPlayed, state_at_turn
    from bot.render.layout import MIN_WIDTH
    from bot.render.map_png import render_png
    from bot.render.map_svg import render_svg
    from bot.service.legatus import CampaignNotFound

    if not MIN_WIDTH <= args.width <= MAX_WIDTH:
        return fail(f"--width {args.width}: give a width between {MIN_WIDTH} and {MAX_WIDTH} pixels")
    svg_out = args.out.suffix.lower() == ".svg"
    if not svg_out and args.out.suffix.lower() != ".png":
        return fail(f"--out {args.out}: the map is written as .png or .svg")
    try:
        service = _service(args)
        view = state_at_turn(service, args.campaign, args.turn)
        rules = _rules(service, view)
        written = []
        if svg_out:
            _write(args.out, render_svg(rules.map, rules.nations, view, args.width))
        else:
            _write(args.out, render_png(rules.map, rules.nations, view, args.width))
        written.append(str(args.out))
        if args.svg is not None and args.svg != args.out:
            _write(args.svg, render_svg(rules.map, rules.nations, view, args.width))
            written.append(str(args.svg))
    except (CampaignNotFound, TurnNotPlayed, LookupError) as exc:
        return fail(str(exc.args[0]) if exc.args else str(exc))
    except OSError as exc:
        return fail(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}", EXIT_FAILED)
    turn = view.get("turn") or 0
    when = f"turn {turn} ({view['year']})" if turn and view.get("year") else ("turn %d" % turn if turn else "before turn 1")
    print(f"Map of {when} written to {' and '.join(written)}")
    return 0


def cmd_chart(args: argparse.Namespace) -> int:
    from bot.render.charts import render_chart
    from bot.service.legatus import CampaignNotFound

    if not 400 <= args.width <= MAX_WIDTH:
        return fail(f"--width {args.width}: give a width between 400 and {MAX_WIDTH} pixels")
    if args.out.suffix.lower() != ".png":
        return fail(f"--out {args.out}: charts are written as .png")
    try:
        service = _service(args)
        view = service.state(args.campaign)
        rules = _rules(service, view)
        data = render_chart(view, args.kind, args.width, nations_data=rules.nations, year_of=rules.year)
        _write(args.out, data)
    except (CampaignNotFound, LookupError) as exc:
        return fail(str(exc.args[0]) if exc.args else str(exc))
    except OSError as exc:
        return fail(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}", EXIT_FAILED)
    turns = len(view.get("history", []))
    print(f"Chart of {args.kind} over {turns} closed turn{'s' if turns != 1 else ''} written to {args.out}")
    return 0
