"""The campaign map as SVG, from the same layout as the PNG: for the web and for printing at any size.

Text carries ``textLength`` so that, whatever font the viewer has, every label keeps the box the layout
measured for it with the bundled font, and labels cannot run into each other.
"""
from __future__ import annotations

import base64

from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from bot.render.coast_svg import coast_svg
from bot.render.layout import Box, Label, MapLayout, Shape, ascent, build_layout, font, icon_shapes, stroke
from bot.render.palette import (
    ATTACK_RED, BACKGROUND, GRID_FILL, HEADER_FILL, INK, LEGEND_FILL, SEA_FILL, SEA_WAVE, RGB, mix, pattern_ink,
    rgb_to_hex,
)
from engine.ruleset import Picture

FONTS = "'Legatus Aileron', Aileron, 'Helvetica Neue', Helvetica, Arial, sans-serif"


def render_svg(picture: Picture, width: int = 1600, *, embed_font: bool = True) -> str:
    """The map ``picture`` (a ruleset's ``picture(state)``) as an SVG document.

    ``embed_font`` puts the bundled font (13 kB, public domain) in the file, so browsers draw the labels
    exactly as measured; without it they fall back to a sans-serif squeezed to the same widths.
    """
    return paint_svg(build_layout(picture, width), embed_font=embed_font)


@lru_cache(maxsize=1)
def _font_face() -> str:
    data = getattr(font(12), "font_bytes", b"")
    if not data:
        return ""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<style>@font-face{{font-family:"Legatus Aileron";src:url(data:font/ttf;base64,{encoded}) format("truetype")}}</style>'


def _c(rgb: RGB | None) -> str:
    return "none" if rgb is None else rgb_to_hex(rgb)


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _id(name: str) -> str:
    return "p-" + "".join(c if c.isalnum() else "_" for c in name)


def _pattern_def(pid: str, pattern: str, ink: RGB, step: int) -> str:
    s = _n(step)
    line = f'stroke="{_c(ink)}" stroke-width="1.1"'
    if pattern in ("diagonal", "antidiagonal", "crosshatch"):
        # Horizontal lines turned 45 degrees; the PNG spaces them ``step`` apart along x, i.e. step/sqrt(2) apart.
        d = step / 2**0.5
        sd, half = _n(d), _n(d / 2)
        body = f'<line x1="0" y1="{half}" x2="{sd}" y2="{half}" {line}/>'
        if pattern == "crosshatch":
            body += f'<line x1="{half}" y1="0" x2="{half}" y2="{sd}" {line}/>'
        angle = -45 if pattern == "diagonal" else 45
        return (f'<pattern id="{pid}" patternUnits="userSpaceOnUse" width="{sd}" height="{sd}" '
                f'patternTransform="rotate({angle})">{body}</pattern>')
    if pattern in ("horizontal", "vertical", "grid"):
        half = _n(step / 2)
        body = ""
        if pattern in ("horizontal", "grid"):
            body += f'<line x1="0" y1="{half}" x2="{s}" y2="{half}" {line}/>'
        if pattern in ("vertical", "grid"):
            body += f'<line x1="{half}" y1="0" x2="{half}" y2="{s}" {line}/>'
        return f'<pattern id="{pid}" patternUnits="userSpaceOnUse" width="{s}" height="{s}">{body}</pattern>'
    if pattern in ("dots", "checks"):
        # As in the PNG: a dot every ``spacing`` along each row, every other row shifted by half.
        spacing = step if pattern == "dots" else step * 2
        r = _n(max(0.75, step / 7))
        w, h = _n(spacing), _n(spacing * 2)
        a, b = _n(spacing / 2), _n(spacing * 1.5)
        dot = f'r="{r}" fill="{_c(ink)}"'
        body = (f'<circle cx="{a}" cy="{a}" {dot}/><circle cx="0" cy="{b}" {dot}/>'
                f'<circle cx="{w}" cy="{b}" {dot}/>')
        return f'<pattern id="{pid}" patternUnits="userSpaceOnUse" width="{w}" height="{h}">{body}</pattern>'
    # waves
    q = step / 5
    path = f"M0 {_n(step / 2 - q)} L{_n(step / 2)} {_n(step / 2 + q)} L{s} {_n(step / 2 - q)}"
    return (f'<pattern id="{pid}" patternUnits="userSpaceOnUse" width="{s}" height="{s}">'
            f'<path d="{path}" fill="none" {line}/></pattern>')


def _tile(box: Box, fill: RGB, pattern_id: str, radius: int, border: int, outline: RGB | None, extra: str = "") -> str:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    inset = border / 2
    common = f'x="{_n(x0 + inset)}" y="{_n(y0 + inset)}" width="{_n(w - border)}" height="{_n(h - border)}" rx="{radius}"'
    out = f'<g{extra}><rect {common} fill="{_c(fill)}"/><rect {common} fill="url(#{pattern_id})"'
    if border and outline is not None:
        out += f' stroke="{_c(outline)}" stroke-width="{border}"'
    return out + "/></g>"


def _shape(shape: Shape) -> str:
    stroke_attr = (f' stroke="{_c(shape.outline)}" stroke-width="{_n(shape.width)}" stroke-linejoin="round"'
                   if shape.outline is not None and shape.width else "")
    fill = _c(shape.fill)
    if shape.kind == "polygon":
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
        return f'<polygon points="{pts}" fill="{fill}"{stroke_attr}/>'
    if shape.kind == "rect":
        (ax, ay), (bx, by) = shape.points
        x, y = min(ax, bx), min(ay, by)
        w, h = abs(bx - ax) + 1, abs(by - ay) + 1
        rx = f' rx="{_n(shape.radius)}"' if shape.radius else ""
        return f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{rx} fill="{fill}"{stroke_attr}/>'
    if shape.kind == "ellipse":
        (ax, ay), (bx, by) = shape.points
        return (f'<ellipse cx="{_n((ax + bx + 1) / 2)}" cy="{_n((ay + by + 1) / 2)}" rx="{_n((bx - ax + 1) / 2)}" '
                f'ry="{_n((by - ay + 1) / 2)}" fill="{fill}"{stroke_attr}/>')
    pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
    return f'<polyline points="{pts}" fill="none"{stroke_attr}/>'


def _label(label: Label) -> str:
    parts = [f'<g class="label {label.kind}" data-place={quoteattr(label.place)}>']
    if label.plate is not None:
        x0, y0, x1, y1 = label.box
        radius = max(2, (y1 - y0) // 5)
        outline = f' stroke="{_c(label.plate_outline)}" stroke-width="1"' if label.plate_outline else ""
        parts.append(f'<rect x="{x0 + 0.5}" y="{y0 + 0.5}" width="{x1 - x0 - 1}" height="{y1 - y0 - 1}" rx="{radius}" '
                     f'fill="{_c(label.plate)}"{outline}/>')
    weight = ' font-weight="bold"' if label.bold else ""
    sw = stroke(label.size, label.bold)
    for line, box in zip(label.lines, label.line_boxes):
        length = box[2] - box[0] - 2 * sw
        parts.append(
            f'<text x="{_n(box[0] + sw)}" y="{_n(box[1] + ascent(label.size))}" font-size="{label.size}"{weight} '
            f'fill="{_c(label.colour)}" textLength="{_n(length)}" lengthAdjust="spacingAndGlyphs">{escape(line)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def paint_svg(layout: MapLayout, embed_font: bool = True) -> str:
    styles = layout.styles
    w, h = layout.width, layout.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="{FONTS}">',
        f"<title>{escape(layout.title)} · {escape(layout.info['turn_text'])}</title>",
        "<defs>",
    ]
    if embed_font:
        out.append(_font_face())
    for name, style in styles.items():
        out.append(_pattern_def(_id(name), style.pattern, pattern_ink(style), layout.pattern_step))
        out.append(_pattern_def(_id(name) + "-small", style.pattern, pattern_ink(style),
                                max(4, layout.pattern_step * 2 // 3)))
    out.append(_pattern_def("p-sea", "waves", SEA_WAVE, layout.pattern_step))
    out.append("</defs>")
    out.append(f'<rect width="{w}" height="{h}" fill="{_c(BACKGROUND)}"/>')
    hx0, hy0, hx1, hy1 = layout.header
    out.append(f'<rect x="{hx0}" y="{hy0}" width="{hx1 - hx0}" height="{hy1 - hy0}" fill="{_c(HEADER_FILL)}"/>')
    out.append(f'<line x1="0" y1="{hy1}" x2="{w}" y2="{hy1}" stroke="{_c(mix(HEADER_FILL, INK, 0.25))}"/>')
    gx0, gy0, gx1, gy1 = layout.grid
    out.append(f'<rect x="{gx0 - 3}" y="{gy0 - 3}" width="{gx1 - gx0 + 6}" height="{gy1 - gy0 + 6}" rx="6" '
               f'fill="{_c(GRID_FILL)}"/>')
    lx0, ly0, lx1, ly1 = layout.legend_box
    out.append(f'<rect x="{lx0}" y="{ly0}" width="{lx1 - lx0}" height="{ly1 - ly0}" rx="8" fill="{_c(LEGEND_FILL)}" '
               f'stroke="{_c(mix(LEGEND_FILL, INK, 0.2))}"/>')
    if layout.land or layout.areas:
        out.extend(coast_svg(layout, _id, _shape))
    out.append('<g class="tiles">')
    for cell in layout.cells:
        if cell.kind == "sea":
            out.append(_tile(cell.box, SEA_FILL, "p-sea", layout.radius, 0, None,
                             f' class="sea" data-name={quoteattr(cell.name)}'))
            continue
        style = styles[cell.style]
        extra = f' class="province" data-name={quoteattr(cell.name)} data-owner={quoteattr(cell.owner or "")}'
        out.append(_tile(cell.box, style.fill, _id(cell.style), layout.radius, layout.border, style.ink, extra))
    for cell in layout.cells:
        if cell.attacked:
            x0, y0, x1, y1 = cell.box
            a = layout.attack_border
            out.append(f'<rect class="attacked" x="{x0 + a / 2}" y="{y0 + a / 2}" width="{x1 - x0 - a}" height="{y1 - y0 - a}" '
                       f'rx="{layout.radius}" fill="none" stroke="{_c(INK)}" stroke-width="{a}"/>')
            out.append(f'<rect x="{x0 + a / 2}" y="{y0 + a / 2}" width="{x1 - x0 - a}" height="{y1 - y0 - a}" '
                       f'rx="{layout.radius}" fill="none" stroke="{_c(ATTACK_RED)}" stroke-width="{a - 2}"/>')
    out.append("</g>")
    out.append('<g class="icons">')
    for icon in layout.icons:
        if icon.kind == "swatch":
            style = styles[icon.seat or ""]
            out.append(_tile(icon.box, style.fill, _id(style.name) + "-small", max(2, layout.radius // 2), layout.border,
                             style.ink, f' class="swatch" data-name={quoteattr(style.name)}'))
            continue
        shapes = "".join(_shape(s) for s in icon_shapes(icon, styles, layout.attack_border))
        seat = f" data-seat={quoteattr(icon.seat)}" if icon.seat else ""
        out.append(f'<g class="icon {icon.kind}" data-place={quoteattr(icon.place)}{seat}>{shapes}</g>')
    out.append("</g>")
    out.append('<g class="labels">')
    out.extend(_label(label) for label in layout.labels)
    out.append("</g></svg>")
    return "\n".join(out) + "\n"
