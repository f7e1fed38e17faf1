"""The frame around a map: the header (title, turn, info lines) and the legend (each power's swatch, player and
count, then a key to the marks), the same for a grid map and an area map."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bot.render.layout_parts import Box, Icon, Label, LegendEntry, label_at
from bot.render.palette import INDEPENDENT, INK, WHITE, SeatStyle, mix, seat_styles, style_of
from bot.render.text import fit_text, line_height, printable, text_width
from engine.ruleset import HIGHLIGHT, Picture, Standing


def picture_styles(picture: Picture) -> dict[str, SeatStyle]:
    """The powers' styles: from the colours the game's data asks for, in the picture's fixed order of powers."""
    asked = dict(picture.colours)
    powers = list(picture.powers) or list(dict.fromkeys(s.fill for s in picture.spaces if s.fill))
    as_written = picture.drawing is not None and picture.drawing.colours == "game"
    return seat_styles({p: {"colour": asked.get(p)} for p in powers}, as_written=as_written)



def header(picture: Picture, width: int, u: float, margin: int) -> tuple[list[Label], Box]:
    """The title and the subtitle at the left, the picture's info lines at the right."""
    labels: list[Label] = []
    header_top = margin
    title_size = max(14, round(38 * u))
    info_size = max(10, round(17 * u))
    right_lines = tuple(printable(t) for _name, t in picture.info if t)
    places = [name for name, t in picture.info if t]
    right_w = max((text_width(t, info_size) for t in right_lines), default=0)
    left_room = width - 2 * margin - right_w - round(24 * u)
    heading = printable(f"{picture.title} · {picture.subtitle}" if picture.subtitle else picture.title)
    size = title_size
    while size > 10 and text_width(heading, size, True) > left_room:
        size -= 1
    title_label = label_at("title", "title", (heading,), size, margin, header_top, INK, bold=True)
    labels.append(title_label)
    if right_lines:
        y = header_top + max(0, (line_height(size) - line_height(info_size) * len(right_lines)) // 2)
        for i, text in enumerate(right_lines):
            w = text_width(text, info_size)
            labels.append(label_at("info", places[i], (text,), info_size, width - margin - w,
                                 y + i * line_height(info_size), INK))
    header_bottom = max(lb.box[3] for lb in labels)
    return labels, (0, 0, width, header_bottom + margin // 2)


def legend_and_key(picture: Picture, styles: Mapping[str, SeatStyle], top: int, width: int, margin: int,
                   u: float) -> tuple[list[Label], list[Icon], list[LegendEntry], Box]:
    """The powers with their players and counts, then what the marks mean, in a box from ``top`` down."""
    labels: list[Label] = []
    icons: list[Icon] = []
    entries = _legend_entries(picture, styles, margin, top, width - 2 * margin, u)
    for entry in entries:
        labels.extend((entry.name, entry.detail))
        icons.append(Icon("swatch", "legend", entry.swatch, entry.seat))
    key_top = (max(e.swatch[3] for e in entries) if entries else top) + round(16 * u)
    key_labels, key_icons, key_bottom = _key(picture.key, margin, key_top, width - 2 * margin, u, styles)
    labels.extend(key_labels)
    icons.extend(key_icons)
    legend_box = (margin - round(12 * u), top - round(12 * u), width - margin + round(12 * u),
                  key_bottom + round(12 * u))
    return labels, icons, entries, legend_box

def _legend_entries(picture: Picture, styles: Mapping[str, SeatStyle], x0: int, y0: int, total_w: int,
                    u: float) -> list[LegendEntry]:
    standings = picture.standings or tuple(
        Standing(None if power == INDEPENDENT or power not in styles else power, text) for power, text in picture.legend)
    rows_data: list[tuple[str, str | None, int, bool, str]] = [
        (style_of(styles, s.power).name, s.player, s.count, s.alive, s.text) for s in standings]
    if not rows_data:
        return []
    n = len(rows_data)
    rows = math.ceil(n / 4)
    cols = math.ceil(n / rows)
    col_w = total_w // cols
    swatch = max(12, round(40 * u))
    name_size = max(9, round(20 * u))
    detail_size = max(8, round(15 * u))
    row_h = swatch + round(14 * u)
    entries = []
    for i, (name, player, count, alive, detail) in enumerate(rows_data):
        cx = x0 + (i % cols) * col_w
        cy = y0 + (i // cols) * row_h
        sw = (cx, cy, cx + swatch, cy + swatch)
        text_x = cx + swatch + round(10 * u)
        room = col_w - swatch - round(22 * u)
        nsize, nlines = fit_text(name, room, line_height(name_size), name_size, 7, max_lines=1, bold=True)
        dsize, dlines = fit_text(detail, room, line_height(detail_size), detail_size, 6, max_lines=1)
        text_h = line_height(nsize) + line_height(dsize)
        ty = cy + (swatch - text_h) // 2
        colour = INK if alive else mix(INK, WHITE, 0.45)
        name_label = label_at("legend", name, nlines, nsize, text_x, ty, colour, bold=True)
        detail_label = label_at("legend-detail", name, dlines, dsize, text_x, ty + line_height(nsize), colour)
        entries.append(LegendEntry(name, player, count, alive, sw, name_label, detail_label))
    return entries


def _key(items_given: Sequence[tuple[str, str]], x0: int, y0: int, total_w: int, u: float,
         styles: Mapping[str, SeatStyle]) -> tuple[list[Label], list[Icon], int]:
    size = max(8, round(15 * u))
    icon = max(10, round(24 * u))
    gap = round(8 * u)
    spacing = round(26 * u)
    items = []
    seat = next((n for n in styles if n != INDEPENDENT), None)
    for given, text in items_given:
        kind = "attacked" if given == HIGHLIGHT else given  # the legend's icon for a highlighted space
        w = icon
        if kind in ("fleet", "pirates"):
            sample = f"{styles[seat].tag if seat else 'ABC'} 2" if kind == "fleet" else "PIRATES"
            w = icon + text_width(sample, max(6, round(icon * 0.62))) + icon // 3
        items.append((kind, text, w, w + gap + text_width(text, size)))
    labels: list[Label] = []
    icons: list[Icon] = []
    x, y = x0, y0
    lh = line_height(size)
    row_h = max(icon, lh)
    if not items:
        return labels, icons, y0 - round(16 * u)
    for kind, text, w, total in items:
        if x > x0 and x + total > x0 + total_w:
            x, y = x0, y + row_h + round(8 * u)
        ib = (x, y + (row_h - icon) // 2, x + w, y + (row_h - icon) // 2 + icon)
        icons.append(Icon(kind, "legend", ib, seat if kind == "fleet" else None, 2 if kind == "fleet" else 0))
        if kind in ("fleet", "pirates"):
            tsize = max(6, round(icon * 0.62))
            badge_text = f"{styles[seat].tag if seat else 'ABC'} 2" if kind == "fleet" else "PIRATES"
            tl = line_height(tsize)
            colour = WHITE if kind == "pirates" else (styles[seat].text if seat else INK)
            labels.append(label_at("badge", "legend", (badge_text,), tsize, ib[0] + icon, ib[1] + (icon - tl) // 2, colour))
        labels.append(label_at("key", kind, (printable(text),), size, x + w + gap, y + (row_h - lh) // 2, INK))
        x += total + spacing
    return labels, icons, y + row_h


# --- icon shapes ------------------------------------------------------------------------------------------------------
