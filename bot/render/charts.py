"""Line charts of a campaign's history (``Picture.charts``): a value per power, turn by turn, drawn with Pillow.

Each seat keeps its map colour and also gets its own marker and dash pattern, and every line has a dark
edge so that light colours (yellow) read on the pale background. Lines whose values coincide are nudged
apart by a few pixels, the whole bundle never wider than half a unit, so a tie shows as a bundle, not as one line.
"""
from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.layout import Box, Point, font, line_height, picture_styles, printable, stroke, text_width
from bot.render.palette import BACKGROUND, INDEPENDENT, INK, WHITE, SeatStyle, RGB, mix
from engine.ruleset import ChartSeries, Picture

SS = 2
PLOT_FILL: RGB = mix(BACKGROUND, WHITE, 0.6)
GRID: RGB = mix(PLOT_FILL, INK, 0.12)


@dataclass(frozen=True)
class Series:
    seat: str
    style: SeatStyle
    values: tuple[tuple[int, int], ...]  # (turn, value)
    points: tuple[Point, ...]  # where each value is drawn, in final pixels


@dataclass(frozen=True)
class LegendItem:
    seat: str
    text: str
    sample: Box  # the line sample with its marker
    text_at: Point
    size: int


@dataclass(frozen=True)
class ChartLayout:
    width: int
    height: int
    kind: str
    title: str
    subtitle: str
    plot: Box
    y_range: tuple[int, int]
    y_ticks: tuple[int, ...]
    x_ticks: tuple[tuple[int, float, str], ...]  # turn, x, label
    series: tuple[Series, ...]
    legend: tuple[LegendItem, ...]
    pad_y: int = 0  # values sit this far inside the frame, so a seat at 0 is not hidden by the axis
    year_of: Callable[[int], str] | None = None  # the label under each step's number ("290 BC"), if any
    x_name: str = "turn"

    def y_of(self, value: float) -> float:
        return _y(self.plot, self.y_range, self.pad_y, value)


def _y(plot: Box, y_range: tuple[int, int], pad_y: int, value: float) -> float:
    lo, hi = y_range
    return plot[3] - pad_y - (plot[3] - plot[1] - 2 * pad_y) * (value - lo) / max(1, hi - lo)


def chart_of(picture: Picture, kind: str) -> ChartSeries:
    for chart in picture.charts:
        if chart.kind == kind:
            return chart
    known = [c.kind for c in picture.charts]
    raise ValueError(f"unknown chart '{kind}': choose {' or '.join(known) if known else 'a chart the game draws'}")


def _history_values(chart: ChartSeries) -> tuple[list[int], dict[str, list[tuple[int, int]]]]:
    turns: list[int] = []
    values: dict[str, list[tuple[int, int]]] = {}
    for x, _label, record in chart.steps:
        turns.append(int(x))
        for power, value in record.items():
            values.setdefault(power, []).append((int(x), int(value)))
    return turns, values


def _nice_top(value: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if value <= step * 8:
            return max(step, math.ceil(value / step) * step)
    return value


def chart_layout(picture: Picture, kind: str, width: int = 1200, height: int | None = None,
                 title: str | None = None) -> ChartLayout:
    """Where everything of the chart ``kind`` of ``picture`` goes (``picture.charts``)."""
    chart = chart_of(picture, kind)
    width = max(400, int(width))
    height = int(height or round(width * 0.56))
    u = width / 1200
    styles = picture_styles(picture)
    turns, values = _history_values(chart)
    labels = {int(x): label for x, label, _r in chart.steps}
    year_of = (lambda t: labels.get(t, "")) if any(labels.values()) else None
    seats = [n for n in styles if n != INDEPENDENT and n in values] + [n for n in values if n not in styles]
    margin = round(28 * u)
    title_size, sub_size, tick_size, legend_size = (max(10, round(s * u)) for s in (28, 16, 14, 16))
    title = title or chart.title
    step_name = chart.x_name
    if turns:
        first, last = turns[0], turns[-1]
        span = f"{step_name} {first}" if first == last else f"{step_name}s {first} to {last}"
        if year_of is not None:
            span += f" ({year_of(first)}" + (f" to {year_of(last)})" if first != last else ")")
        subtitle = f"After each closed {step_name}, {span}"
    else:
        subtitle = f"No {step_name} has been closed yet"

    # Legend at the right: a line sample, then the seat and its latest value.
    sample_w = round(54 * u)
    entries = []
    for seat in seats:
        latest = values[seat][-1][1] if values.get(seat) else 0
        entries.append((seat, printable(f"{seat}  {latest}")))
    legend_w = sample_w + round(12 * u) + max((text_width(t, legend_size) for _n, t in entries), default=0)
    legend_x = width - margin - legend_w
    top = margin + line_height(title_size) + line_height(sub_size) + round(18 * u) + line_height(tick_size)
    y_max_value = max((v for series in values.values() for _t, v in series), default=0)
    if chart.top is not None:  # a level scale: every unit ticked
        lo, hi = min(0, min((v for s in values.values() for _t, v in s), default=0)), max(chart.top, y_max_value)
        y_ticks = tuple(range(lo, hi + 1))
    else:
        lo, hi = 0, _nice_top(max(5, y_max_value + 1))
        step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100) if (hi - lo) / s <= 10)
        y_ticks = tuple(range(lo, hi + 1, step))
    y_label_w = max(text_width(str(t), tick_size) for t in y_ticks)
    plot_x0 = margin + y_label_w + round(12 * u)
    plot_x1 = legend_x - round(28 * u)
    x_label_h = line_height(tick_size) * (2 if year_of else 1) + line_height(tick_size) + round(14 * u)
    plot = (plot_x0, top, plot_x1, height - margin - x_label_h)
    px0, py0, px1, py1 = plot
    first_turn = turns[0] if turns else 1
    last_turn = turns[-1] if turns else 1
    inner = round(18 * u)

    def x_of(turn: int) -> float:
        if last_turn == first_turn:
            return (px0 + px1) / 2
        return px0 + inner + (px1 - px0 - 2 * inner) * (turn - first_turn) / (last_turn - first_turn)

    pad_y = round(12 * u)

    def y_of(value: float) -> float:
        return _y(plot, (lo, hi), pad_y, value)

    unit = (py1 - py0 - 2 * pad_y) / max(1, hi - lo)
    nudge = min(3.5 * u, unit / (2 * (len(seats) + 1)))
    series = []
    for i, seat in enumerate(seats):
        offset = (i - (len(seats) - 1) / 2) * nudge
        pts = tuple((x_of(t), y_of(v) - offset) for t, v in values[seat])
        style = styles.get(seat) or styles[INDEPENDENT]
        series.append(Series(seat, style, tuple(values[seat]), pts))
    every = max(1, math.ceil(len(turns) * (text_width("290 BC", tick_size) + 8) / max(1, px1 - px0 - 2 * inner)))
    x_ticks = tuple((t, x_of(t), str(t)) for i, t in enumerate(turns) if i % every == 0 or t == last_turn)

    legend = []
    lh = line_height(legend_size)
    row = max(lh, round(30 * u))
    ly = top + round(6 * u)
    for seat, text in entries:
        sample = (legend_x, ly, legend_x + sample_w, ly + row)
        legend.append(LegendItem(seat, text, sample, (legend_x + sample_w + round(12 * u), ly + (row - lh) / 2),
                                 legend_size))
        ly += row + round(6 * u)
    return ChartLayout(width, height, kind, title, subtitle, plot, (lo, hi), y_ticks, x_ticks, tuple(series),
                       tuple(legend), pad_y, year_of, step_name)


def render_chart(picture: Picture, kind: str, width: int = 1200, *, height: int | None = None,
                 title: str | None = None) -> bytes:
    """A line chart of ``kind`` (one of ``picture.charts``: "provinces", "stability", ...) as PNG bytes.

    Each power keeps its map colour; a step's label (its year) is written under its number.
    """
    layout = chart_layout(picture, kind, width, height, title)
    image = paint_chart(layout)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=4)
    return out.getvalue()


def _text(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, colour: RGB, bold: bool = False,
          anchor: str = "la") -> None:
    sw = round(stroke(size, bold) * SS)
    draw.text((xy[0] * SS, xy[1] * SS), printable(text), font=font(size * SS), fill=colour, anchor=anchor,
              stroke_width=sw, stroke_fill=colour)


def marker_shape(marker: str, x: float, y: float, r: float) -> list[Point] | None:
    """The polygon of a marker centred on (x, y); None for a circle."""
    if marker == "circle":
        return None
    if marker == "square":
        r *= 0.88
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    if marker in ("triangle", "triangle_down"):
        sign = 1 if marker == "triangle" else -1
        return [(x, y - sign * r * 1.15), (x + r * 1.05, y + sign * r * 0.75), (x - r * 1.05, y + sign * r * 0.75)]
    if marker == "diamond":
        return [(x, y - r * 1.25), (x + r, y), (x, y + r * 1.25), (x - r, y)]
    if marker == "hexagon":
        return [(x + r * 1.05 * math.cos(a), y + r * 1.05 * math.sin(a)) for a in (math.pi / 3 * k for k in range(6))]
    if marker == "plus":
        w = r * 0.42
        return [(x - w, y - r), (x + w, y - r), (x + w, y - w), (x + r, y - w), (x + r, y + w), (x + w, y + w),
                (x + w, y + r), (x - w, y + r), (x - w, y + w), (x - r, y + w), (x - r, y - w), (x - w, y - w)]
    if marker == "star":
        return [(x + (r * 1.25 if k % 2 == 0 else r * 0.55) * math.cos(-math.pi / 2 + k * math.pi / 5),
                 y + (r * 1.25 if k % 2 == 0 else r * 0.55) * math.sin(-math.pi / 2 + k * math.pi / 5)) for k in range(10)]
    return None


def _draw_marker(draw: ImageDraw.ImageDraw, style: SeatStyle, x: float, y: float, r: float, edge: float) -> None:
    poly = marker_shape(style.marker, x * SS, y * SS, r * SS)
    if poly is None:
        box = (x * SS - r * SS, y * SS - r * SS, x * SS + r * SS, y * SS + r * SS)
        draw.ellipse(box, fill=style.fill, outline=INK, width=max(1, round(edge * SS)))
    else:
        # A closed line for the edge: Pillow's wide polygon outline masks the whole image each time.
        draw.polygon(poly, fill=style.fill)
        draw.line([*poly, poly[0], poly[1]], fill=INK, width=max(1, round(edge * SS)), joint="curve")


def _dashed(points: Sequence[Point], dash: tuple[float, ...], unit: float) -> list[list[Point]]:
    """The polyline cut into its dashes; a solid line is one piece."""
    if not dash:
        return [list(points)]
    pattern = [d * unit for d in dash]
    pieces: list[list[Point]] = []
    index, left, on = 0, pattern[0], True
    current: list[Point] = [points[0]]
    for (ax, ay), (bx, by) in zip(points[:-1], points[1:]):
        length = math.hypot(bx - ax, by - ay)
        pos = 0.0
        while length - pos > left:
            pos += left
            t = pos / length if length else 0
            p = (ax + (bx - ax) * t, ay + (by - ay) * t)
            if on:
                current.append(p)
                pieces.append(current)
            current = [p]
            on = not on
            index = (index + 1) % len(pattern)
            left = pattern[index]
        left -= length - pos
        if on:
            current.append((bx, by))
        else:
            current = [(bx, by)]
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


def paint_chart(layout: ChartLayout) -> Image.Image:
    u = layout.width / 1200
    year_of = layout.year_of
    image = Image.new("RGB", (layout.width * SS, layout.height * SS), BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin = round(28 * u)
    title_size, sub_size, tick_size = (max(10, round(s * u)) for s in (28, 16, 14))
    _text(draw, (margin, margin), layout.title, title_size, INK, bold=True)
    _text(draw, (margin, margin + line_height(title_size)), layout.subtitle, sub_size, mix(INK, WHITE, 0.3))
    px0, py0, px1, py1 = layout.plot
    draw.rectangle((px0 * SS, py0 * SS, px1 * SS, py1 * SS), fill=PLOT_FILL)
    y_of = layout.y_of

    for tick in layout.y_ticks:
        y = y_of(tick)
        draw.line(((px0 * SS, y * SS), (px1 * SS, y * SS)), fill=GRID, width=SS)
        _text(draw, (px0 - round(10 * u), y), str(tick), tick_size, INK, anchor="rm")
    for turn, x, text in layout.x_ticks:
        draw.line(((x * SS, py0 * SS), (x * SS, py1 * SS)), fill=mix(PLOT_FILL, GRID, 0.5), width=SS)
        draw.line(((x * SS, py1 * SS), (x * SS, (py1 + 5 * u) * SS)), fill=INK, width=SS)
        _text(draw, (x, py1 + round(8 * u)), text, tick_size, INK, anchor="ma")
        if year_of is not None:
            _text(draw, (x, py1 + round(8 * u) + line_height(tick_size)), year_of(turn), tick_size,
                  mix(INK, WHITE, 0.35), anchor="ma")
    draw.line(((px0 * SS, py1 * SS), (px1 * SS, py1 * SS)), fill=INK, width=SS)
    draw.line(((px0 * SS, py0 * SS), (px0 * SS, py1 * SS)), fill=INK, width=SS)
    axis_y = py1 + round(8 * u) + line_height(tick_size) * (2 if year_of else 1) + round(4 * u)
    _text(draw, ((px0 + px1) / 2, axis_y), layout.x_name, tick_size, INK, bold=True, anchor="ma")
    _text(draw, (px0, py0 - round(6 * u)), layout.kind, tick_size, INK, bold=True, anchor="ld")
    if not layout.series:
        _text(draw, ((px0 + px1) / 2, (py0 + py1) / 2), f"No {layout.x_name} has been closed yet", round(20 * u),
              mix(INK, WHITE, 0.4), anchor="mm")

    width = max(2.0, 3.0 * u)
    edge = max(1.0, 1.0 * u)
    radius = max(3.0, 6.0 * u)
    for series in layout.series:
        _draw_series(draw, series, width, edge, radius)
    for item in layout.legend:
        style = next(s.style for s in layout.series if s.seat == item.seat)
        x0, y0, x1, y1 = item.sample
        cy = (y0 + y1) / 2
        _draw_series(draw, Series(item.seat, style, (), ((x0, cy), (x1, cy))), width, edge, radius, markers=False)
        _draw_marker(draw, style, (x0 + x1) / 2, cy, radius, edge)
        _text(draw, item.text_at, item.text, item.size, INK)
    return image.reduce(SS)


def _draw_series(draw: ImageDraw.ImageDraw, series: Series, width: float, edge: float, radius: float,
                 markers: bool = True) -> None:
    pts = [(x * SS, y * SS) for x, y in series.points]
    if len(pts) > 1:
        pieces = _dashed(pts, series.style.dash, width * SS)
        for piece in pieces:  # the dark edge under every dash
            draw.line(piece, fill=INK, width=round((width + 2 * edge) * SS), joint="curve")
        for piece in pieces:
            draw.line(piece, fill=series.style.fill, width=round(width * SS), joint="curve")
    if markers:
        for x, y in series.points:
            _draw_marker(draw, series.style, x, y, radius, edge)
