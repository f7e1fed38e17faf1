"""Nation styles for the map and the charts: a colour, a pattern, a marker and a dash, all deterministic.

Colour alone never carries the meaning: every seat also gets a fill pattern (map), a marker shape and a
dash pattern (charts) and a three-letter tag (fleets), so a player who cannot tell two colours apart can
still tell the seats apart.

The colours come from the ruleset data (each seat's ``colour``). A set of colours that colour-blind
players could confuse (checked by simulating protanopia, deuteranopia and tritanopia and measuring
CIEDE2000 distances) is replaced as a whole by the Okabe–Ito palette, each seat taking the free
Okabe–Ito colour nearest its own, so a Roman red stays reddish and a Carthaginian purple stays purple.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

RGB = tuple[int, int, int]

# Okabe & Ito (2008), "Color Universal Design": told apart by people with every common colour vision deficiency.
OKABE_ITO: dict[str, RGB] = {
    "vermillion": (0xD5, 0x5E, 0x00),
    "blue": (0x00, 0x72, 0xB2),
    "bluish green": (0x00, 0x9E, 0x73),
    "orange": (0xE6, 0x9F, 0x00),
    "reddish purple": (0xCC, 0x79, 0xA7),
    "yellow": (0xF0, 0xE4, 0x42),
    # Sky blue comes last: the seas are blue, so it is the last choice for a seat.
    "sky blue": (0x56, 0xB4, 0xE9),
}
# Beyond seven seats, further colours that stay apart from the ones above (Paul Tol's muted scheme).
EXTRA: tuple[RGB, ...] = ((0x88, 0x22, 0x55), (0x44, 0xAA, 0x99), (0x99, 0x99, 0x33), (0x33, 0x22, 0x88), (0xDD, 0xCC, 0x77))

# Patterns on the province tiles; "dots" is kept for the independent provinces.
PATTERNS: tuple[str, ...] = ("diagonal", "horizontal", "antidiagonal", "vertical", "crosshatch", "grid", "checks", "waves")
MARKERS: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "triangle_down", "hexagon", "plus", "star")
# Dash patterns for chart lines, in on/off lengths relative to the line width; () is solid.
DASHES: tuple[tuple[float, ...], ...] = ((), (4.0, 2.0), (1.2, 1.6), (6.0, 2.0, 1.2, 2.0), (2.5, 2.5), (8.0, 2.5, 1.2, 2.5, 1.2, 2.5))

INDEPENDENT = "Independent"
INDEPENDENT_FILL: RGB = (0xBE, 0xBB, 0xB5)  # a warm neutral grey, lighter than every seat colour under CVD
SEA_FILL: RGB = (0xC9, 0xE2, 0xF2)
SEA_INK: RGB = (0x2B, 0x5C, 0x85)
BACKGROUND: RGB = (0xF3, 0xEE, 0xE3)  # parchment: the '.' cells and the margins
INK: RGB = (0x22, 0x22, 0x22)
ATTACK_RED: RGB = (0xC0, 0x10, 0x20)
WHITE: RGB = (0xFF, 0xFF, 0xFF)

# The smallest CIEDE2000 distance between two seat colours, in normal vision and under each simulated
# deficiency, below which a palette counts as confusable. Okabe–Ito's own six stay above it.
MIN_DISTANCE = 10.0


@dataclass(frozen=True)
class SeatStyle:
    name: str
    fill: RGB
    ink: RGB  # pattern strokes and outline: a shade of the fill that stands out on it
    text: RGB  # black or white, whichever reads better on the fill
    pattern: str
    marker: str
    dash: tuple[float, ...]
    tag: str  # a short tag for fleet badges, unique among the seats


def hex_to_rgb(text: str) -> RGB:
    value = text.strip().lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    if len(value) != 6:
        raise ValueError(f"'{text}' is not a colour: write #rrggbb")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def rgb_to_hex(rgb: RGB) -> str:
    return "#%02x%02x%02x" % rgb


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]  # three, as a and b


# --- colour science: just enough to check a palette ------------------------------------------------------------------

def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(rgb: RGB) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
CVD_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _lab_from_linear(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, c)) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def lab(rgb: RGB, vision: str = "normal") -> tuple[float, float, float]:
    linear = tuple(_linear(c) for c in rgb)
    if vision != "normal":
        m = CVD_MATRICES[vision]
        linear = tuple(sum(m[i][j] * linear[j] for j in range(3)) for i in range(3))
    return _lab_from_linear(linear)  # type: ignore[arg-type]  # three components, as rgb


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_bar7 = ((c1 + c2) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c_bar7 / (c_bar7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, c_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar**7 / (c_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar
    s_h = 1 + 0.015 * c_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dc / s_c) * (dH / s_h))


def min_distance(colours: Iterable[RGB]) -> tuple[float, str]:
    """The smallest distance between two of the colours over every vision, and the vision where it falls."""
    palette = list(colours)
    best, where = math.inf, "normal"
    for vision in ("normal", *CVD_MATRICES):
        labs = [lab(c, vision) for c in palette]
        for i in range(len(labs)):
            for j in range(i + 1, len(labs)):
                d = ciede2000(labs[i], labs[j])
                if d < best:
                    best, where = d, vision
    return best, where


def cvd_safe(colours: Iterable[RGB]) -> bool:
    palette = list(colours)
    # The independent grey and the seas sit beside the seats on the map, so they must stay apart too.
    return min_distance([*palette, INDEPENDENT_FILL, SEA_FILL])[0] >= MIN_DISTANCE


# --- styles ---------------------------------------------------------------------------------------------------------

def _data_colour(data: Any) -> str | None:
    if data is None:
        return None
    if isinstance(data, Mapping):
        value = data.get("colour") or data.get("color")
    else:
        value = getattr(data, "colour", None)
    return str(value) if value else None


def _safe_colours(names: list[str], wanted: dict[str, RGB | None]) -> dict[str, RGB]:
    """Okabe–Ito colours for every seat, each seat taking the free one nearest the colour it asked for."""
    # Six seats take six Okabe–Ito colours (sky blue is spared for as long as possible, being sea-like).
    pool = (list(OKABE_ITO.values()) + list(EXTRA))[: max(6, len(names))]
    out: dict[str, RGB] = {}
    pairs = []
    for i, name in enumerate(names):
        asked = wanted.get(name)
        for j, colour in enumerate(pool):
            # With no colour asked for, the pool's order decides; with one, the nearest hue wins.
            distance = ciede2000(lab(asked), lab(colour)) if asked is not None else 1000.0 + j
            pairs.append((distance, i, j))
    used: set[int] = set()
    for _distance, i, j in sorted(pairs):
        if names[i] in out or j in used:
            continue
        out[names[i]] = pool[j]
        used.add(j)
    for i, name in enumerate(names):
        if name not in out:  # more seats than colours: patterns and markers still tell them apart
            out[name] = pool[i % len(pool)]
    return out


def _tags(names: list[str]) -> dict[str, str]:
    tags: dict[str, str] = {}
    for name in names:
        letters = "".join(c for c in name.upper() if c.isalnum()) or "NAT"
        tag = letters[:3]
        k = 3
        while tag in tags.values() and k < len(letters):
            tag = letters[:2] + letters[k]
            k += 1
        n = 2
        while tag in tags.values():
            tag = f"{letters[:2]}{n}"
            n += 1
        tags[name] = tag
    return tags


def _text_on(fill: RGB) -> RGB:
    # The contrast ratio against white and against near-black; the larger wins.
    lum = relative_luminance(fill)
    return WHITE if (1.05 / (lum + 0.05)) > ((lum + 0.05) / (relative_luminance(INK) + 0.05)) else INK


def _ink_for(fill: RGB) -> RGB:
    # Strokes darker than a light fill, lighter than a dark one, so the pattern shows on both.
    return mix(fill, (0, 0, 0), 0.38) if relative_luminance(fill) > 0.18 else mix(fill, WHITE, 0.42)


def seat_styles(seats_data: Mapping[str, Any] | Iterable[str], as_written: bool = False) -> dict[str, SeatStyle]:
    """One style per seat, in the data's order, plus the independent provinces under ``INDEPENDENT``.

    ``seats_data`` maps each seat to its data (an object or a dict with a ``colour``), or is just the
    seats' names; the styles depend only on it, never on the campaign's state. ``as_written`` (a map whose drawing
    asks for the game's own colours): every seat's colour as the data writes it, even a set colour-blind players
    may confuse, as long as each seat has one of its own and none is the independent grey; the patterns, different
    for every seat, tell them apart.
    """
    if isinstance(seats_data, Mapping):
        names = list(seats_data)
        asked: dict[str, RGB | None] = {}
        for name in names:
            text = _data_colour(seats_data[name])
            try:
                asked[name] = hex_to_rgb(text) if text else None
            except ValueError:
                asked[name] = None
    else:
        names = list(seats_data)
        asked = {name: None for name in names}
    given = [c for c in asked.values() if c is not None]
    own = len(given) == len(names) and len(set(given)) == len(given)
    if own and (cvd_safe(given) or (as_written and INDEPENDENT_FILL not in given)):
        colours: dict[str, RGB] = {n: c for n, c in asked.items() if c is not None}
    else:
        colours = _safe_colours(names, asked)
    tags = _tags(names)
    styles = {
        name: SeatStyle(
            name=name,
            fill=colours[name],
            ink=_ink_for(colours[name]),
            text=_text_on(colours[name]),
            pattern=PATTERNS[i % len(PATTERNS)],
            marker=MARKERS[i % len(MARKERS)],
            dash=DASHES[i % len(DASHES)],
            tag=tags[name],
        )
        for i, name in enumerate(names)
    }
    styles[INDEPENDENT] = SeatStyle(
        name=INDEPENDENT, fill=INDEPENDENT_FILL, ink=mix(INDEPENDENT_FILL, (0, 0, 0), 0.4), text=INK,
        pattern="dots", marker="circle", dash=(), tag="IND",
    )
    return styles


# The map's furniture, shared by the PNG and the SVG painters.
HEADER_FILL: RGB = mix(BACKGROUND, INK, 0.06)
LEGEND_FILL: RGB = mix(BACKGROUND, WHITE, 0.55)
GRID_FILL: RGB = mix(BACKGROUND, INK, 0.035)
SEA_WAVE: RGB = mix(SEA_FILL, SEA_INK, 0.22)


def pattern_ink(style: SeatStyle) -> RGB:
    """The pattern's strokes: half-way to the ink, enough to tell seats apart, quiet enough to read over."""
    return mix(style.fill, style.ink, 0.45)


def style_of(styles: Mapping[str, SeatStyle], owner: str | None) -> SeatStyle:
    """The style of a province's owner; an owner the data does not know is drawn as independent."""
    if owner is None:
        return styles[INDEPENDENT]
    return styles.get(owner, styles[INDEPENDENT])
