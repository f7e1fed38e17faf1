"""Badges: a space's fleets (its power's tag and count), pirates and battles, set in centred rows that must fit a
zone; a crowded space drops the ships' drawings, then folds its last fleets into a "+N"."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.render.layout_parts import Box, Icon, Label, label_at
from bot.render.palette import INK, WHITE, SeatStyle, style_of
from bot.render.text import line_height, text_width
from engine.ruleset import Glyph

BadgeItem = tuple[str, str | None, int, str]  # kind, power, count, text


def badge_items(glyphs: Sequence[Glyph], styles: Mapping[str, SeatStyle]) -> tuple[list[BadgeItem], list[BadgeItem]]:
    """A space's glyphs as badges: the fleets (with their power's tag and count), then the others."""
    fleets: list[BadgeItem] = []
    specials: list[BadgeItem] = []
    for g in glyphs:
        if g.kind == "fleet":
            if g.count:
                fleets.append(("fleet", g.power, int(g.count), f"{style_of(styles, g.power).tag} {g.count}"))
        elif g.kind == "pirates":
            specials.append(("pirates", None, 0, "PIRATES"))
        else:
            specials.append((g.kind, g.power, int(g.count), ""))
    return fleets, specials


def badges_placed(place: str, placed: Sequence[tuple[BadgeItem, Box, Box, int]], styles: Mapping[str, SeatStyle]
                  ) -> tuple[list[Icon], list[Label]]:
    icons: list[Icon] = []
    labels: list[Label] = []
    for (kind, owner, count, text), badge, text_box, tsize in placed:
        compact = bool(text) and text_box[0] - badge[0] < (badge[3] - badge[1]) // 2
        icons.append(Icon(kind, place, badge, owner, count, compact))
        if text:
            colour = WHITE if kind == "pirates" else (INK if kind == "more" else style_of(styles, owner).text)
            labels.append(label_at("badge", place, (text,), tsize, text_box[0], text_box[1], colour))
    return icons, labels


def place_badges(items: list[BadgeItem], zone: Box, h: int, gap: int, compact: bool = False
                  ) -> list[tuple[BadgeItem, Box, Box, int]] | None:
    """Badges in centred rows filling the zone from the bottom up; None when they do not fit.

    A badge is a square glyph (ship, skull, swords) then its text; ``compact`` badges with a text keep
    only a sliver of their glyph's room, so that a crowded sea can show every seat's fleets."""
    tsize = max(6, round(h * 0.62))
    zw = zone[2] - zone[0]
    widths, leads = [], []
    for kind, _nation, _count, text in items:
        lead = h - h // 12 if not (compact and text) and kind != "more" else h // 3
        leads.append(lead)
        widths.append(lead + (text_width(text, tsize) + h // 4 if text else h // 12))
    if max(widths) > zw:
        return None
    rows: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if rows[-1] and used + gap + w > zw:
            rows.append([])
            used = 0
        used += (gap if rows[-1] else 0) + w
        rows[-1].append(i)
    total_h = len(rows) * h + (len(rows) - 1) * gap
    if total_h > zone[3] - zone[1]:
        return None
    out = []
    y = zone[3] - total_h
    lh = line_height(tsize)
    for row in rows:
        row_w = sum(widths[i] for i in row) + gap * (len(row) - 1)
        x = zone[0] + (zw - row_w) // 2
        for i in row:
            badge = (x, y, x + widths[i], y + h)
            text_box = (x + leads[i], y + (h - lh) // 2, x + widths[i] - h // 6, y + (h - lh) // 2 + lh)
            out.append((items[i], badge, text_box, tsize))
            x += widths[i] + gap
        y += h + gap
    return out

