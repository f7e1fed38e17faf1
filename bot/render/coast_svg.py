"""An area map over a coastline (bot/render/coast_layout.py) in SVG: the same layers as the PNG, cut by clip paths.

The land is one path, used as a clip for the land areas and their borders and, with the frame, to keep the seas and
their borders off the land; an attacked area's frame is its cell's outline and the coast's, each stroked twice as
wide inside a clip of the cell and the ground, so that the band lies inside the area's whole outline.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from xml.sax.saxutils import quoteattr

from bot.render.coast_png import COAST, OFF_LAND, OFF_SEA, SHORE
from bot.render.layout_parts import MapLayout, Point, Shape
from bot.render.palette import ATTACK_RED, INK, SEA_FILL, RGB, rgb_to_hex


def _c(rgb: RGB | None) -> str:
    return "none" if rgb is None else rgb_to_hex(rgb)


def _n(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _path(rings: Sequence[Sequence[Point]]) -> str:
    return "".join("M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in ring) + "Z" for ring in rings)


def coast_svg(layout: MapLayout, pattern_id: Callable[[str], str], shape: Callable[[Shape], str]) -> list[str]:
    """The map's frame: seas, land, areas, borders, coast and what is drawn over them; ``pattern_id`` names a
    power's hatching pattern, ``shape`` writes a Shape."""
    gx0, gy0, gx1, gy1 = layout.grid
    frame = f'x="{gx0}" y="{gy0}" width="{gx1 - gx0}" height="{gy1 - gy0}"'
    land = _path(layout.land)
    u = layout.width / 1600
    out = [
        "<defs>",
        f'<clipPath id="frame"><rect {frame}/></clipPath>',
        f'<clipPath id="land"><path d="{land}"/></clipPath>',
        # The sea: the frame with the land cut out of it (even-odd: the rings never overlap).
        f'<clipPath id="sea"><path clip-rule="evenodd" d="M{gx0} {gy0} L{gx1} {gy0} L{gx1} {gy1} L{gx0} {gy1}Z{land}"/>'
        '</clipPath>',
    ]
    attacked = [a for a in layout.areas if a.attacked]
    for i, area in enumerate(attacked):
        out.append(f'<clipPath id="cell-{i}"><polygon points="{_points(area.polygon)}"/></clipPath>')
    out.append("</defs>")
    out.append(f'<g class="board" clip-path="url(#frame)"><rect {frame} fill="{_c(OFF_SEA)}"/>')
    # The seas and their borders whole: the land painted over them cuts them at the coast.
    out.append('<g class="seas">')
    for area in layout.areas:
        if area.clip == "sea":
            pts = _points(area.polygon)
            out.append(f'<g class="sea" data-name={quoteattr(area.name)}><polygon points="{pts}" '
                       f'fill="{_c(area.tint or SEA_FILL)}"/><polygon points="{pts}" fill="url(#p-sea)"/></g>')
    out.append("</g>")
    out.append('<g class="sea-borders">')
    out.extend(shape(s) for s in layout.sea_borders)
    out.append("</g>")
    coast = "".join("M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in line) for line in layout.coast)
    out.append(f'<path class="shore" d="{coast}" fill="none" stroke="{_c(SHORE)}" stroke-width="{_n(5 * u)}"/>')
    out.append(f'<path class="land" d="{land}" fill="{_c(OFF_LAND)}"/>')
    out.append('<g class="areas" clip-path="url(#land)">')
    for area in layout.areas:
        if area.clip != "land":
            continue
        style = layout.styles[area.style]
        pts = _points(area.polygon)
        out.append(f'<g class="province" data-name={quoteattr(area.name)} data-owner={quoteattr(area.owner or "")}>'
                   f'<polygon points="{pts}" fill="{_c(style.fill)}"/>'
                   f'<polygon points="{pts}" fill="url(#{pattern_id(area.style)})"/></g>')
    out.append("</g>")
    out.append('<g class="land-borders" clip-path="url(#land)">')
    out.extend(shape(s) for s in layout.land_borders)
    out.append("</g>")
    out.append(f'<path class="coast" d="{coast}" fill="none" stroke="{_c(COAST)}" stroke-width="1.1"/>')
    a = layout.attack_border
    for i, area in enumerate(attacked):
        ground = 'clip-path="url(#land)"' if area.clip == "land" else 'clip-path="url(#sea)"'
        pts = _points(area.polygon)
        band = []
        for colour, width in ((INK, 2 * a), (ATTACK_RED, 2 * a - 2)):
            band.append(f'<polygon points="{pts}" fill="none" stroke="{_c(colour)}" stroke-width="{width}"/>'
                        f'<path d="{land}" fill="none" stroke="{_c(colour)}" stroke-width="{width}"/>')
        out.append(f'<g class="attacked" data-name={quoteattr(area.name)} {ground}><g clip-path="url(#cell-{i})">'
                   f'{"".join(band)}</g></g>')
    out.append("</g>")
    out.append('<g class="overlays">')
    out.extend(shape(s) for s in layout.overlays)
    out.append("</g>")
    return out
