"""ghbench.pages.svg: the pages' charts: round ticks, thinned lines that keep their
extremes, and an <svg> that is well-formed whatever it is given."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.pages.svg import Band, RefLine, Series, legend, line_chart, nice_ticks, thin

finite = st.floats(-1e9, 1e9, allow_nan=False)


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(finite, finite, st.integers(1, 10))
def test_ticks_are_round_evenly_spaced_and_inside_the_range(a: float, b: float, count: int) -> None:
    low, high = min(a, b), max(a, b)
    ticks = nice_ticks(low, high, count)
    if high <= low:
        assert ticks == [low]
        return
    step = (high - low) / count
    assert all(low - step * 1e-6 <= t <= high + step * 1e-6 for t in ticks)
    gaps = [y - x for x, y in itertools.pairwise(ticks)]
    assert all(math.isclose(g, gaps[0], rel_tol=1e-6) for g in gaps)  # one step apart
    if gaps and gaps[0] > 0:
        mantissa = gaps[0] / 10 ** math.floor(math.log10(gaps[0]))
        assert any(math.isclose(mantissa, m, rel_tol=1e-6) for m in (1, 2, 5, 10))


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(
    st.lists(st.tuples(st.floats(0, 1000), st.floats(-100, 100)), min_size=1, max_size=300),
    st.integers(1, 40),
)
def test_thinning_keeps_the_ends_and_every_columns_extremes(
    raw: list[tuple[float, float]], columns: int
) -> None:
    points = sorted(raw)
    kept = thin(points, columns)
    assert kept[0] == points[0] and kept[-1] == points[-1]
    assert set(kept) <= set(points)
    assert min(p[1] for p in kept) == min(p[1] for p in points)
    assert max(p[1] for p in kept) == max(p[1] for p in points)
    assert len(kept) <= max(2 * columns, 4 * columns)


# printable labels: the page is HTML, whose parser takes what XML refuses (control bytes)
labels = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=10)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(finite, finite), max_size=20), labels)
def test_a_chart_is_well_formed_svg_with_its_labels_escaped(
    points: list[tuple[float, float]], label: str
) -> None:
    chart = line_chart(
        [Series(label, sorted(points))],
        x_label="<x>",
        y_label="y & z",
        hlines=[RefLine(5000, "limit")],
        bands=[Band(0, 1, "window")],
    )
    root = ET.fromstring(chart)
    assert root.tag.endswith("svg")
    assert "&lt;x&gt;" in chart and "y &amp; z" in chart


def test_an_empty_chart_still_draws_its_axes() -> None:
    root = ET.fromstring(line_chart([], x_label="t", y_label="calls"))
    assert root.tag.endswith("svg")
    assert "calls" in line_chart([], x_label="t", y_label="calls")


def test_the_legend_names_each_series_and_the_extras() -> None:
    out = legend([Series("core <REST>", [(0, 1)])], ["limit"])
    assert "core &lt;REST&gt;" in out and "limit" in out
