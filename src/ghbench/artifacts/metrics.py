"""The spec's scorecard figures, once: how each is named, shown, compared and pruned.

A metric's ``key`` is its place in the scorecard artifact (``graphqlPointsPerHr``,
``bracketDelta.core``), which is also the name ``ghbench compare --fail`` takes; ``of``
reads it from a typed ``Scorecard``. ``baseline.md``'s table (``BASELINE_ROWS``), the
matrix's pruning and its chart, and ``compare`` all read their figures from here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import msgspec

from ghbench.artifacts.models import Scorecard

__all__ = ["BASELINE_ROWS", "METRICS", "SCORECARD_METRICS", "ScorecardMetric"]


def _field(model: object, key: str) -> object:
    """The field of a typed model that the artifact's JSON calls ``key``."""
    if not isinstance(model, msgspec.Struct):
        return None
    name = _names(type(model)).get(key)
    return getattr(model, name) if name is not None else None


@functools.cache
def _names(model: type[msgspec.Struct]) -> dict[str, str]:
    """A model's fields by their JSON names (``msgspec.structs.fields`` evaluates the
    class's annotations on every call: a matrix's baseline asked it 77,000 times)."""
    return {info.encode_name: info.name for info in msgspec.structs.fields(model)}


@dataclass(frozen=True)
class ScorecardMetric:
    """One figure of the spec's ``scorecard`` object."""

    key: str  # where it is in the artifact (camelCase, dotted below the top)
    label: str  # baseline.md's row label
    digits: int  # compare's decimals (counts 0, rates 1–2, ratios 4)
    shown: int  # baseline.md's decimals
    ratio: bool = False  # a share: baseline.md shows it as a percentage
    # pruning: compared per session (it grows with the session count), as it is
    # (False), or not at all (None)
    per_session: bool | None = None

    def of(self, card: Scorecard) -> float | None:
        """The figure in ``card``; None when it has none (or it is not a number)."""
        value: object = card
        for key in self.key.split("."):
            value = _field(value, key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value)


# the spec's fields, in the spec's order
SCORECARD_METRICS: tuple[ScorecardMetric, ...] = (
    ScorecardMetric("totalCalls", "Total GH calls", 0, 0, per_session=True),
    ScorecardMetric("callsPerMin", "Calls/min", 2, 1, per_session=True),
    ScorecardMetric("graphqlPointsPerHr", "GraphQL points/hr", 1, 0, per_session=True),
    ScorecardMetric("restCoreRequestsPerHr", "REST core requests/hr", 1, 0, per_session=True),
    ScorecardMetric("graphqlBatchCount", "graphql-batch count", 0, 0, per_session=True),
    ScorecardMetric("guardPrList304Count", "guard-pr-list 304s", 0, 0, per_session=True),
    ScorecardMetric("guardPrListErrorCount", "guard-pr-list errors", 0, 0, per_session=True),
    ScorecardMetric(
        "guardPrList304Rate", "guard-pr-list 304 rate", 4, 1, ratio=True, per_session=False
    ),
    ScorecardMetric("opaqueCallCount", "Opaque calls", 0, 0, per_session=True),
    ScorecardMetric("opaqueCallPct", "Opaque share", 4, 1, ratio=True, per_session=False),
    ScorecardMetric("bracketDelta.core", "Bracket delta (core)", 0, 0),
    ScorecardMetric("bracketDelta.graphql", "Bracket delta (graphql)", 0, 0),
    ScorecardMetric("p50DurationMs", "p50 duration (ms)", 1, 0, per_session=False),
    ScorecardMetric("p95DurationMs", "p95 duration (ms)", 1, 0, per_session=False),
    ScorecardMetric("p99DurationMs", "p99 duration (ms)", 1, 0, per_session=False),
    ScorecardMetric("benchmarkControlCalls", "Benchmark control calls", 0, 0),
)
METRICS: dict[str, ScorecardMetric] = {m.key: m for m in SCORECARD_METRICS}

# baseline.md's scorecard table, in its order
BASELINE_ROWS: tuple[ScorecardMetric, ...] = tuple(
    METRICS[key]
    for key in (
        "totalCalls",
        "callsPerMin",
        "graphqlPointsPerHr",
        "restCoreRequestsPerHr",
        "graphqlBatchCount",
        "guardPrList304Count",
        "guardPrList304Rate",
        "guardPrListErrorCount",
        "opaqueCallCount",
        "opaqueCallPct",
        "p50DurationMs",
        "p95DurationMs",
        "p99DurationMs",
        "benchmarkControlCalls",
    )
)
