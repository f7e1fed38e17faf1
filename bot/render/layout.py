"""Where everything goes on a map: one layout, painted by both the PNG and the SVG renderer.

Pure: from a ``Picture`` (engine/ruleset.py: the game's map at a moment, in neutral shapes) it computes the
tiles of a grid map (``grid_layout.py``) or the areas of an area map (``coast_layout.py``, over a coastline or as
a diagram: ``diagram.py``), the labels (with their
boxes, fitted so none overlaps another), the icons and the legend (``legend.py``), and the shapes that draw each
icon (``icons.py``). Nothing here draws; text is only measured (``text.py``), with Pillow's bundled font so the
measures are the same on every machine. The parts of a layout are in ``layout_parts.py``.

Coordinates are pixels of the final image: (x0, y0, x1, y1) with x1 and y1 exclusive.
"""
from __future__ import annotations

from bot.render.coast_layout import build_coast_layout
from bot.render.badges import BadgeItem, badge_items, badges_placed, place_badges
from bot.render.icons import BADGE, GOLD, PIRATE, icon_shapes, pattern_lines
from bot.render.layout_parts import (
    MIN_WIDTH, Area, Box, Cell, Icon, Label, LegendEntry, MapLayout, Point, Shape, centred_label, inside, intersects,
    label_at, note_of, overlapping_labels,
)
from bot.render.legend import header, legend_and_key, picture_styles
from bot.render.text import ascent, fit_text, font, line_height, printable, stroke, text_width
from engine.ruleset import Picture

__all__ = [
    "BADGE", "GOLD", "MIN_WIDTH", "PIRATE", "Area", "BadgeItem", "Box", "Cell", "Icon", "Label", "LegendEntry",
    "MapLayout", "Point", "Shape", "ascent", "badge_items", "badges_placed", "build_layout", "centred_label",
    "fit_text", "font", "header", "icon_shapes", "inside", "intersects", "label_at", "legend_and_key",
    "line_height", "note_of", "overlapping_labels", "pattern_lines", "picture_styles", "place_badges", "printable",
    "stroke", "text_width",
]


def build_layout(picture: Picture, width: int = 1600) -> MapLayout:
    """The layout of ``picture``, ``width`` pixels wide (at least 480): a grid map's tiles, or an area map's."""
    # The diagram and the grid imported when drawn: a fresh process drawing a coast (`legatus map`) spares them
    # and the diagram's statistics (with fractions and decimal), 3.5 ms.
    if picture.grid is None:
        if picture.drawing is None or not picture.drawing.rings:
            from bot.render.diagram import as_diagram

            picture = as_diagram(picture)  # no coast to draw it over: a diagram, by the same renderer
        return build_coast_layout(picture, width)
    from bot.render.grid_layout import grid_layout

    return grid_layout(picture, width)
