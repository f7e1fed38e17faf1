"""Icons drawn with shapes (capital, fortification, suburbs, temple, battle, fleet and pirate badges, the legend's
"attacked" sample) and the hatching patterns: the primitives both painters, PNG and SVG, draw the same way."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bot.render.layout_parts import Box, Icon, Point, Shape
from bot.render.palette import ATTACK_RED, INK, WHITE, SeatStyle, RGB, mix, style_of

GOLD: RGB = (0xF2, 0xC1, 0x2E)
BADGE: RGB = (0xFD, 0xFC, 0xF8)
PIRATE: RGB = (0x1A, 0x1A, 0x1A)
# The lines of a coast map's key (bot/render/coast_layout.py): colour, width as a share of the icon, dashed.
LINE_KEYS: dict[str, tuple[RGB, float, bool]] = {
    "closed": ((0x6B, 0x4A, 0x2E), 0.16, False),
    "crossing": (INK, 0.1, True),
}


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> tuple[Point, ...]:
    out = []
    for i in range(points * 2):
        angle = -math.pi / 2 + i * math.pi / points
        rr = r if i % 2 == 0 else r * inner
        out.append((cx + rr * math.cos(angle), cy + rr * math.sin(angle)))
    return tuple(out)


def _rotated(points: Sequence[Point], cx: float, cy: float, angle: float) -> tuple[Point, ...]:
    c, s = math.cos(angle), math.sin(angle)
    return tuple((cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in points)


def _badge(box: Box, fill: RGB, outline: RGB, line: float) -> Shape:
    x0, y0, x1, y1 = box
    return Shape("rect", ((x0, y0), (x1 - 1, y1 - 1)), fill, outline, line, radius=(y1 - y0) * 0.28)


def _ship(x: float, y: float, s: float, hull: RGB, sail: RGB, line: float, ink: RGB) -> list[Shape]:
    """A galley with a square sail, in the square (x, y, s)."""
    return [
        Shape("polygon", ((x + s * 0.5, y + s * 0.14), (x + s * 0.5, y + s * 0.6), (x + s * 0.2, y + s * 0.6)),
              sail, ink, line * 0.7),
        Shape("polygon", ((x + s * 0.56, y + s * 0.2), (x + s * 0.84, y + s * 0.6), (x + s * 0.56, y + s * 0.6)),
              sail, ink, line * 0.7),
        Shape("polygon", ((x + s * 0.08, y + s * 0.66), (x + s * 0.92, y + s * 0.66), (x + s * 0.76, y + s * 0.86),
                          (x + s * 0.24, y + s * 0.86)), hull, ink, line * 0.7),
    ]


def _swords(cx: float, cy: float, r: float, colour: RGB) -> list[Shape]:
    shapes = []
    for angle in (math.pi / 4, -math.pi / 4):
        w = r * 0.13
        blade = ((cx - w, cy - r * 0.95), (cx + w, cy - r * 0.95), (cx + w, cy + r * 0.45), (cx - w, cy + r * 0.45))
        tip = ((cx - w, cy - r * 0.95), (cx, cy - r * 1.15), (cx + w, cy - r * 0.95))
        guard = ((cx - r * 0.38, cy + r * 0.42), (cx + r * 0.38, cy + r * 0.42), (cx + r * 0.38, cy + r * 0.58),
                 (cx - r * 0.38, cy + r * 0.58))
        grip = ((cx - w * 0.9, cy + r * 0.58), (cx + w * 0.9, cy + r * 0.58), (cx + w * 0.9, cy + r * 0.95),
                (cx - w * 0.9, cy + r * 0.95))
        for part in (blade, tip, guard, grip):
            shapes.append(Shape("polygon", _rotated(part, cx, cy, angle), colour))
    return shapes


def icon_shapes(icon: Icon, styles: Mapping[str, SeatStyle], attack_border: int = 3) -> list[Shape]:
    """The primitives that draw an icon: the same in the PNG and in the SVG."""
    x0, y0, x1, y1 = icon.box
    w, h = x1 - x0, y1 - y0
    s = min(w, h)
    line = max(1.0, s / 16)
    cx, cy = x0 + w / 2, y0 + h / 2
    kind = icon.kind
    if kind == "swatch":
        return []  # painted like a tile, with the seat's pattern
    if kind == "attacked":
        return [Shape("rect", ((x0, y0), (x1 - 1, y1 - 1)), mix(INK, WHITE, 0.8), INK, line),
                Shape("rect", ((x0 + line, y0 + line), (x1 - 1 - line, y1 - 1 - line)), None, ATTACK_RED, max(2.0, s / 6))]
    if kind in LINE_KEYS:
        # The legend's sample of a coast map's line: on a patch of land, the line as the map draws it.
        colour, width, dashed = LINE_KEYS[kind]
        shapes = [Shape("rect", ((x0, y0), (x1 - 1, y1 - 1)), mix(INK, WHITE, 0.85), mix(INK, WHITE, 0.5), line)]
        steps = 3 if dashed else 1
        for i in range(steps):
            a, b = x0 + 2 + (w - 4) * i / steps, x0 + 2 + (w - 4) * (i + (0.6 if dashed else 1)) / steps
            shapes.append(Shape("line", ((a, y1 - 3 - (a - x0) * (h - 6) / w), (b, y1 - 3 - (b - x0) * (h - 6) / w)),
                                outline=colour, width=max(1.5, s * width)))
        return shapes
    if kind == "more":
        return [_badge(icon.box, BADGE, INK, line)]
    if kind in ("fleet", "pirates"):
        if kind == "fleet":
            st = style_of(styles, icon.seat)
            shapes = [_badge(icon.box, st.fill, st.ink if st.text == INK else INK, line)]
            if icon.compact:
                return shapes
            shapes += _ship(x0 + h * 0.08, y0 + h * 0.04, h * 0.9, INK if st.text == INK else WHITE, BADGE, line, INK)
            return shapes
        shapes = [_badge(icon.box, PIRATE, INK, line)]
        if icon.compact:
            return shapes
        hx, hy, r = x0 + h * 0.5, y0 + h * 0.45, h * 0.27
        shapes.append(Shape("ellipse", ((hx - r, hy - r), (hx + r, hy + r * 0.9)), WHITE))
        shapes.append(Shape("rect", ((hx - r * 0.6, hy + r * 0.5), (hx + r * 0.6, hy + r * 1.35)), WHITE))
        for ex in (-0.42, 0.42):
            e = r * 0.3
            shapes.append(Shape("ellipse", ((hx + ex * r - e, hy - e * 0.6), (hx + ex * r + e, hy + e * 1.4)), PIRATE))
        return shapes
    if kind == "battle":
        return [Shape("ellipse", ((x0, y0), (x1 - 1, y1 - 1)), ATTACK_RED, INK, line),
                *_swords(cx, cy + s * 0.02, s * 0.36, WHITE)]
    shapes = [_badge(icon.box, BADGE, INK, line)]
    if kind == "capital":
        shapes.append(Shape("polygon", _star(cx, cy + s * 0.03, s * 0.42), GOLD, INK, line))
    elif kind == "fortification":
        # A wall with three merlons and a gate.
        left, right, top, bottom = x0 + s * 0.16, x1 - s * 0.16, y0 + s * 0.22, y1 - s * 0.18
        m = (right - left) / 5
        outline = [(left, bottom), (left, top)]
        for i in range(5):
            yy = top if i % 2 == 0 else top + s * 0.14
            outline += [(left + i * m, yy), (left + (i + 1) * m, yy)]
        outline += [(right, top), (right, bottom)]
        shapes.append(Shape("polygon", tuple(outline), mix(INK, WHITE, 0.35), INK, line * 0.8))
        gw = s * 0.12
        shapes.append(Shape("rect", ((cx - gw, bottom - s * 0.26), (cx + gw, bottom)), INK, radius=gw * 0.9))
    elif kind == "suburbs":
        for hx, hs in ((x0 + s * 0.12, s * 0.4), (x0 + s * 0.48, s * 0.42)):
            base = y1 - s * 0.18
            body = ((hx, base), (hx, base - hs * 0.62), (hx + hs / 2, base - hs * 1.12), (hx + hs, base - hs * 0.62),
                    (hx + hs, base))
            shapes.append(Shape("polygon", body, mix(INK, WHITE, 0.55), INK, line * 0.8))
            dw = hs * 0.18
            shapes.append(Shape("rect", ((hx + hs / 2 - dw, base - hs * 0.36), (hx + hs / 2 + dw, base)), INK))
    elif kind == "temple":
        left, right = x0 + s * 0.14, x1 - s * 0.14
        top, roof, base = y0 + s * 0.16, y0 + s * 0.38, y1 - s * 0.16
        shapes.append(Shape("polygon", ((left - s * 0.02, roof), (cx, top), (right + s * 0.02, roof)), INK))
        shapes.append(Shape("rect", ((left, base - s * 0.08), (right, base)), INK))
        cw = (right - left) / 7
        for i in range(4):
            colx = left + cw * (0.5 + 2 * i)
            shapes.append(Shape("rect", ((colx, roof + s * 0.04), (colx + cw, base - s * 0.1)), INK))
    return shapes


def pattern_lines(box: Box, pattern: str, step: int) -> list[tuple[Point, Point]]:
    """The strokes of a hatching pattern over a box, as segments; dots are returned as zero-length segments."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    out: list[tuple[Point, Point]] = []
    if pattern in ("diagonal", "crosshatch"):
        for k in range(-h, w, step):
            out.append(((x0 + k, y1), (x0 + k + h, y0)))
    if pattern in ("antidiagonal", "crosshatch"):
        for k in range(0, w + h, step):
            out.append(((x0 + k - h, y0), (x0 + k, y1)))
    if pattern in ("horizontal", "grid"):
        for y in range(y0 + step // 2, y1, step):
            out.append(((x0, y), (x1, y)))
    if pattern in ("vertical", "grid"):
        for x in range(x0 + step // 2, x1, step):
            out.append(((x, y0), (x, y1)))
    if pattern in ("dots", "checks"):
        spacing = step if pattern == "dots" else step * 2
        for j, y in enumerate(range(y0 + spacing // 2, y1, spacing)):
            shift = spacing // 2 if j % 2 else 0
            for x in range(x0 + spacing // 2 + shift, x1, spacing):
                out.append(((x, y), (x, y)))
    if pattern == "waves":
        for y in range(y0 + step // 2, y1, step):
            pts = [(x0 + i * step / 2, y + (step / 5 if i % 2 else -step / 5)) for i in range(int(w * 2 / step) + 2)]
            out.extend(zip(pts[:-1], pts[1:]))
    return out
