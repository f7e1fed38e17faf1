"""The archive parser against real draws, and every way a line can be wrong."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from engine.lotto import (
    WHEEL_NAMES,
    WHEELS,
    Draw,
    format_archive_line,
    missing_wheels,
    parse_archive,
    wheels_on,
)

from tests.fixture_paths import LOTTO  # noqa: E402  (after the project imports)

FIXTURES = LOTTO

D = dt.date
BA_2023_01_03 = (18, 60, 66, 51, 19)


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def single_error(text: str, source: str = "draws.txt"):
    parsed = parse_archive(text, source)
    assert len(parsed.errors) == 1, [str(e) for e in parsed.errors]
    return parsed.errors[0]


# --- wheels ---------------------------------------------------------------------------------------


def test_wheels_and_names() -> None:
    assert WHEELS == ("BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "RN", "TO", "VE")
    assert tuple(WHEEL_NAMES) == WHEELS
    assert WHEEL_NAMES["RN"] == "Nazionale"
    assert WHEEL_NAMES["VE"] == "Venezia"


def test_nazionale_only_since_2005_05_04() -> None:
    assert "RN" not in wheels_on(D(2005, 5, 3))
    assert len(wheels_on(D(2005, 5, 3))) == 10
    assert wheels_on(D(2005, 5, 4)) == WHEELS


# --- the real fixtures ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "first", "last", "count"),
    [
        ("draws-2023-01.txt", D(2023, 1, 3), D(2023, 1, 31), 13),
        ("draws-2026-09.txt", D(2026, 9, 1), D(2026, 9, 24), 14),
    ],
)
def test_fixture_parses_cleanly(name: str, first: dt.date, last: dt.date, count: int) -> None:
    parsed = parse_archive(fixture_text(name), name)
    assert parsed.errors == []
    assert len(parsed.draws) == count
    assert parsed.draws[0].date == first
    assert parsed.draws[-1].date == last
    for draw in parsed.draws:
        assert draw.wheels == WHEELS
        assert missing_wheels(draw) == []
    assert len(parsed.entries) == count * 11


def test_fixture_dates_follow_the_schedule() -> None:
    jan = [d.date.day for d in parse_archive(fixture_text("draws-2023-01.txt")).draws]
    assert jan == [3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31]  # Tue/Thu/Sat
    sep = [d.date.day for d in parse_archive(fixture_text("draws-2026-09.txt")).draws]
    assert sep == [1, 3, 4, 5, 8, 10, 11, 12, 15, 17, 18, 19, 22, 24]  # Tue/Thu/Fri/Sat


def test_fixture_numbers_as_read_from_the_files() -> None:
    jan = {d.date: d for d in parse_archive(fixture_text("draws-2023-01.txt")).draws}
    sep = {d.date: d for d in parse_archive(fixture_text("draws-2026-09.txt")).draws}
    assert jan[D(2023, 1, 3)].numbers["BA"] == BA_2023_01_03
    assert jan[D(2023, 1, 3)].numbers["RN"] == (87, 73, 65, 31, 44)
    assert jan[D(2023, 1, 5)].numbers["CA"] == (19, 80, 83, 53, 2)
    assert jan[D(2023, 1, 31)].numbers["VE"] == (68, 22, 64, 25, 3)
    assert sep[D(2026, 9, 1)].numbers["FI"] == (47, 55, 75, 69, 70)
    assert sep[D(2026, 9, 24)].numbers["RN"] == (2, 66, 15, 11, 22)
    assert sep[D(2026, 9, 24)].numbers["TO"] == (74, 18, 6, 75, 16)


def test_format_archive_line_reproduces_every_fixture_line() -> None:
    for name in ("draws-2023-01.txt", "draws-2026-09.txt"):
        text = fixture_text(name)
        data_lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
        produced = [ln for draw in parse_archive(text).draws for ln in draw.archive_lines()]
        assert produced == data_lines
    assert format_archive_line(D(2023, 1, 3), "BA", BA_2023_01_03) == "2023/01/03\tBA\t18\t60\t66\t51\t19"


# --- Draw -----------------------------------------------------------------------------------------


def test_draw_number_by_position() -> None:
    draw = Draw(D(2023, 1, 3), {"BA": BA_2023_01_03})
    assert draw.number("BA", 1) == 18  # the "primo estratto"
    assert draw.number("BA", 5) == 19
    with pytest.raises(ValueError):
        draw.number("BA", 0)
    with pytest.raises(ValueError):
        draw.number("BA", 6)
    with pytest.raises(KeyError):
        draw.number("CA", 1)


def test_draw_dict_round_trip() -> None:
    draw = parse_archive(fixture_text("draws-2023-01.txt")).draws[0]
    data = draw.to_dict()
    assert data["date"] == "2023-01-03"
    assert data["numbers"]["BA"] == [18, 60, 66, 51, 19]
    assert list(data["numbers"]) == list(WHEELS)
    assert Draw.from_dict(data) == draw
    assert hash(Draw.from_dict(data)) == hash(draw)


def test_draw_is_immutable_and_ordered() -> None:
    source = {"VE": [1, 2, 3, 4, 5], "BA": [6, 7, 8, 9, 10]}
    draw = Draw(D(2023, 1, 3), source)  # type: ignore[arg-type]
    source["BA"][0] = 90  # the caller's list must not leak into the draw
    assert draw.wheels == ("BA", "VE")
    assert draw.numbers["BA"] == (6, 7, 8, 9, 10)
    with pytest.raises(TypeError):
        draw.numbers["CA"] = (1, 2, 3, 4, 5)  # type: ignore[index]


@pytest.mark.parametrize(
    "numbers",
    [{"XX": (1, 2, 3, 4, 5)}, {"BA": (1, 2, 3, 4)}, {"BA": (1, 2, 3, 4, 91)}, {"BA": (1, 2, 3, 4, 4)}],
)
def test_draw_rejects_impossible_results(numbers: dict[str, tuple[int, ...]]) -> None:
    with pytest.raises(ValueError):
        Draw(D(2023, 1, 3), numbers)  # type: ignore[arg-type]


def test_missing_wheels() -> None:
    ten = {w: (1, 2, 3, 4, 5) for w in WHEELS if w != "RN"}
    assert missing_wheels(Draw(D(2005, 5, 1), ten)) == []  # before the Nazionale: complete
    assert missing_wheels(Draw(D(2023, 1, 3), ten)) == ["RN"]
    assert missing_wheels(Draw(D(2023, 1, 3), {"BA": BA_2023_01_03})) == [w for w in WHEELS if w != "BA"]


# --- leniency -------------------------------------------------------------------------------------


def test_whitespace_crlf_bom_comments_and_blanks() -> None:
    text = (
        "\ufeff# a comment\r\n"
        "\r\n"
        "2023/01/03 BA  18 60\t66 51 19   \r\n"
        "   # an indented comment\n"
        "\t2023/01/03\tca\t6\t1\t55\t27\t19\n"
        "\n"
        "2023/01/03 FI 40 83 85 82 xx\n"
    )
    parsed = parse_archive(text, "pasted.txt")
    assert [d.numbers for d in parsed.draws] == [{"BA": BA_2023_01_03, "CA": (6, 1, 55, 27, 19)}]
    # Comments, blanks and the BOM still count as lines, so the number matches the user's editor.
    assert [(e.line, e.text) for e in parsed.errors] == [(7, "2023/01/03 FI 40 83 85 82 xx")]


def test_draws_are_sorted_and_grouped_by_date() -> None:
    text = fixture_text("draws-2023-01.txt")
    shuffled = "\n".join(reversed(text.splitlines()))
    assert parse_archive(shuffled).draws == parse_archive(text).draws


def test_partial_draw_is_allowed_at_parse_time() -> None:
    parsed = parse_archive("2023/01/03\tBA\t18\t60\t66\t51\t19\n")
    assert parsed.errors == []
    assert missing_wheels(parsed.draws[0]) == ["CA", "FI", "GE", "MI", "NA", "PA", "RM", "RN", "TO", "VE"]


def test_the_same_line_twice_is_fine() -> None:
    line = "2023/01/03\tBA\t18\t60\t66\t51\t19\n"
    parsed = parse_archive(line + line + line)
    assert parsed.errors == []
    assert len(parsed.entries) == 1
    assert parsed.entries[0].line == 1


def test_empty_and_comment_only_texts() -> None:
    for text in ("", "\n\n", "# nothing\n", "\ufeff"):
        parsed = parse_archive(text)
        assert parsed.draws == [] and parsed.errors == []


# --- every validation error, with its line number and the line quoted ------------------------------

GOOD = "2023/01/03\tCA\t6\t1\t55\t27\t19\n"


@pytest.mark.parametrize(
    ("bad_line", "expected"),
    [
        (
            "2023/01/03\tBA\t18\t60\t66\t51",
            "'2023/01/03 BA 18 60 66 51' has 4 numbers; a line needs the date, the wheel and 5 numbers",
        ),
        (
            "2023/01/03\tBA\t18\t60\t66\t51\t19\t7",
            "'2023/01/03 BA 18 60 66 51 19 7' has 6 numbers; a line needs the date, the wheel and 5 numbers",
        ),
        (
            "BA\t18\t60\t66\t51\t19",
            "'BA 18 60 66 51 19': 'BA' is not a date (YYYY/MM/DD)",
        ),
        (
            "03/01/2023\tBA\t18\t60\t66\t51\t19",
            "'03/01/2023 BA 18 60 66 51 19': '03/01/2023' is not a date (YYYY/MM/DD)",
        ),
        (
            "2023/02/30\tBA\t18\t60\t66\t51\t19",
            "'2023/02/30 BA 18 60 66 51 19': 2023/02/30 is not a real date",
        ),
        (
            "2023/01/03",
            "'2023/01/03' has no wheel; a line needs the date, the wheel and 5 numbers",
        ),
        (
            "2023/01/03\tXX\t18\t60\t66\t51\t19",
            "'2023/01/03 XX 18 60 66 51 19': 'XX' is not a wheel (BA CA FI GE MI NA PA RM RN TO VE)",
        ),
        (
            "2005/05/01\tRN\t18\t60\t66\t51\t19",
            "'2005/05/01 RN 18 60 66 51 19': the Nazionale wheel (RN) was only drawn from 2005/05/04,"
            " not on 2005/05/01",
        ),
        (
            "2023/01/03\tBA\t18\t60\tsix\t51\t19",
            "'2023/01/03 BA 18 60 six 51 19': 'six' is not a whole number",
        ),
        (
            "2023/01/03\tBA\t18\t-60\t66\t51\t19",
            "'2023/01/03 BA 18 -60 66 51 19': '-60' is not a whole number",
        ),
        (
            "2023/01/03\tBA\t18\t60\t66\t51\t1.5",
            "'2023/01/03 BA 18 60 66 51 1.5': '1.5' is not a whole number",
        ),
        (
            "2023/01/03\tBA\t18\t60\t66\t51\t91",
            "'2023/01/03 BA 18 60 66 51 91': 91 is out of range 1..90",
        ),
        (
            "2023/01/03\tBA\t0\t60\t66\t51\t19",
            "'2023/01/03 BA 0 60 66 51 19': 0 is out of range 1..90",
        ),
        (
            "2023/01/03\tBA\t18\t60\t66\t18\t19",
            "'2023/01/03 BA 18 60 66 18 19': 18 appears twice; the 5 numbers of a wheel are distinct",
        ),
    ],
)
def test_bad_line(bad_line: str, expected: str) -> None:
    # The bad line is line 4: a comment, a good line and a blank line come first.
    text = "# header\n" + GOOD + "\n" + bad_line + "\n" + GOOD
    parsed = parse_archive(text, "draws.txt")
    assert len(parsed.errors) == 1
    error = parsed.errors[0]
    assert (error.source, error.line, error.text) == ("draws.txt", 4, bad_line)
    assert error.problem == expected
    assert str(error) == f"draws.txt:4: {expected}"
    # The good lines around it still count.
    assert [(e.date, e.wheel) for e in parsed.entries] == [(D(2023, 1, 3), "CA")]


def test_nazionale_accepted_from_its_first_day() -> None:
    parsed = parse_archive("2005/05/04\tRN\t18\t60\t66\t51\t19\n")
    assert parsed.errors == []
    assert parsed.draws[0].numbers == {"RN": BA_2023_01_03}


def test_contradicting_lines_name_both_and_neither_is_used() -> None:
    text = (
        "2023/01/03\tBA\t18\t60\t66\t51\t19\n"  # line 1
        + GOOD  # line 2
        + "2023/01/03\tBA\t18\t60\t66\t51\t20\n"  # line 3
    )
    error = single_error(text)
    assert error.line == 3
    assert str(error) == (
        "draws.txt:3: '2023/01/03 BA 18 60 66 51 20' contradicts line 1 '2023/01/03 BA 18 60 66 51 19': "
        "same date and wheel, other numbers; neither line is used"
    )
    # Which of the two is right cannot be known from the file, so BA is left out; CA stays.
    assert parse_archive(text).draws[0].wheels == ("CA",)


def test_error_line_numbers_in_a_real_fixture_copy(tmp_path: Path) -> None:
    # A modified copy of a real file: the line of 2023/01/05 GE loses a number.
    lines = fixture_text("draws-2023-01.txt").splitlines(keepends=True)
    index = next(i for i, ln in enumerate(lines) if ln.startswith("2023/01/05\tGE\t"))
    lines[index] = lines[index].rsplit("\t", 1)[0] + "\n"
    copy = tmp_path / "broken.txt"
    copy.write_text("".join(lines), encoding="utf-8")
    parsed = parse_archive(copy.read_text(encoding="utf-8"), copy.name)
    assert [(e.line, e.text) for e in parsed.errors] == [(index + 1, "2023/01/05\tGE\t29\t41\t42\t8")]
    assert missing_wheels(next(d for d in parsed.draws if d.date == D(2023, 1, 5))) == ["GE"]


@pytest.mark.parametrize(
    "garbage",
    [
        "\x00\x01\x02",
        "2023/01/03\tBA\t١٢\t60\t66\t51\t19",  # Arabic-Indic digits are not archive numbers
        "2023/01/03\tBA\t99999999999999999999999\t60\t66\t51\t19",
        "9999/99/99 BA 1 2 3 4 5",
        "0000/01/01 BA 1 2 3 4 5",
        "２０２３/01/03 BA 1 2 3 4 5",  # full-width digits
        "😀 😀 😀 😀 😀 😀 😀",
    ],
)
def test_garbage_is_reported_never_raised(garbage: str) -> None:
    parsed = parse_archive(garbage + "\n" + GOOD)
    assert len(parsed.errors) == 1 and parsed.errors[0].line == 1
    assert len(parsed.entries) == 1
