"""The shapes of an area map over a coastline: cells of centres of one kind, a GM's border line, the coast cut to
the frame without its cut edges."""
from __future__ import annotations

from bot.render.area_geometry import cells, clip_ring, coast_lines, edges_between, inside_convex


def test_cells_split_halfway_or_along_a_drawn_line_and_say_who_is_across_each_edge() -> None:
    names, centres, reaches = ["A", "B"], [(10.0, 50.0), (90.0, 50.0)], [200.0, 200.0]
    halfway = cells(names, centres, reaches, (0, 0, 100, 100), {})
    assert sorted(halfway[0].points) == [(0.0, 0.0), (0.0, 100.0), (50.0, 0.0), (50.0, 100.0)]
    assert edges_between(halfway[0], "B") == [((50.0, 0.0), (50.0, 100.0))] or \
        edges_between(halfway[0], "B") == [((50.0, 100.0), (50.0, 0.0))]
    assert halfway[0].sides.count(None) == 3  # the frame's three other sides
    drawn = cells(names, centres, reaches, (0, 0, 100, 100), {("B", "A"): ((30.0, -5.0), (30.0, 5.0))})
    assert max(x for x, _y in drawn[0].points) == 30.0 and min(x for x, _y in drawn[1].points) == 30.0
    assert inside_convex((29.0, 70.0), drawn[0].points) and inside_convex((31.0, 70.0), drawn[1].points)


def test_a_cell_ends_at_its_reach() -> None:
    (lone,) = cells(["A"], [(50.0, 50.0)], [10.0], (0, 0, 100, 100), {})
    assert all(abs(((x - 50) ** 2 + (y - 50) ** 2) ** 0.5 - 10.0) < 1e-9 for x, y in lone.points)
    assert set(lone.sides) == {None}


def test_the_coast_is_cut_to_the_frame_and_drawn_without_the_cut() -> None:
    # A square island half out of the frame, on its right.
    ring = [(80.0, 40.0), (120.0, 40.0), (120.0, 60.0), (80.0, 60.0)]
    cut = clip_ring(ring, (0, 0, 100, 100))
    assert sorted(cut) == [(80.0, 40.0), (80.0, 60.0), (100.0, 40.0), (100.0, 60.0)]
    (line,) = coast_lines([cut], (0, 0, 100, 100))
    assert len(line) == 4 and (line[0], line[-1]) in (((100.0, 60.0), (100.0, 40.0)), ((100.0, 40.0), (100.0, 60.0)))
    assert coast_lines([[(10.0, 10.0), (20.0, 10.0), (20.0, 20.0)]], (0, 0, 100, 100)) == [
        ((10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 10.0))]
