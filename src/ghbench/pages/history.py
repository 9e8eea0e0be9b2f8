"""Scorecards, comparisons and the matrix in the formats trend trackers read.

- **BMF**, Bencher Metric Format (bencher.dev/docs/reference/bencher-metric-format): a
  JSON object ``{benchmark: {measure: {"value": N, "lower_value": N, "upper_value": N}}}``,
  the two bounds optional; ``bencher run --adapter json`` takes it.
- **gab**, github-action-benchmark's ``customSmallerIsBetter`` tool: a JSON array of
  ``{"name", "unit", "value"}`` objects, ``range`` and ``extra`` optional strings (its
  ``BenchmarkResult``); the action refuses an empty array.

A benchmark is a cell (its ``scenarioId``, the name ``compare`` pairs scorecards by);
a measure is a figure by the name ``compare --fail`` takes (``graphqlPointsPerHr``,
``consumption.graphql.perHr``). Every figure tracked is one where less is better, as
``customSmallerIsBetter`` assumes. A figure without a value (no data) is left out, not
written as 0. Pure: figures in, JSON-ready values out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ghbench.analysis.compare_metrics import metric_values
from ghbench.artifacts.metrics import METRICS
from ghbench.artifacts.models import Scorecard, ScorecardArtifact
from ghbench.errors import UsageError

__all__ = [
    "FORMATS",
    "TRACKED",
    "Measurement",
    "bmf",
    "compare_measurements",
    "gab",
    "render_history",
    "scorecard_measurements",
    "spec_measurements",
]

FORMATS = ("bmf", "gab")

# the figures kept as history, by compare's name, with their unit; all smaller-is-better
TRACKED: dict[str, str] = {
    "totalCalls": "calls",
    "callsPerMin": "calls/min",
    "graphqlPointsPerHr": "points/h",
    "restCoreRequestsPerHr": "requests/h",
    "opaqueCallPct": "ratio",
    "p95DurationMs": "ms",
    "consumption.graphql.perHr": "points/h",
    "consumption.core.perHr": "requests/h",
    "secondaryLimits.concurrency.peak": "calls",
    "secondaryLimits.restPointsPerMinute.peak": "points/min",
    "secondaryLimits.graphqlPointsPerMinute.peak": "points/min",
    "spendSplit.consumption.graphql.perHr": "points/h",
    "spendSplit.consumption.core.perHr": "requests/h",
}


@dataclass(frozen=True)
class Measurement:
    """One figure of one benchmark; ``low``/``high``: the runs' range, when several."""

    benchmark: str
    measure: str
    value: float
    low: float | None = None
    high: float | None = None
    runs: int = 1


def scorecard_measurements(
    artifact: ScorecardArtifact, benchmark: str | None = None
) -> list[Measurement]:
    """The tracked figures of one scorecard (``benchmark``: its scenarioId unless given)."""
    values = metric_values(artifact)
    name = benchmark or artifact.scenario_id
    return [
        Measurement(name, measure, value)
        for measure in TRACKED
        if (value := values.get(measure)) is not None
    ]


def compare_measurements(doc: Mapping[str, Any]) -> list[Measurement]:
    """The candidate side of a comparison (``compare --json``): each tracked figure's
    median over its runs, with their min and max."""
    name = doc["candidate"]["cell"]["scenarioId"]
    out = []
    for m in doc.get("metrics") or []:
        side = m["candidate"]
        if m["name"] in TRACKED and side.get("median") is not None:
            out.append(
                Measurement(name, m["name"], side["median"], side["min"], side["max"], side["runs"])
            )
    return out


def bmf(measurements: Sequence[Measurement]) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    for m in measurements:
        metric: dict[str, float] = {"value": m.value}
        if m.low is not None and m.high is not None and m.runs > 1:
            metric["lower_value"] = m.low
            metric["upper_value"] = m.high
        out.setdefault(m.benchmark, {})[m.measure] = metric
    return out


def gab(measurements: Sequence[Measurement]) -> list[dict[str, Any]]:
    out = []
    for m in measurements:
        entry: dict[str, Any] = {
            "name": f"{m.benchmark} {m.measure}",
            "unit": TRACKED[m.measure],
            "value": m.value,
        }
        if m.low is not None and m.high is not None and m.runs > 1:
            entry["range"] = f"{m.low:g} to {m.high:g}"
            entry["extra"] = f"median of {m.runs} runs"
        out.append(entry)
    return out


def render_history(measurements: Sequence[Measurement], fmt: str) -> Any:
    """``fmt`` (bmf | gab) of ``measurements``, ready for ``json.dumps``; nothing to
    track is a usage error (github-action-benchmark fails on an empty list)."""
    if not measurements:
        raise UsageError(
            f"--format {fmt}: no figure to track (every tracked figure is empty); check"
            " that the run made calls"
        )
    return bmf(measurements) if fmt == "bmf" else gab(measurements)


def spec_measurements(benchmark: str, card: Scorecard) -> list[Measurement]:
    """The tracked figures a matrix run's record keeps (the spec's ``scorecard`` object
    only), for a run whose scorecard file is gone."""
    return [
        Measurement(benchmark, key, value)
        for key in TRACKED
        if key in METRICS and (value := METRICS[key].of(card)) is not None
    ]
