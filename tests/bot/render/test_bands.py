"""An area map's canvas halved a band of rows at a time (bot/render/bands.py) is the whole canvas made a picture,
painted on and halved: the same bytes, whatever straddles a band's edge."""
from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.bands import BAND, Deferred, halved_in_bands, pasted_on_bands, plate_on_bands, text_on_bands
from bot.render.text import font


def test_a_canvas_halved_in_bands_is_the_whole_canvas_halved() -> None:
    canvas = Image.new("P", (700, 3 * BAND + 90), 0)
    canvas.putpalette([240, 235, 225])
    draw = ImageDraw.Draw(canvas)
    draw.polygon([(10, 20), (690, BAND - 3), (300, 2 * BAND + 41), (15, 3 * BAND + 70)], fill=(90, 140, 200))
    draw.line([(0, BAND - 1), (700, BAND + 1)], fill=(20, 20, 20), width=3)
    whole = canvas.convert("RGB")
    on_whole = ImageDraw.Draw(whole)
    tile = Image.new("RGB", (60, 41), (200, 60, 40))
    tile_mask = Image.new("L", tile.size, 0)
    ImageDraw.Draw(tile_mask).rounded_rectangle((0, 0, 59, 40), radius=9, fill=255)
    deferred: list[Deferred] = []
    rows = (BAND - 17, 2 * BAND - 30, 2 * BAND + 3, 3 * BAND + 51, 5)
    for i, y in enumerate(rows):
        f = font(20 + 4 * i)
        stroke = i % 2  # a bold name's stroke, in its own colour
        colour = (30 * i, 20, 90)
        # A plate drawn after the text before it that runs past its own box covers that text, as on one canvas.
        box = (120 + 40 * i, y - 4, 260 + 40 * i, y + 30)
        deferred.append(plate_on_bands(box, 6, (250, 250, 240), (60, 60, 60), 2))
        on_whole.rounded_rectangle(box, radius=6, fill=(250, 250, 240), outline=(60, 60, 60), width=2)
        deferred.append(text_on_bands(100 + 40 * i, y, "Mare Tyrrhenum gy", f, colour, stroke))
        on_whole.text((100 + 40 * i, y), "Mare Tyrrhenum gy", font=f, fill=colour, anchor="la", stroke_width=stroke,
                      stroke_fill=colour)
    # A plate laid after a name it covers part of, across a band's edge.
    deferred.append(text_on_bands(100, 2 * BAND - 8, "Hellespontus", font(30), (200, 0, 0), 0))
    on_whole.text((100, 2 * BAND - 8), "Hellespontus", font=font(30), fill=(200, 0, 0), anchor="la")
    deferred.append(plate_on_bands((150, 2 * BAND - 10, 220, 2 * BAND + 30), 5, (255, 255, 255), None, 0))
    on_whole.rounded_rectangle((150, 2 * BAND - 10, 220, 2 * BAND + 30), radius=5, fill=(255, 255, 255))
    deferred.append(pasted_on_bands(tile, (400, BAND - 20), tile_mask))
    whole.paste(tile, (400, BAND - 20), tile_mask)
    halved = halved_in_bands(canvas, deferred, 2)
    assert halved.size == (350, (3 * BAND + 90) // 2)
    assert halved.tobytes() == whole.reduce(2).tobytes()


def test_a_deferred_item_names_the_rows_it_paints() -> None:
    item = text_on_bands(10, 300, "Roma", font(24), (0, 0, 0), 0)
    _left, top, _right, bottom = font(24).getbbox("Roma", anchor="la")
    assert (item.top, item.bottom) == (300 + top, 300 + bottom) == (308, 324)  # the glyphs' rows, not the line's
    assert plate_on_bands((0, 40, 10, 60), 2, (1, 1, 1), None, 0).bottom == 61
