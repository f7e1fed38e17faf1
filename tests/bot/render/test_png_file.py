"""The map's own PNG writer: any reader decodes it to exactly the painted pixels, and it refuses what it cannot
write with a message that says what would do."""
from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.render.png_file import BAND, SIGNATURE, compressor, encode_png


def _picture(mode: str, size: tuple[int, int] = (37, 23)) -> Image.Image:
    # Odd sizes and every channel different, so a row cut one byte off or a swapped channel shows.
    image = Image.new(mode, size, 0)
    draw = ImageDraw.Draw(image)
    for i in range(size[0]):
        colour = {"L": i * 7 % 256, "RGB": (i * 7 % 256, 255 - i, i * 3 % 256),
                  "RGBA": (i * 7 % 256, 255 - i, i * 3 % 256, 128 + i)}[mode]
        draw.line(((i, 0), (size[0] - i, size[1] - 1)), fill=colour)  # type: ignore[arg-type]
    return image


@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
def test_a_reader_gets_back_exactly_the_pixels(mode: str) -> None:
    image = _picture(mode)
    decoded = Image.open(io.BytesIO(encode_png(image)))
    assert decoded.format == "PNG"
    assert (decoded.mode, decoded.size) == (mode, (37, 23))
    assert decoded.tobytes() == image.tobytes()
    assert ImageChops.difference(decoded.convert("RGBA"), image.convert("RGBA")).getbbox() is None


def test_the_file_is_the_three_chunks_with_their_checksums_and_unfiltered_rows() -> None:
    image = _picture("RGB", (5, 3))
    data = encode_png(image, 9)
    assert data.startswith(SIGNATURE)
    chunks = []
    at = len(SIGNATURE)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body)
        chunks.append((kind, body))
        at += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    assert chunks[0][1] == struct.pack(">IIBBBBB", 5, 3, 8, 2, 0, 0, 0)
    rows = zlib.decompress(chunks[1][1])
    pixels = image.tobytes()
    assert rows == b"".join(b"\x00" + pixels[y * 15:(y + 1) * 15] for y in range(3))


def test_the_level_changes_the_size_not_the_pixels() -> None:
    image = _picture("RGB", (300, 200))
    fast, small = encode_png(image, 1), encode_png(image, 9)
    assert len(small) < len(fast)
    assert Image.open(io.BytesIO(fast)).tobytes() == Image.open(io.BytesIO(small)).tobytes() == image.tobytes()


def _idat(data: bytes) -> bytes:
    (length,) = struct.unpack(">I", data[33:37])
    assert data[37:41] == b"IDAT"
    return data[41:41 + length]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_fast_levels_are_deflated_by_isa_l_into_a_stream_zlib_reads(level: int) -> None:
    from isal import isal_zlib

    assert type(compressor(level)) is type(isal_zlib.compressobj(level))
    image = _picture("RGB", (300, 200))
    rows = b"".join(b"\x00" + image.tobytes()[y * 900:(y + 1) * 900] for y in range(200))
    assert zlib.decompress(_idat(encode_png(image, level))) == rows


@pytest.mark.parametrize("level", [0, 4, 9])
def test_the_other_levels_keep_zlib_whose_0_stores_and_whose_higher_levels_are_smaller(level: int) -> None:
    assert type(compressor(level)) is type(zlib.compressobj(level))
    image = _picture("RGB", (300, 200))
    rows = b"".join(b"\x00" + image.tobytes()[y * 900:(y + 1) * 900] for y in range(200))
    stream = zlib.compressobj(level)
    assert _idat(encode_png(image, level)) == b"".join(
        [stream.compress(rows[top * 901:(top + BAND) * 901]) for top in range(0, 200, BAND)] + [stream.flush()])


@pytest.mark.parametrize("height", [1, BAND - 1, BAND, BAND + 1, 3 * BAND + 5])
def test_every_band_of_rows_is_written_whole_and_in_order(height: int) -> None:
    image = _picture("RGBA", (41, height))
    assert Image.open(io.BytesIO(encode_png(image))).tobytes() == image.tobytes()
    assert len(zlib.decompress(_idat(encode_png(image)))) == height * (1 + 41 * 4)


def test_other_modes_and_levels_are_refused_with_what_would_do() -> None:
    with pytest.raises(ValueError, match=r"cannot write a 'P' image as PNG here: convert it to L, RGB or RGBA first"):
        encode_png(Image.new("P", (4, 4)))
    with pytest.raises(ValueError, match=r"compress_level 10 is not a zlib level: use 0 to 9"):
        encode_png(Image.new("RGB", (4, 4)), 10)
    with pytest.raises(ValueError, match=r"compress_level -1 is not a zlib level: use 0 to 9"):
        encode_png(Image.new("RGB", (4, 4)), -1)
