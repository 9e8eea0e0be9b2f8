"""The one matplotlib setup: a figure on the Agg canvas, its PNG bytes stable."""

from __future__ import annotations

from ghbench.analysis.plots import new_figure, png_bytes


def _chart() -> bytes:
    fig = new_figure(4, 3)
    fig.add_subplot(1, 1, 1).plot([1, 2, 3], [3, 1, 2])
    return png_bytes(fig)


def test_the_same_chart_is_the_same_png() -> None:
    first = _chart()
    assert first.startswith(b"\x89PNG\r\n\x1a\n")
    assert first == _chart()  # no date, no version in it
    assert b"Software" not in first
