"""``ghbench analyze``: a trace in depth.

Wall clock and calls a minute; the rate limits that answered (a budget that ran out, a
secondary limit that refused calls: the scorecard's own ``rate-limited`` warnings, over
the trace's span); the outcome split (ok, 304, failed, of which refused); failures by exit
code x operation and by ``httpStatus``; how well operations are bucketed; the split
per repo and per session; endpoint shapes; the rate-limit curve (lowest remaining per
minute per resource); and how much of each operation carries a status, rate-limit
headers and a GraphQL cost. Pure and vectorised: one bincount per table. Per-minute
figures list only the minutes that have rows, so memory follows the rows, never the
time they span (``ghbench.scorecard.minutes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from ghbench.analysis.columns import (
    MISSING,
    TraceSpan,
    count_categorical,
    count_ints,
    measured_rows,
)
from ghbench.analysis.shapes import BucketKind, bucket_kind, endpoint_shape
from ghbench.analysis.summarize import SUMMARY_COLUMNS
from ghbench.artifacts.models import RunWarning
from ghbench.scorecard.costs import RowCosts, row_costs
from ghbench.scorecard.minutes import minute_codes
from ghbench.scorecard.refusals import rate_limit_warnings
from ghbench.scorecard.window import MeasureWindow
from ghbench.trace.frame import NA, TraceFrame

__all__ = ["SCHEMA_VERSION", "Analysis", "MinuteSeries", "analyze"]

# Format history of the JSON object (``kind: "analysis"``):
#   1: first version.
#   2: ``callsPerMinute`` and each curve's ``minuteLowestRemaining`` are [minute, value]
#      pairs for the minutes that have rows (minutes since the first row), not one
#      entry per minute of the span; ``spanMinutes`` added.
#   3: ``rateLimited``: the scorecard's ``rate-limited`` warnings over the trace's span
#      (docs/scorecard.md, "Rate limits"); ``outcomes.refused``: failed calls a rate
#      limit refused.
SCHEMA_VERSION = 3


@dataclass(frozen=True)
class Outcomes:
    ok: int
    not_modified: int  # httpStatus 304, however the caller counted it
    failed: int  # ok == false and not a 304
    unknown: int  # no ok field
    refused: int = 0  # of the failed, those a rate limit refused


@dataclass(frozen=True)
class Bucket:
    operation: str
    kind: BucketKind
    calls: int
    shapes: int  # distinct endpoint shapes under this operation


@dataclass(frozen=True)
class GroupLine:
    """Calls of one repo, session or endpoint shape."""

    label: str
    calls: int
    not_modified: int
    failed: int
    graphql_cost: int
    mean_ms: float | None


@dataclass(frozen=True)
class Coverage:
    operation: str
    calls: int
    with_status: int
    with_rate_headers: int
    with_graphql_cost: int


@dataclass(frozen=True)
class MinuteSeries:
    """A value for each minute since the first row that has one, in order; a minute
    without is left out (a trace may span years: a slot per minute could not fit)."""

    minutes: tuple[int, ...]
    values: tuple[int, ...]

    def first(self, count: int, empty: int | None) -> tuple[int | None, ...]:
        """The first ``count`` minutes, one entry each, ``empty`` where there is none."""
        out: list[int | None] = [empty] * count
        for minute, value in zip(self.minutes, self.values, strict=True):
            if minute >= count:
                break
            out[minute] = value
        return tuple(out)

    def to_json(self) -> list[list[int]]:
        return [[m, v] for m, v in zip(self.minutes, self.values, strict=True)]


def _series(minutes: npt.NDArray[np.int64], values: npt.NDArray[np.int64]) -> MinuteSeries:
    return MinuteSeries(tuple(minutes.tolist()), tuple(int(v) for v in values.tolist()))


@dataclass(frozen=True)
class Curve:
    """Lowest ``remaining`` seen in each minute since the first row that has a reading."""

    resource: str
    lowest: MinuteSeries


@dataclass(frozen=True)
class Analysis(TraceSpan):
    rows: int
    control_rows: int
    first_ms: int | None
    last_ms: int | None
    span_minutes: int  # minutes from the first row's to the last's, both counted
    calls_per_minute: MinuteSeries  # the minutes since the first row that have calls
    outcomes: Outcomes
    failures_by_exit: tuple[tuple[int | None, str, int, int], ...]  # exit, op, calls, 304s
    failures_by_status: tuple[tuple[int | None, int], ...]
    buckets: tuple[Bucket, ...]
    repos: tuple[GroupLine, ...]
    sessions: tuple[GroupLine, ...]
    shapes: tuple[GroupLine, ...]
    curves: tuple[Curve, ...]
    coverage: tuple[Coverage, ...]
    rate_limits: tuple[RunWarning, ...] = ()

    @property
    def attributed_rows(self) -> int:
        return sum(s.calls for s in self.sessions if s.label != MISSING)

    def bucket_share(self, kind: BucketKind) -> float:
        total = sum(b.calls for b in self.buckets)
        return sum(b.calls for b in self.buckets if b.kind == kind) / total if total else 0.0

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object; camelCase like every ghbench artifact."""

        def group(g: GroupLine) -> dict[str, Any]:
            return {
                "label": g.label,
                "calls": g.calls,
                "notModified": g.not_modified,
                "failed": g.failed,
                "graphqlCost": g.graphql_cost,
                "meanDurationMs": g.mean_ms,
            }

        o = self.outcomes
        return {
            "schemaVersion": SCHEMA_VERSION,
            "kind": "analysis",
            "rows": self.rows,
            "controlRowsExcluded": self.control_rows,
            "firstMs": self.first_ms,
            "lastMs": self.last_ms,
            "spanSeconds": self.span_s,
            "callsPerMin": self.calls_per_min,
            "spanMinutes": self.span_minutes,
            "callsPerMinute": self.calls_per_minute.to_json(),
            "rateLimited": [msgspec.to_builtins(w) for w in self.rate_limits],
            "outcomes": {
                "ok": o.ok,
                "notModified": o.not_modified,
                "failed": o.failed,
                "refused": o.refused,
                "unknown": o.unknown,
            },
            "failuresByExitCode": [
                {"exitCode": e, "operation": op, "calls": c, "notModified": nm}
                for e, op, c, nm in self.failures_by_exit
            ],
            "failuresByHttpStatus": [
                {"httpStatus": s, "calls": c} for s, c in self.failures_by_status
            ],
            "buckets": [
                {"operation": b.operation, "kind": b.kind, "calls": b.calls, "shapes": b.shapes}
                for b in self.buckets
            ],
            "bucketShares": {
                k: self.bucket_share(k) for k in ("explicit", "derived", "generic", "missing")
            },
            "repos": [group(g) for g in self.repos],
            "sessions": [group(g) for g in self.sessions],
            "attributedRows": self.attributed_rows,
            "endpointShapes": [group(g) for g in self.shapes],
            "rateLimitCurves": [
                {"resource": c.resource, "minuteLowestRemaining": c.lowest.to_json()}
                for c in self.curves
            ],
            "statusCoverage": [
                {
                    "operation": c.operation,
                    "calls": c.calls,
                    "withHttpStatus": c.with_status,
                    "withRateLimitHeaders": c.with_rate_headers,
                    "withGraphqlCost": c.with_graphql_cost,
                }
                for c in self.coverage
            ],
        }


I64 = npt.NDArray[np.int64]


def _groups(frame: TraceFrame, codes: I64, labels: tuple[str, ...]) -> tuple[GroupLine, ...]:
    """Per-group lines for ``codes`` in 0..len(labels)-1 (the caller maps missing)."""
    n = len(labels)
    calls = np.bincount(codes, minlength=n)
    nm = np.bincount(codes, weights=frame.http_status == 304, minlength=n)
    failed = np.bincount(codes, weights=(frame.ok == 0) & (frame.http_status != 304), minlength=n)
    cost = frame.graphql_cost
    cost_sum = np.bincount(codes, weights=np.where(cost != NA, cost, 0), minlength=n)
    dur_ok = ~np.isnan(frame.duration_ms)
    dur_sum = np.bincount(codes, weights=np.where(dur_ok, frame.duration_ms, 0.0), minlength=n)
    dur_n = np.bincount(codes, weights=dur_ok, minlength=n)
    lines = [
        GroupLine(
            label=labels[i],
            calls=int(calls[i]),
            not_modified=int(nm[i]),
            failed=int(failed[i]),
            graphql_cost=int(cost_sum[i]),
            mean_ms=float(dur_sum[i] / dur_n[i]) if dur_n[i] else None,
        )
        for i in np.flatnonzero(calls).tolist()
    ]
    lines.sort(key=lambda g: (-g.calls, g.label))
    return tuple(lines)


def _shifted(frame_codes: npt.NDArray[np.int32]) -> I64:
    """Codes with missing (-1) moved to 0, so label 0 is ``(none)``."""
    return frame_codes.astype(np.int64) + 1


def _shape_codes(frame: TraceFrame) -> tuple[I64, tuple[str, ...]]:
    shapes: dict[str, int] = {}
    lookup = [shapes.setdefault(endpoint_shape(None), 0)]
    lookup += [shapes.setdefault(endpoint_shape(lbl), len(shapes)) for lbl in frame.endpoint.labels]
    table = np.asarray(lookup, dtype=np.int64)
    return table[_shifted(frame.endpoint.codes)], tuple(shapes)


def _buckets(frame: TraceFrame, shape_codes: I64, n_shapes: int) -> tuple[Bucket, ...]:
    op_codes = _shifted(frame.operation.codes)
    names = (MISSING, *frame.operation.labels)
    n_ops = len(names)
    calls = np.bincount(op_codes, minlength=n_ops)
    pairs = np.bincount(op_codes * n_shapes + shape_codes, minlength=n_ops * n_shapes)
    distinct = (pairs.reshape(n_ops, n_shapes) > 0).sum(axis=1)
    out = [
        Bucket(
            operation=names[i],
            kind=bucket_kind(None if i == 0 else names[i]),
            calls=int(calls[i]),
            shapes=int(distinct[i]),
        )
        for i in np.flatnonzero(calls).tolist()
    ]
    out.sort(key=lambda b: (-b.calls, b.operation))
    return tuple(out)


def _failures_by_exit(frame: TraceFrame) -> tuple[tuple[int | None, str, int, int], ...]:
    failed = frame.ok == 0
    if not bool(failed.any()):
        return ()
    exits = frame.exit_code[failed]
    ops = _shifted(frame.operation.codes[failed])
    nm = frame.http_status[failed] == 304
    names = (MISSING, *frame.operation.labels)
    out: list[tuple[int | None, str, int, int]] = []
    for code, _ in count_ints(exits):
        sel = exits == code
        calls = np.bincount(ops[sel], minlength=len(names))
        nms = np.bincount(ops[sel], weights=nm[sel], minlength=len(names))
        for i in np.flatnonzero(calls).tolist():
            out.append((None if code == NA else code, names[i], int(calls[i]), int(nms[i])))
    out.sort(key=lambda r: (-r[2], r[1]))
    return tuple(out)


def _curves(
    frame: TraceFrame, codes: npt.NDArray[np.int64], minutes: npt.NDArray[np.int64]
) -> tuple[Curve, ...]:
    """``codes``/``minutes``: each row's minute code and each code's minute
    (``minute_codes``), so every array here has a slot per minute with rows."""
    has = frame.rate_limit_remaining != NA
    out: list[Curve] = []
    for counted in count_categorical(frame.resource, has):
        if counted.label == MISSING:
            continue
        sel = has & frame.resource.mask(counted.label)
        lowest = np.full(minutes.size, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(lowest, codes[sel], frame.rate_limit_remaining[sel])
        seen = np.zeros(minutes.size, dtype=np.bool_)
        seen[codes[sel]] = True
        out.append(Curve(counted.label, _series(minutes[seen], lowest[seen])))
    out.sort(key=lambda c: c.resource)
    return tuple(out)


def _coverage(frame: TraceFrame) -> tuple[Coverage, ...]:
    codes = _shifted(frame.operation.codes)
    names = (MISSING, *frame.operation.labels)
    n = len(names)
    calls = np.bincount(codes, minlength=n)
    status = np.bincount(codes, weights=frame.http_status != NA, minlength=n)
    headers = np.bincount(codes, weights=frame.rate_limit_remaining != NA, minlength=n)
    cost = np.bincount(codes, weights=frame.graphql_cost != NA, minlength=n)
    out = [
        Coverage(names[i], int(calls[i]), int(status[i]), int(headers[i]), int(cost[i]))
        for i in np.flatnonzero(calls).tolist()
    ]
    out.sort(key=lambda c: (-c.calls, c.operation))
    return tuple(out)


def _outcomes(frame: TraceFrame, costs: RowCosts) -> Outcomes:
    nm = frame.http_status == 304
    failed = (frame.ok == 0) & ~nm
    return Outcomes(
        ok=int(((frame.ok == 1) & ~nm).sum()),
        not_modified=int(nm.sum()),
        failed=int(failed.sum()),
        unknown=int(((frame.ok < 0) & ~nm).sum()),
        refused=int((failed & (costs.refused >= 0)).sum()),
    )


# The trace frame columns analyze computes over (the command reads only these).
ANALYSIS_COLUMNS: tuple[str, ...] = (
    *SUMMARY_COLUMNS,
    "exit_code",
    "session_id",
    "repo",
    "method",
    "rate_limited",
)


def analyze(frame: TraceFrame) -> Analysis:
    """Analyze a trace; ``benchmark-control`` rows are excluded and counted."""
    frame.require(ANALYSIS_COLUMNS)
    rows, control = measured_rows(frame)
    n = len(rows)
    first = int(rows.ts_ms.min()) if n else None
    last = int(rows.ts_ms.max()) if n else None
    codes, minutes = minute_codes(rows.ts_ms, first or 0)
    per_minute = np.bincount(codes, minlength=minutes.size)
    shape_codes, shape_labels = _shape_codes(rows)
    fail_mask = rows.ok == 0
    costs = row_costs(rows)
    span = MeasureWindow(first or 0, last or 0)
    return Analysis(
        rows=n,
        control_rows=control,
        first_ms=first,
        last_ms=last,
        span_minutes=int(minutes[-1]) + 1 if minutes.size else 0,
        calls_per_minute=_series(minutes, per_minute),
        outcomes=_outcomes(rows, costs),
        failures_by_exit=_failures_by_exit(rows),
        failures_by_status=tuple(
            (None if s == NA else s, c) for s, c in count_ints(rows.http_status, fail_mask)
        ),
        buckets=_buckets(rows, shape_codes, len(shape_labels)),
        repos=_groups(rows, _shifted(rows.repo.codes), (MISSING, *rows.repo.labels)),
        sessions=_groups(rows, _shifted(rows.session_id.codes), (MISSING, *rows.session_id.labels)),
        shapes=_groups(rows, shape_codes, shape_labels),
        curves=_curves(rows, codes, minutes),
        coverage=_coverage(rows),
        rate_limits=tuple(rate_limit_warnings(rows, costs, span)),
    )
