"""`legatus map` and `legatus chart`: the campaign map and its history charts, written to files.

    legatus map --db camp.db [--campaign NAME] --out map.png [--turn N] [--width 1600] [--svg map.svg]
    legatus chart --db camp.db [--campaign NAME] --kind KIND --out chart.png [--width 1200]

Both draw the ruleset's ``picture(state)``: the kinds of chart are those the game's picture carries
(e.g. provinces, stability).

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

    sp = sub.add_parser("chart", help="draw a value per power over the turns (provinces, stability, ...) as a PNG")
    db_arg(sp)
    sp.add_argument("--kind", required=True, help="the chart to draw, one of those the game keeps (provinces, ...)")
    sp.add_argument("--out", type=Path, required=True, help="the PNG file to write")
    sp.add_argument("--width", type=int, default=1200, help="the image's width in pixels (default 1200)")
    sp.set_defaults(func=cmd_chart)
    # The campaign site draws these same maps and charts: `legatus site`, and `legatus run --web` (bot/cli/site.py).
    from bot.cli.site import add_commands as add_site

    add_site(sub)


def _write(path: Path, data: bytes | str) -> None:
    if path.parent and not path.parent.exists():
        raise FileNotFoundError(f"the folder {path.parent} does not exist")
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


def cmd_map(args: argparse.Namespace) -> int:
    from bot.cli.reading import folded
    from bot.render.history import TurnNotPlayed
    from bot.render.layout import MIN_WIDTH
    from bot.render.map_png import render_png
    from bot.store.campaign_names import CampaignNotFound

    def render_svg(picture: Any, width: int) -> str:  # only when asked: its XML escaping imports urllib and http
        from bot.render.map_svg import render_svg as svg

        return svg(picture, width)

    if not MIN_WIDTH <= args.width <= MAX_WIDTH:
        return fail(f"--width {args.width}: give a width between {MIN_WIDTH} and {MAX_WIDTH} pixels")
    svg_out = args.out.suffix.lower() == ".svg"
    if not svg_out and args.out.suffix.lower() != ".png":
        return fail(f"--out {args.out}: the map is written as .png or .svg")
    try:
        ruleset, state = folded(args.db, args.campaign, args.turn)
        picture = ruleset.picture(state)
        written = []
        if svg_out:
            _write(args.out, render_svg(picture, args.width))
        else:
            _write(args.out, render_png(picture, args.width))
        written.append(str(args.out))
        if args.svg is not None and args.svg != args.out:
            _write(args.svg, render_svg(picture, args.width))
            written.append(str(args.svg))
    except (CampaignNotFound, TurnNotPlayed, LookupError) as exc:
        return fail(str(exc.args[0]) if exc.args else str(exc))
    except OSError as exc:
        return fail(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}", EXIT_FAILED)
    label = ruleset.summary(state).turn_label
    print(f"Map of {label[:1].lower() + label[1:]} written to {' and '.join(written)}")
    return 0


def cmd_chart(args: argparse.Namespace) -> int:
    from bot.cli.reading import folded
    from bot.render.charts import chart_of, render_chart
    from bot.store.campaign_names import CampaignNotFound
    from engine.names import counted

    if not 400 <= args.width <= MAX_WIDTH:
        return fail(f"--width {args.width}: give a width between 400 and {MAX_WIDTH} pixels")
    if args.out.suffix.lower() != ".png":
        return fail(f"--out {args.out}: charts are written as .png")
    try:
        ruleset, state = folded(args.db, args.campaign)
        picture = ruleset.picture(state)
        chart = chart_of(picture, args.kind)
        _write(args.out, render_chart(picture, args.kind, args.width))
    except ValueError as exc:  # a kind of chart the game does not keep
        return fail(f"--kind {args.kind}: {exc}")
    except (CampaignNotFound, LookupError) as exc:
        return fail(str(exc.args[0]) if exc.args else str(exc))
    except OSError as exc:
        return fail(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}", EXIT_FAILED)
    steps = len(chart.steps)
    print(f"Chart of {args.kind} over {counted(steps, f'closed {chart.x_name}')} written to {args.out}")
    return 0
