"""The spec's scorecard figures, once: read from a typed scorecard by the names the
artifact's JSON gives them (nested ones included), None for what it has not, and the
same list ``compare`` compares."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ghbench.analysis.compare_metrics import SCALAR_METRICS
from ghbench.artifacts.metrics import BASELINE_ROWS, METRICS, SCORECARD_METRICS, ScorecardMetric
from ghbench.artifacts.models import load_scorecard

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("metric", SCORECARD_METRICS, ids=lambda m: m.key)
def test_each_figure_is_the_one_at_its_place_in_the_json(metric: ScorecardMetric) -> None:
    card = load_scorecard(GOLDEN / "scorecard-rate-limited.json").scorecard
    value: object = msgspec.to_builtins(card)
    for key in metric.key.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    expected = None if value is None else float(value)  # type: ignore[arg-type]
    assert metric.of(card) == expected


def test_what_a_scorecard_has_not_is_none() -> None:
    card = load_scorecard(GOLDEN / "scorecard-example.json").scorecard
    assert METRICS["bracketDelta.core"].of(card) is None  # no snapshots
    assert ScorecardMetric("bracketDelta.nothing", "x", 0, 0).of(card) is None
    assert ScorecardMetric("totalCalls.deeper", "x", 0, 0).of(card) is None
    assert ScorecardMetric("graphqlPointsPerHrEstimated", "x", 0, 0).of(card) is None  # a flag


def test_compare_compares_the_same_figures_with_the_same_decimals() -> None:
    compared = {m.name: m.digits for m in SCALAR_METRICS if m.section == "scorecard"}
    assert compared == {m.key: m.digits for m in SCORECARD_METRICS}


def test_the_baseline_rows_are_metrics_once_each() -> None:
    assert len(METRICS) == len(SCORECARD_METRICS)
    assert len(set(BASELINE_ROWS)) == len(BASELINE_ROWS)
    assert all(METRICS[m.key] is m for m in BASELINE_ROWS)
    assert all(m.per_session is False for m in SCORECARD_METRICS if m.ratio)  # a share
