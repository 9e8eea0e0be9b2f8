"""``ghbench summarize``: what a trace holds, at a glance.

Totals, calls per operation, calls per HTTP status, the longest request, and the burn
per rate-limit reset window with a warning when a resource straddled a reset. The
same facts AO's ``summarize-gh-trace.mjs`` printed for ``baseline.md``; pure
computation over a ``TraceFrame``, rendered as lines of text or as a JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ghbench.analysis.burn import BurnWindow, burn_windows, straddled_resources
from ghbench.analysis.columns import MISSING, TraceSpan, count_ints, measured_rows
from ghbench.trace.frame import CALL_COLUMNS, NA, TraceFrame

__all__ = ["SCHEMA_VERSION", "OperationLine", "Summary", "summarize"]

# Format history of the JSON object (``kind: "summary"``):
#   1: first version.
#   2: a burn window's ``perHour`` is its delta over ``spanSeconds``, the part of the
#      trace the reset window covers (not its first to last row), ``shortSpan`` when that
#      is under 10 minutes (extrapolated).
SCHEMA_VERSION = 2


@dataclass(frozen=True)
class OperationLine:
    operation: str
    calls: int
    share: float
    failed: int  # ok == false, 304s included (that is how AO records them)
    not_modified: int  # httpStatus 304
    mean_ms: float | None
    graphql_cost: int


@dataclass(frozen=True)
class Longest:
    index: int  # 0-based row in the frame
    operation: str
    endpoint: str | None
    duration_ms: float
    ts_ms: int
    http_status: int | None
    ok: bool | None


@dataclass(frozen=True)
class Summary(TraceSpan):
    rows: int
    control_rows: int
    lines_read: int
    skipped_lines: int
    first_ms: int | None
    last_ms: int | None
    ok: int
    failed: int
    unknown_outcome: int
    opaque: int  # no httpStatus
    with_rate_headers: int
    graphql_cost: int
    operations: tuple[OperationLine, ...]
    statuses: tuple[tuple[int | None, int], ...]  # None = opaque
    longest: Longest | None
    windows: tuple[BurnWindow, ...]
    straddled: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object; camelCase like every ghbench artifact."""
        return {
            "schemaVersion": SCHEMA_VERSION,
            "kind": "summary",
            "rows": self.rows,
            "controlRowsExcluded": self.control_rows,
            "linesRead": self.lines_read,
            "skippedLines": self.skipped_lines,
            "firstMs": self.first_ms,
            "lastMs": self.last_ms,
            "spanSeconds": self.span_s,
            "callsPerMin": self.calls_per_min,
            "ok": self.ok,
            "failed": self.failed,
            "unknownOutcome": self.unknown_outcome,
            "opaque": self.opaque,
            "withRateLimitHeaders": self.with_rate_headers,
            "graphqlCost": self.graphql_cost,
            "operations": [
                {
                    "operation": o.operation,
                    "calls": o.calls,
                    "share": o.share,
                    "failed": o.failed,
                    "notModified": o.not_modified,
                    "meanDurationMs": o.mean_ms,
                    "graphqlCost": o.graphql_cost,
                }
                for o in self.operations
            ],
            "httpStatuses": [{"status": s, "calls": c} for s, c in self.statuses],
            "longest": None
            if self.longest is None
            else {
                "row": self.longest.index,
                "operation": self.longest.operation,
                "endpoint": self.longest.endpoint,
                "durationMs": self.longest.duration_ms,
                "timestampMs": self.longest.ts_ms,
                "httpStatus": self.longest.http_status,
                "ok": self.longest.ok,
            },
            "burnWindows": [
                {
                    "resource": w.resource,
                    "reset": w.reset,
                    "rows": w.rows,
                    "remainingStart": w.remaining_start,
                    "remainingEnd": w.remaining_end,
                    "delta": w.delta,
                    "elapsedSeconds": w.elapsed_s,
                    "spanSeconds": w.span_s,
                    "perHour": w.per_hour,
                    "shortSpan": w.short,
                }
                for w in self.windows
            ],
            "straddled": list(self.straddled),
        }


def _operations(frame: TraceFrame) -> tuple[OperationLine, ...]:
    ops = frame.operation
    n_labels = len(ops.labels) + 1
    codes = ops.codes.astype(np.int64) + 1
    calls = np.bincount(codes, minlength=n_labels)
    failed = np.bincount(codes, weights=(frame.ok == 0), minlength=n_labels)
    not_mod = np.bincount(codes, weights=(frame.http_status == 304), minlength=n_labels)
    dur_ok = ~np.isnan(frame.duration_ms)
    dur_sum = np.bincount(
        codes, weights=np.where(dur_ok, frame.duration_ms, 0.0), minlength=n_labels
    )
    dur_n = np.bincount(codes, weights=dur_ok, minlength=n_labels)
    cost = frame.graphql_cost
    cost_sum = np.bincount(codes, weights=np.where(cost != NA, cost, 0), minlength=n_labels)
    names = (MISSING, *ops.labels)
    total = len(frame)
    lines = [
        OperationLine(
            operation=names[i],
            calls=int(calls[i]),
            share=float(calls[i]) / total,
            failed=int(failed[i]),
            not_modified=int(not_mod[i]),
            mean_ms=float(dur_sum[i] / dur_n[i]) if dur_n[i] else None,
            graphql_cost=int(cost_sum[i]),
        )
        for i in np.flatnonzero(calls).tolist()
    ]
    lines.sort(key=lambda o: (-o.calls, o.operation))
    return tuple(lines)


def _longest(frame: TraceFrame) -> Longest | None:
    d = frame.duration_ms
    if d.shape[0] == 0 or bool(np.isnan(d).all()):
        return None
    i = int(np.nanargmax(d))
    status = int(frame.http_status[i])
    ok = int(frame.ok[i])
    return Longest(
        index=i,
        operation=frame.operation.value(i) or MISSING,
        endpoint=frame.endpoint.value(i),
        duration_ms=float(d[i]),
        ts_ms=int(frame.ts_ms[i]),
        http_status=None if status == NA else status,
        ok=None if ok < 0 else bool(ok),
    )


# The trace frame columns summarize computes over (the command reads only these).
SUMMARY_COLUMNS: tuple[str, ...] = (*CALL_COLUMNS, "endpoint")


def summarize(frame: TraceFrame) -> Summary:
    """Summarize a trace; ``benchmark-control`` rows are excluded and counted."""
    frame.require(SUMMARY_COLUMNS)
    rows, control = measured_rows(frame)
    n = len(rows)
    cost = rows.graphql_cost
    windows = burn_windows(rows)
    statuses = tuple((None if s == NA else s, c) for s, c in count_ints(rows.http_status))
    return Summary(
        rows=n,
        control_rows=control,
        lines_read=frame.lines_read,
        skipped_lines=frame.skipped_lines,
        first_ms=int(rows.ts_ms.min()) if n else None,
        last_ms=int(rows.ts_ms.max()) if n else None,
        ok=int((rows.ok == 1).sum()),
        failed=int((rows.ok == 0).sum()),
        unknown_outcome=int((rows.ok < 0).sum()),
        opaque=int((rows.http_status == NA).sum()),
        with_rate_headers=int((rows.rate_limit_remaining != NA).sum()),
        graphql_cost=int(cost[cost != NA].sum()),
        operations=_operations(rows) if n else (),
        statuses=statuses,
        longest=_longest(rows),
        windows=tuple(windows),
        straddled=tuple(straddled_resources(windows)),
    )
