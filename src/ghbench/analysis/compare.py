"""Baseline against candidate: every metric's change, and whether the runs can tell.

Each side is one scorecard or several runs of one cell. A side's figure is the median
of its runs, shown with the min–max. Pure: artifacts in, a ``Comparison`` out.

How a difference is judged (``Verdict``), when a side has more than one run or the
medians differ:

- the two sides' min–max ranges overlap: the difference lies within the runs' own
  spread, and nothing is claimed;
- they do not overlap: every run of one side is above every run of the other. If the
  runs were exchangeable (no real difference), each of the C(m+n, m) ways to split the
  m+n values into the two sides would be equally likely, and only 2 of them separate
  completely, so such a split has probability p = 2 / C(m+n, m). This is the exact
  two-sided Mann–Whitney U test at U = 0 (H. B. Mann and D. R. Whitney, "On a test of
  whether one of two random variables is stochastically larger than the other", Ann.
  Math. Statist. 18(1), 1947). With p ≤ 0.05 the difference is beyond the spread; above
  it there are too few runs to tell: 1+1 runs give p = 1, 2+2 give 0.33, 3+3 give
  0.1, and 4+4 (p = 0.029) are the fewest that can show a difference.

Overlapping ranges can still hide a real shift when there are many runs; this
comparison does not claim one, it only says when the runs cannot be told apart.
"""

from __future__ import annotations

import enum
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ghbench.analysis.compare_metrics import (
    NO_OPERATION,
    OPERATION_FIELDS,
    RATE_LIMITED,
    SCALAR_METRICS,
    MetricDef,
    metric_values,
    operation_metric,
    parse_operation_metric,
)
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.errors import UsageError
from ghbench.scorecard.rates import short_span, span_note
from ghbench.timefmt import format_duration, parse_duration, parse_iso

__all__ = [
    "ALLOW_FLAG",
    "ALPHA",
    "CellKey",
    "Comparison",
    "MetricComparison",
    "Run",
    "Side",
    "Spread",
    "Verdict",
    "cell_key",
    "compare_runs",
    "runs_needed",
    "separation_p",
]

ALPHA = 0.05
ALLOW_FLAG = "--allow-different-cells"
WINDOW_TOLERANCE = 0.02  # actual windows of two real-time runs differ by a second or two


class Verdict(enum.Enum):
    NO_CHANGE = "no change"
    WITHIN = "within spread"
    TOO_FEW = "too few runs"
    BEYOND = "beyond spread"
    NO_DATA = "no data"


@dataclass(frozen=True)
class Run:
    """One scorecard and where it came from (shown to the user)."""

    source: str
    artifact: ScorecardArtifact


@dataclass(frozen=True)
class CellKey:
    """What makes two scorecards the same cell: scenario, topology, sessions, window."""

    scenario_id: str
    sessions: int | None
    window_s: float | None

    def describe(self) -> str:
        window = "window ?" if self.window_s is None else f"window {format_duration(self.window_s)}"
        return f"{self.scenario_id}, {window}"

    def matches(self, other: CellKey) -> bool:
        if (self.scenario_id, self.sessions) != (other.scenario_id, other.sessions):
            return False
        if self.window_s is None or other.window_s is None:
            return self.window_s == other.window_s
        slack = WINDOW_TOLERANCE * max(self.window_s, other.window_s)
        return abs(self.window_s - other.window_s) <= max(1.0, slack)


def _window_s(artifact: ScorecardArtifact) -> float | None:
    w = artifact.window
    if w.duration_requested:
        try:
            return parse_duration(w.duration_requested)
        except ValueError:
            pass
    if w.start and w.end:
        try:
            return parse_iso(w.end) - parse_iso(w.start)
        except ValueError:
            return None
    return None


def cell_key(artifact: ScorecardArtifact) -> CellKey:
    """The spec's ``scenarioId`` (``{scenario}.{topology}.{sessions}``), the session count
    and the window length (as requested, else as measured)."""
    return CellKey(artifact.scenario_id, artifact.session_count, _window_s(artifact))


@dataclass(frozen=True)
class Spread:
    """One metric over a side's runs; ``values`` are the runs that have it."""

    values: tuple[float, ...]
    runs: int

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def low(self) -> float | None:
        return min(self.values) if self.values else None

    @property
    def high(self) -> float | None:
        return max(self.values) if self.values else None


@dataclass(frozen=True)
class MetricComparison:
    metric: MetricDef
    baseline: Spread
    candidate: Spread
    verdict: Verdict
    p_value: float | None  # set when the ranges do not overlap

    @property
    def change(self) -> float | None:
        b, c = self.baseline.median, self.candidate.median
        return None if b is None or c is None else c - b

    @property
    def change_pct(self) -> float | None:
        """Percent change from the baseline's median; ±inf from a baseline of 0."""
        b, change = self.baseline.median, self.change
        if b is None or change is None:
            return None
        if b == 0:
            return 0.0 if change == 0 else math.copysign(math.inf, change)
        return 100.0 * change / abs(b)


@dataclass(frozen=True)
class Side:
    role: str  # baseline | candidate
    cell: CellKey
    sources: tuple[str, ...]
    git: tuple[str, ...]  # distinct "sha (branch)" of the runs, when known

    @property
    def runs(self) -> int:
        return len(self.sources)


@dataclass(frozen=True)
class Comparison:
    baseline: Side
    candidate: Side
    metrics: tuple[MetricComparison, ...]
    notes: tuple[str, ...]

    @property
    def single_runs(self) -> bool:
        return self.baseline.runs == 1 and self.candidate.runs == 1

    def find(self, name: str) -> MetricComparison | None:
        for m in self.metrics:
            if m.metric.name == name:
                return m
        return None

    @property
    def operations(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for m in self.metrics:
            parsed = parse_operation_metric(m.metric.name)
            if parsed is not None:
                seen[parsed[0]] = None
        return tuple(seen)


def separation_p(m: int, n: int) -> float:
    """Two-sided probability that m and n exchangeable values separate completely."""
    return min(1.0, 2.0 / math.comb(m + n, m))


def runs_needed(alpha: float = ALPHA) -> int:
    """The fewest runs per side whose complete separation has p ≤ ``alpha``."""
    k = 1
    while separation_p(k, k) > alpha:
        k += 1
    return k


def _verdict(b: Spread, c: Spread) -> tuple[Verdict, float | None]:
    if not b.values or not c.values:
        return Verdict.NO_DATA, None
    assert b.low is not None and b.high is not None and c.low is not None and c.high is not None
    if b.median == c.median and b.low == c.low and b.high == c.high:
        return Verdict.NO_CHANGE, None
    if b.low <= c.high and c.low <= b.high:
        return Verdict.WITHIN, None
    p = separation_p(len(b.values), len(c.values))
    return (Verdict.BEYOND if p <= ALPHA else Verdict.TOO_FEW), p


def _side(role: str, runs: Sequence[Run], allow: bool) -> Side:
    if not runs:
        raise UsageError(f"{role}: no scorecard to compare")
    keys = [cell_key(r.artifact) for r in runs]
    for run, key in zip(runs[1:], keys[1:], strict=True):
        if not allow and not key.matches(keys[0]):
            raise UsageError(
                f"{role}: {runs[0].source} ({keys[0].describe()}) and {run.source}"
                f" ({key.describe()}) are different cells; give runs of one cell, or pass"
                f" {ALLOW_FLAG}"
            )
    git = []
    for r in runs:
        a = r.artifact
        if a.git_sha:
            label = a.git_sha[:12] + (f" ({a.branch})" if a.branch else "")
            if label not in git:
                git.append(label)
    return Side(role, keys[0], tuple(r.source for r in runs), tuple(git))


def _spreads(
    metrics: Sequence[MetricDef], values: Sequence[dict[str, float | None]], zero_absent: bool
) -> dict[str, Spread]:
    out = {}
    for m in metrics:
        got = [v.get(m.name, 0.0 if zero_absent else None) for v in values]
        out[m.name] = Spread(tuple(x for x in got if x is not None), len(values))
    return out


def _operation_metrics(values: Sequence[dict[str, float | None]]) -> list[MetricDef]:
    calls: dict[str, float] = {}
    for v in values:
        for name, value in v.items():
            parsed = parse_operation_metric(name)
            if parsed is not None and parsed[1] == "calls":
                calls[parsed[0]] = max(calls.get(parsed[0], 0.0), value or 0.0)
    ordered = sorted(calls, key=lambda op: (-calls[op], op == NO_OPERATION, op))
    return [
        MetricDef(operation_metric(op, field), "operations", (), 0)
        for op in ordered
        for field in OPERATION_FIELDS
    ]


def _limit_notes(who: str, runs: Sequence[Run]) -> list[str]:
    """Each budget that ran out or refused calls on this side: in how many runs, and the
    first such run's own words (docs/scorecard.md, "Rate limits")."""
    found: dict[str, list[str]] = {}
    for run in runs:
        for w in run.artifact.warnings:
            if w.kind == RATE_LIMITED:
                found.setdefault(w.budget or "?", []).append(w.message)
    return [
        f"{who}: rate limited ({budget}) in {len(messages)} of {len(runs)} run(s): {messages[0]}"
        for budget, messages in found.items()
    ]


def _notes(side: Side, runs: Sequence[Run]) -> list[str]:
    who, n = side.role, len(runs)
    out = _limit_notes(who, runs)
    incomplete = [r for r in runs if r.artifact.incomplete]
    if incomplete:
        why = incomplete[0].artifact.incomplete_reason or "no reason recorded"
        out.append(f"{who}: {len(incomplete)} of {n} run(s) incomplete ({why})")
    for flag, metric in (
        ("graphql_points_per_hr_estimated", "graphqlPointsPerHr"),
        ("rest_core_requests_per_hr_estimated", "restCoreRequestsPerHr"),
    ):
        k = sum(1 for r in runs if getattr(r.artifact.scorecard, flag))
        if k:
            out.append(
                f"{who}: {metric} is estimated from the /rate_limit bracket in {k} of {n}"
                " run(s) (no row carried that budget's headers)"
            )
    for resource in ("graphql", "core"):
        k = sum(
            1
            for r in runs
            if (w := getattr(r.artifact.resource_windows, resource)) is not None and w.straddled
        )
        if k:
            out.append(f"{who}: the {resource} bucket reset mid-window in {k} of {n} run(s)")
    window_s = side.cell.window_s
    if window_s is not None and short_span(window_s):
        out.append(f"{who}: hourly figures are {span_note(window_s)}")
    skipped = sum(r.artifact.skipped_lines for r in runs)
    if skipped:
        out.append(f"{who}: the trace reader skipped {skipped:,} line(s) in total")
    return out


def compare_runs(
    baseline: Sequence[Run], candidate: Sequence[Run], *, allow_different_cells: bool = False
) -> Comparison:
    """Compare the runs; UsageError when they are not all of one cell (unless allowed)."""
    base = _side("baseline", baseline, allow_different_cells)
    cand = _side("candidate", candidate, allow_different_cells)
    if not allow_different_cells and not base.cell.matches(cand.cell):
        raise UsageError(
            f"baseline ({base.cell.describe()}) and candidate ({cand.cell.describe()}) are"
            f" different cells; compare runs of one cell, or pass {ALLOW_FLAG}"
        )
    b_values = [metric_values(r.artifact) for r in baseline]
    c_values = [metric_values(r.artifact) for r in candidate]
    scalars = _spreads(SCALAR_METRICS, b_values, False), _spreads(SCALAR_METRICS, c_values, False)
    ops = _operation_metrics([*b_values, *c_values])
    per_op = _spreads(ops, b_values, True), _spreads(ops, c_values, True)
    metrics = []
    for m in (*SCALAR_METRICS, *ops):
        source = per_op if m.section == "operations" else scalars
        b, c = source[0][m.name], source[1][m.name]
        verdict, p = _verdict(b, c)
        metrics.append(MetricComparison(m, b, c, verdict, p))
    notes = _notes(base, baseline) + _notes(cand, candidate)
    versions = sorted({r.artifact.schema_version for r in (*baseline, *candidate)})
    if len(versions) > 1 and versions[0] == 1:
        notes.append(
            f"scorecard versions {' and '.join(map(str, versions))} are mixed: version 1's spec"
            " fields are unrounded, later versions carry AO's rounding; compare exact.* figures"
        )
    if len(versions) > 1 and versions[0] < 4 <= versions[-1]:
        notes.append(
            "scorecards before version 4 do not say which rate limits answered (rateLimited.*"
            " has no data for them) and charged refused calls and /rate_limit in insights"
        )
    if allow_different_cells and not base.cell.matches(cand.cell):
        notes.insert(0, f"different cells, compared as asked ({ALLOW_FLAG})")
    models = [_agent_models(runs) for runs in (baseline, candidate)]
    if models[0] != models[1]:
        notes.append(f"the agents: {models[0]} → {models[1]}")
    return Comparison(base, cand, tuple(metrics), tuple(notes))


def _agent_models(runs: Sequence[Run]) -> str:
    """Who the side's agents were: the agent model's profile(s), real agents, or none."""
    names = set()
    for run in runs:
        split = run.artifact.insights.spend_split
        names.add("no agents traced" if split is None else split.agent_model or "real agents")
    return ", ".join(sorted(names))
