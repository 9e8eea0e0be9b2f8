"""The figures ``ghbench compare`` shows, and the names ``--fail`` thresholds use.

The rate limits that answered in a run (its ``rate-limited`` warnings) come first:
``rateLimited.refusedCalls``, ``.refusedSeconds`` (over every budget) and ``.budgets``
(how many ran out or refused calls); a regression there fails a ``--fail`` threshold
like any other. Otherwise a metric's name is where it sits in the scorecard artifact:
the spec's fields by their key (``graphqlPointsPerHr``, ``bracketDelta.core``),
ghbench's insights by their path under ``insights`` (``consumption.graphql.perHr``,
``secondaryLimits.concurrency.peak``, ``pacing.graphql.shareFirst10Min``),
and per-operation figures as ``operations[gh.api.graphql-batch].calls``. So a name a
user has seen in a scorecard is the name they type, and the table below is the one
list of what is compared (data, not code).

Left out on purpose: the spec's ``*Estimated`` flags and ``exact``'s per-hour sources
and reset windows (not numbers; compare reports them as notes),
``attributedSpend.*.consumedPerHr`` (the same figure as ``consumption.*.perHr``), and
the per-session breakdowns, the agents' included (session ids differ between two
builds' runs, so rows would not pair up). The agents' model of each side (``spendSplit.
agentModel``) is a note when the two differ: that is the change a mitigation compares.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from ghbench.artifacts.models import ScorecardArtifact

__all__ = [
    "OPERATION_FIELDS",
    "RATE_LIMITED",
    "SCALAR_METRICS",
    "SECTIONS",
    "MetricDef",
    "metric_values",
    "operation_metric",
    "parse_operation_metric",
]


@dataclass(frozen=True)
class MetricDef:
    """One compared figure: its name, its section, where it is, how it is printed."""

    name: str
    section: str
    path: tuple[str, ...]  # keys in the artifact's JSON
    digits: int  # decimals when printed (counts 0, rates 1–2, ratios 4)


# section id -> heading, in the order they are shown
SECTIONS: dict[str, str] = {
    "limits": "Rate limits that answered (warnings)",
    "scorecard": "Scorecard (spec)",
    "exact": "Exact figures (insights.exact)",
    "spend": "Spend per resource (insights)",
    "pacing": "Pacing: each budget's worst reset window (insights.pacing)",
    "secondary": "Secondary limits (insights)",
    "rows": "Rows excluded (insights)",
    "split": "Who spent: the orchestrator and its agents (insights.spendSplit)",
    "operations": "Per operation (insights)",
}

# name, digits: the spec's scorecard fields, in the spec's order
_SPEC: tuple[tuple[str, int], ...] = (
    ("totalCalls", 0),
    ("callsPerMin", 2),
    ("graphqlPointsPerHr", 1),
    ("restCoreRequestsPerHr", 1),
    ("graphqlBatchCount", 0),
    ("guardPrList304Count", 0),
    ("guardPrListErrorCount", 0),
    ("guardPrList304Rate", 4),
    ("opaqueCallCount", 0),
    ("opaqueCallPct", 4),
    ("bracketDelta.core", 0),
    ("bracketDelta.graphql", 0),
    ("p50DurationMs", 1),
    ("p95DurationMs", 1),
    ("p99DurationMs", 1),
    ("benchmarkControlCalls", 0),
)
# the spec's rates, ratios and percentiles: ``insights.exact`` holds them unrounded
# (scorecard version 2 on)
_EXACT = frozenset(
    {
        "callsPerMin",
        "graphqlPointsPerHr",
        "restCoreRequestsPerHr",
        "guardPrList304Rate",
        "opaqueCallPct",
        "p50DurationMs",
        "p95DurationMs",
        "p99DurationMs",
    }
)
_RESOURCES = ("graphql", "core")
# the secondary limits whose peaks insights keep (``secondaryLimits``; ``spendSplit``'s
# over the orchestrator's and the agents' traces together)
_SECONDARY = ("concurrency", "restPointsPerMinute", "graphqlPointsPerMinute")

# (section, name under insights, digits); the spend figures once per budget
_PER_RESOURCE: tuple[tuple[str, str, int], ...] = (
    ("spend", "consumption.{r}.points", 0),
    ("spend", "consumption.{r}.perHr", 1),
    ("spend", "consumption.{r}.resetWindows", 0),
    ("spend", "consumption.{r}.firstCallPoints", 0),
    ("spend", "attributedSpend.{r}.pricedCalls", 0),
    ("spend", "attributedSpend.{r}.attributedPoints", 0),
    ("spend", "attributedSpend.{r}.attributedPerHr", 1),
    ("spend", "attributedSpend.{r}.unattributedPerHr", 1),
)
# scorecard version 5 on: the share spent in the first 10 minutes of a reset window, when
# the budget ran out (seconds from the window's start; none when it did not), minutes refused
_PACING: tuple[tuple[str, int], ...] = (
    ("shareFirst10Min", 4),
    ("exhaustedAfterSeconds", 1),
    ("refusedMinutes", 2),
)
_INSIGHTS: tuple[tuple[str, str, int], ...] = (
    *(("exact", f"exact.{name}", digits) for name, digits in _SPEC if name in _EXACT),
    *(
        (section, name.format(r=resource), digits)
        for resource in _RESOURCES
        for section, name, digits in _PER_RESOURCE
    ),
    *(
        ("pacing", f"pacing.{resource}.{field}", digits)
        for resource in _RESOURCES
        for field, digits in _PACING
    ),
    *(("secondary", f"secondaryLimits.{limit}.peak", 0) for limit in _SECONDARY),
    ("rows", "rowsExcluded.beforeWindow", 0),
    ("rows", "rowsExcluded.afterWindow", 0),
    ("rows", "rowsExcluded.benchmarkControl", 0),
    *(
        ("split", f"spendSplit.{who}.{field}", 0)
        for who in ("orchestrator", "agents")
        for field in ("calls", "graphqlPoints", "corePoints")
    ),
    *(("split", f"spendSplit.consumption.{resource}.perHr", 1) for resource in _RESOURCES),
    *(("split", f"spendSplit.secondaryLimits.{limit}.peak", 0) for limit in _SECONDARY),
)

# the ``rate-limited`` warnings (scorecard version 4 on): calls refused and seconds spent
# refused, summed over the budgets, and how many budgets ran out or refused calls
RATE_LIMITED = "rate-limited"
_LIMITS: tuple[tuple[str, int], ...] = (
    ("rateLimited.refusedCalls", 0),
    ("rateLimited.refusedSeconds", 1),
    ("rateLimited.budgets", 0),
)
_LIMITS_SINCE = 4

SCALAR_METRICS: tuple[MetricDef, ...] = (
    tuple(MetricDef(name, "limits", (), digits) for name, digits in _LIMITS)
    + tuple(
        MetricDef(name, "scorecard", ("scorecard", *name.split(".")), digits)
        for name, digits in _SPEC
    )
) + tuple(
    MetricDef(name, section, ("insights", *name.split(".")), digits)
    for section, name, digits in _INSIGHTS
)

# per-operation fields (RowBreakdown's JSON keys), all counts
OPERATION_FIELDS: tuple[str, ...] = ("calls", "opaqueCalls", "graphqlPoints", "corePoints")
NO_OPERATION = "(none)"  # rows without an operation name
_OPERATION_METRIC = re.compile(r"^operations\[([^\[\]]+)\]\.([A-Za-z]+)$")


def operation_metric(operation: str, field: str) -> str:
    return f"operations[{operation}].{field}"


def parse_operation_metric(name: str) -> tuple[str, str] | None:
    """(operation, field) of ``operations[OP].FIELD``, or None when ``name`` is not one."""
    m = _OPERATION_METRIC.match(name)
    if m is None or m.group(2) not in OPERATION_FIELDS:
        return None
    return m.group(1), m.group(2)


def _at(doc: Any, path: tuple[str, ...]) -> float | None:
    for key in path:
        if not isinstance(doc, Mapping):
            return None
        doc = doc.get(key)
    if isinstance(doc, bool) or not isinstance(doc, int | float):
        return None
    return float(doc)


def _limits(artifact: ScorecardArtifact) -> dict[str, float | None]:
    """The rate limits that answered: none known before scorecard version 4."""
    if artifact.schema_version < _LIMITS_SINCE:
        return dict.fromkeys((name for name, _ in _LIMITS), None)
    found = [w for w in artifact.warnings if w.kind == RATE_LIMITED]
    return {
        "rateLimited.refusedCalls": float(sum(w.count or 0 for w in found)),
        "rateLimited.refusedSeconds": float(sum(w.seconds or 0.0 for w in found)),
        "rateLimited.budgets": float(len(found)),
    }


def metric_values(artifact: ScorecardArtifact) -> dict[str, float | None]:
    """Every metric of one scorecard by name; per-operation figures for the operations
    it has (an operation a run never called is absent, which compare reads as 0)."""
    doc = msgspec.to_builtins(artifact)
    out: dict[str, float | None] = {m.name: _at(doc, m.path) for m in SCALAR_METRICS if m.path}
    out.update(_limits(artifact))
    for op in artifact.insights.operations:
        key = NO_OPERATION if op.key is None else op.key
        for field, value in zip(
            OPERATION_FIELDS,
            (op.calls, op.opaque_calls, op.graphql_points, op.core_points),
            strict=True,
        ):
            out[operation_metric(key, field)] = float(value)
    return out
