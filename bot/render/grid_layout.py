"""The layout of a grid map (Mare Nostrum's): each province and sea quadrant a square tile at its cell, the
name on a plate at the top, icons or badges below it."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bot.render.badges import BadgeItem, badge_items, badges_placed, place_badges
from bot.render.layout_parts import (
    MIN_WIDTH, Box, Cell, Icon, Label, MapLayout, centred_label, intersects, note_of,
)
from bot.render.legend import header, legend_and_key, picture_styles
from bot.render.palette import INK, SEA_INK, WHITE, SeatStyle, mix, style_of
from bot.render.text import fit_text, line_height
from engine.ruleset import Glyph, Picture, Space


def grid_layout(picture: Picture, width: int) -> MapLayout:
    assert picture.grid is not None
    columns, rows = picture.grid
    width = max(MIN_WIDTH, int(width))
    styles = picture_styles(picture)
    u = width / 1600  # scale of the header and legend, which do not depend on the grid
    margin = max(8, round(24 * u))
    # A small map keeps tiles of a sensible size, centred, rather than a few giant ones.
    cell = max(24, min((width - 2 * margin) // max(1, columns), round(width * 0.12)))
    grid_w = cell * columns
    gx = (width - grid_w) // 2
    labels, header_box = header(picture, width, u, margin)
    icons: list[Icon] = []
    gy = header_box[3] + margin // 2
    grid = (gx, gy, gx + grid_w, gy + cell * rows)

    # Tiles.
    gap = max(2, cell // 36)
    tile = cell - gap
    pad = max(3, round(tile * 0.065))
    border = max(1, round(tile / 55))
    attack = max(3, pad - 1)
    cells: list[Cell] = []

    def tile_box(col: int, row: int) -> Box:
        x0, y0 = gx + col * cell + gap // 2, gy + row * cell + gap // 2
        return x0, y0, x0 + tile, y0 + tile

    name_largest = max(8, round(tile * 0.15))
    name_smallest = max(7, round(tile * 0.085))
    seas = []
    for space in picture.spaces:
        if space.kind == "sea":
            seas.append(space)
            continue
        if not space.cells:
            continue
        col, row = space.cells[0]
        box = tile_box(col, row)
        style = style_of(styles, space.fill).name
        tile_labels, tile_icons = _province_contents(space, box, pad, name_largest, name_smallest, styles[style])
        labels.extend(tile_labels)
        icons.extend(tile_icons)
        occupied = [lb.box for lb in tile_labels] + [ic.box for ic in tile_icons]
        cells.append(Cell("province", space.name, col, row, box, style, space.fill, space.highlight,
                          _sample(box, pad, occupied)))
    for space in seas:
        for i, (col, row) in enumerate(space.cells):
            box = tile_box(col, row)
            if i == 0:  # a sea over several cells is named, and its ships shown, once
                tile_labels, tile_icons = _sea_contents(space.name, box, pad, name_largest, name_smallest, styles,
                                                        space.glyphs)
                labels.extend(tile_labels)
                icons.extend(tile_icons)
            cells.append(Cell("sea", space.name, col, row, box, "sea"))

    # Legend: the powers with their players and counts, then what the marks mean.
    legend_top = grid[3] + round(margin * 1.2)
    legend_labels, legend_icons, entries, legend_box = legend_and_key(picture, styles, legend_top, width, margin, u)
    labels.extend(legend_labels)
    icons.extend(legend_icons)
    height = legend_box[3] + margin
    return MapLayout(
        width=width, height=height, styles=styles, title=picture.title, header=header_box, grid=grid,
        legend_box=legend_box, cells=tuple(cells), labels=tuple(labels), icons=tuple(icons), legend=tuple(entries),
        border=border, attack_border=attack, radius=max(2, tile // 14), pattern_step=max(5, round(tile / 9)),
        info={"turn_text": picture.subtitle, "lines": tuple(t for _n, t in picture.info)},
    )


def _sample(box: Box, pad: int, occupied: list[Box]) -> Box | None:
    k = max(4, (box[2] - box[0]) // 11)
    x0, y0, x1, y1 = box[0] + pad, box[1] + pad, box[2] - pad - k, box[3] - pad - k
    candidates = [(x0, (y0 + y1) // 2), (x1, (y0 + y1) // 2), (x0, y1), (x1, y1), (x0, y0), (x1, y0),
                  ((x0 + x1) // 2, (y0 + y1) // 2)]
    for x, y in candidates:
        patch = (x, y, x + k, y + k)
        if not any(intersects(patch, other) for other in occupied):
            return patch
    return None


def _flow_icons(kinds: list[str], place: str, zone: Box, preferred: int, gap: int, seat: str | None) -> list[Icon]:
    """Icons in one centred row at the bottom of the zone, or two rows when one would make them too small."""
    if not kinds:
        return []
    zw, zh = zone[2] - zone[0], zone[3] - zone[1]
    n = len(kinds)
    one_row = min(preferred, (zw - (n - 1) * gap) // n, zh)
    per_row = math.ceil(n / 2)
    two_rows = min(preferred, (zw - (per_row - 1) * gap) // per_row, (zh - gap) // 2)
    rows = [kinds] if one_row >= two_rows or n < 3 else [kinds[:per_row], kinds[per_row:]]
    size = max(4, one_row if len(rows) == 1 else two_rows)
    out = []
    y = zone[3] - len(rows) * size - (len(rows) - 1) * gap
    for row in rows:
        row_w = len(row) * size + (len(row) - 1) * gap
        x = zone[0] + (zw - row_w) // 2
        for kind in row:
            out.append(Icon(kind, place, (x, y, x + size, y + size), seat))
            x += size + gap
        y += size + gap
    return out


def _province_contents(space: Space, box: Box, pad: int, largest: int, smallest: int, style: SeatStyle
                       ) -> tuple[list[Label], list[Icon]]:
    name = space.name
    tile = box[2] - box[0]
    plate_px = max(2, tile // 32)
    plate_py = max(1, tile // 70)
    max_w = tile - 2 * pad - 2 * plate_px
    size, lines = fit_text(name, max_w, round(tile * 0.40) - 2 * plate_py, largest, smallest, max_lines=2)
    cx = (box[0] + box[2]) // 2
    plate = mix(style.fill, WHITE, 0.86)
    label = centred_label("province", name, lines, size, cx, box[1] + pad, INK, pad_x=plate_px, pad_y=plate_py,
                           plate=plate, plate_outline=style.ink)
    labels = [label]
    bottom = label.box[3]
    note = note_of(space)
    if note:
        hsize, hlines = fit_text(note, max_w, line_height(max(7, size - 3)) * 2, max(7, size - 3),
                                 max(6, smallest - 2), max_lines=2)
        held_label = centred_label("held", name, hlines, hsize, cx, bottom + max(1, tile // 60), INK,
                                    pad_x=plate_px, pad_y=0, plate=plate, plate_outline=style.ink)
        labels.append(held_label)
        bottom = held_label.box[3]
    kinds = [g.kind for g in space.glyphs]
    gap = max(2, tile // 40)
    zone = (box[0] + pad, bottom + gap, box[2] - pad, box[3] - pad)
    icons = _flow_icons(kinds, name, zone, round(tile * 0.25), gap, space.fill)
    return labels, icons


def _sea_contents(name: str, box: Box, pad: int, largest: int, smallest: int, styles: Mapping[str, SeatStyle],
                  glyphs: Sequence[Glyph]) -> tuple[list[Label], list[Icon]]:
    tile = box[2] - box[0]
    max_w = tile - 2 * pad
    cx = (box[0] + box[2]) // 2
    fleet_items, specials = badge_items(glyphs, styles)
    items = fleet_items + specials
    gap = max(2, tile // 40)
    preferred = max(8, round(tile * 0.2))
    smallest_badge = max(8, round(tile * 0.15))
    # The ships matter more than the sea's name, and the ships' count more than their drawing: a crowded
    # sea first drops the ship from its badges, then takes a smaller name, then smaller badges.
    attempts = [(size, preferred, compact) for size in range(largest - 1, smallest - 1, -1) for compact in (False, True)]
    attempts += [(smallest, h, True) for h in range(preferred - 1, smallest_badge - 1, -1)]
    label: Label | None = None
    placed: list[tuple[BadgeItem, Box, Box, int]] | None = None
    for size_cap, badge_h, compact in attempts:
        size, lines = fit_text(name, max_w, round(tile * 0.36), size_cap, min(smallest, size_cap), max_lines=2)
        label = centred_label("sea", name, lines, size, cx, box[1] + pad, SEA_INK)
        if not items:
            return [label], []
        zone = (box[0] + pad, label.box[3] + max(2, tile // 30), box[2] - pad, box[3] - pad)
        placed = place_badges(items, zone, badge_h, gap, compact)
        if placed is not None:
            break
    assert label is not None
    if placed is None:
        # Too many for the tile at this size: the first fleets, a "+N" for the rest, then pirates and battle.
        for k in range(len(fleet_items) - 1, -1, -1):
            more = ("more", None, len(fleet_items) - k, f"+{len(fleet_items) - k}")
            placed = place_badges(fleet_items[:k] + [more] + specials, zone, smallest_badge, gap, True)
            if placed is not None:
                break
        placed = placed or []
    labels = [label]
    icons, badge_labels = badges_placed(name, placed, styles)
    return labels + badge_labels, icons


