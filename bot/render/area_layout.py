"""What goes inside an area of an area map (bot/render/coast_layout.py places them): its name, with its note under
it, as a block of plates (``stack``), and its glyphs as rows of badges that stay inside the area (``badges_in``)."""
from __future__ import annotations

from collections.abc import Callable

from bot.render.badges import BadgeItem, badge_items, badges_placed, place_badges
from bot.render.layout_parts import Box, Icon, Label, label_at
from bot.render.text import line_height, printable, text_width
from bot.render.palette import INK, SEA_INK, WHITE, SeatStyle, mix
from engine.ruleset import Space

Fits = Callable[[Box], bool]


def stack(space: Space, style: SeatStyle | None, cx: int, edge: int, above: bool, lines: tuple[str, ...], size: int,
           note: str) -> list[Label]:
    sea = space.kind == "sea"
    pad_x, pad_y = (0, 0) if sea else (max(2, size // 5), max(1, size // 10))
    colour = SEA_INK if sea else INK
    plate = None if sea or style is None else mix(style.fill, WHITE, 0.86)
    outline = None if sea or style is None else style.ink
    note_size = max(6, size - 3)
    name_h = line_height(size) * len(lines) + 2 * pad_y
    note_h = line_height(note_size) + 1 if note else 0
    top = edge - name_h - note_h if above else edge
    name_w = max(text_width(line, size) for line in lines) + 2 * pad_x
    out = [label_at("sea" if sea else "province", space.name, lines, size, cx - name_w // 2, top, colour,
                  pad_x=pad_x, pad_y=pad_y, plate=plate, plate_outline=outline)]
    if note:
        note_text = printable(note)
        w = text_width(note_text, note_size) + 2 * pad_x
        out.append(label_at("held", space.name, (note_text,), note_size, cx - w // 2, top + name_h + 1, colour,
                          pad_x=pad_x, plate=plate, plate_outline=outline))
    return out


def badges_in(space: Space, styles: dict[str, SeatStyle], cx: int, edge: int, below: bool, half: int, fits: Fits,
              preferred: int, smallest: int, gap: int) -> tuple[list[Icon], list[Label]]:
    """The space's glyphs as badges in rows starting at ``edge`` (downwards when ``below``), inside the area, whose
    room either side of ``cx`` is at most ``half``."""
    fleets, specials = badge_items(space.glyphs, styles)
    items: list[BadgeItem] = fleets + specials
    if not items:
        return [], []
    tries: list[tuple[list[BadgeItem], int, bool]] = [(items, h, c) for h in range(preferred, smallest - 1, -1)
                                                      for c in (False, True)]
    for k in range(len(fleets) - 1, -1, -1):  # then the first fleets and a "+N" for the rest
        tries.append((fleets[:k] + [("more", None, len(fleets) - k, f"+{len(fleets) - k}")] + specials, smallest, True))
    for chosen, h, compact in tries:
        for rows in (1, 2, 3):
            zone_h = rows * h + (rows - 1) * gap
            for w in (half * 2, half * 3 // 2, half):
                zone = (cx - w // 2, edge if below else edge - zone_h, cx + w // 2, edge + zone_h if below else edge)
                placed = place_badges(chosen, zone, h, gap, compact) if w > h else None
                if placed and all(fits(b) for _i, b, _t, _s in placed):
                    return badges_placed(space.name, placed, styles)
    return [], []
