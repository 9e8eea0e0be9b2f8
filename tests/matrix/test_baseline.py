"""The baseline report's sections."""

from __future__ import annotations


def test_baseline_shows_a_scaled_runs_spans_in_seconds() -> None:
    from ghbench.matrix.baseline import _span

    assert _span(900) == "15 min"
    assert _span(120) == "2 min"
    assert _span(9) == "9s"
    assert _span(90) == "1m 30s"
