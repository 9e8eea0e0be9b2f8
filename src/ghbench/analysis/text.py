"""Plain-text rendering of a ``Summary`` and an ``Analysis``.

Functions return lists of lines and never print, so the CLI, ``baseline.md`` and the
golden tests share one byte-stable output. No colour, no terminal width: the text is
pasted into Markdown code blocks.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ghbench.analysis.analyze import ANALYSIS_COLUMNS, Analysis, analyze
from ghbench.analysis.load import load_trace
from ghbench.analysis.summarize import SUMMARY_COLUMNS, Summary, summarize
from ghbench.artifacts.jsontext import strict_json
from ghbench.scorecard.rates import SHORT_SPAN_S
from ghbench.timefmt import format_duration, iso_ms, iso_s
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import CONTROL_COMPONENT

__all__ = [
    "TraceReport",
    "analysis_lines",
    "num",
    "pct",
    "read_report",
    "report_text",
    "summary_lines",
    "table",
]

# Tables longer than this show their head and a "… N more" line.
MAX_TABLE_ROWS = 25
SPARK = " ▁▂▃▄▅▆▇█"
SPARK_MINUTES = 120  # the sparklines show the first two hours
SHORT_MARK = "*"  # an hourly rate extrapolated from under 10 minutes
NOTE_WIDTH = 100


def num(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    indent: str = "  ",
    max_rows: int | None = MAX_TABLE_ROWS,
) -> list[str]:
    """Columns padded to width; the first column left-aligned, the rest right-aligned.

    More than ``max_rows`` rows (None: no limit) show the head and a "… N more" line.
    """
    shown = list(rows if max_rows is None else rows[:max_rows])
    widths = [len(h) for h in headers]
    for r in shown:
        widths = [max(w, len(c)) for w, c in zip(widths, r, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return (indent + "  ".join(parts)).rstrip()

    out = [line(headers)] + [line(r) for r in shown]
    if len(rows) > len(shown):
        out.append(f"{indent}… {len(rows) - len(shown)} more")
    return out


def _status(code: int | None) -> str:
    return "(opaque)" if code is None else str(code)


def _span(first_ms: int | None, last_ms: int | None, span_s: float, rate: float | None) -> str:
    if first_ms is None or last_ms is None:
        return "  no rows"
    return (
        f"  from {iso_ms(first_ms / 1000)} to {iso_ms(last_ms / 1000)}"
        f" ({format_duration(span_s)}), {num(rate, 1)} calls/min"
    )


def summary_lines(s: Summary, title: str = "Trace summary") -> list[str]:
    head = f"  rows: {num(s.rows)} (lines read {num(s.lines_read)}, skipped {num(s.skipped_lines)}"
    if s.control_rows:
        head += f"; {num(s.control_rows)} {CONTROL_COMPONENT} rows excluded"
    out = [title, head + ")", _span(s.first_ms, s.last_ms, s.span_s, s.calls_per_min)]
    out.append(
        f"  ok {num(s.ok)} · failed {num(s.failed)} (304s included) · no outcome"
        f" {num(s.unknown_outcome)}"
    )
    out.append(
        f"  opaque (no httpStatus) {num(s.opaque)} ({pct(s.opaque, s.rows)}) · with rate-limit"
        f" headers {num(s.with_rate_headers)} · GraphQL cost {num(s.graphql_cost)}"
    )
    out += ["", "By operation"]
    out += table(
        ("operation", "calls", "share", "failed", "304s", "mean ms", "gql cost"),
        [
            (
                o.operation,
                num(o.calls),
                pct(o.calls, s.rows),
                num(o.failed),
                num(o.not_modified),
                num(o.mean_ms),
                num(o.graphql_cost),
            )
            for o in s.operations
        ],
    )
    out += ["", "By HTTP status"]
    out += table(
        ("status", "calls", "share"),
        [(_status(code), num(c), pct(c, s.rows)) for code, c in s.statuses],
    )
    out += ["", "Longest request"]
    if s.longest is None:
        out.append("  (no durations)")
    else:
        lg = s.longest
        outcome = {None: "no outcome", True: "ok", False: "failed"}[lg.ok]
        out.append(
            f"  {num(lg.duration_ms)} ms  {lg.operation}  {lg.endpoint or '-'}"
            f"  (HTTP {_status(lg.http_status)}, {outcome}) at {iso_ms(lg.ts_ms / 1000)}"
        )
    out += ["", "Burn per reset window"]
    if not s.windows:
        out.append("  (no rows carry rate-limit headers)")
    else:
        out += table(
            ("resource", "reset", "rows", "remaining", "delta", "span", "/hr"),
            [
                (
                    w.resource,
                    iso_s(w.reset),
                    num(w.rows),
                    f"{num(w.remaining_start)}→{num(w.remaining_end)}",
                    num(w.delta),
                    format_duration(w.span_s),
                    num(w.per_hour, 1) + (SHORT_MARK if w.short else ""),
                )
                for w in s.windows
            ],
        )
        out.append(
            "  /hr: the delta over the span of the trace each reset window covers"
            + (
                f"; {SHORT_MARK} under {format_duration(SHORT_SPAN_S)}: extrapolated, read as rough"
                if any(w.short for w in s.windows)
                else ""
            )
        )
    for resource in s.straddled:
        n = sum(1 for w in s.windows if w.resource == resource)
        out.append(
            f"WARNING: {resource} straddled {n} reset windows; the per-window burn above is"
            " authoritative, a /rate_limit bracket delta under-reports"
        )
    return out


def _spark(values: Sequence[int | None]) -> str:
    known = [v for v in values if v is not None]
    if not known:
        return ""
    lo, hi = min(known), max(known)
    step = (hi - lo) / (len(SPARK) - 2) if hi > lo else 1.0
    return "".join(SPARK[0] if v is None else SPARK[1 + round((v - lo) / step)] for v in values)


def analysis_lines(a: Analysis, title: str = "Trace analysis") -> list[str]:
    out = [title, _span(a.first_ms, a.last_ms, a.span_s, a.calls_per_min)]
    shown = min(a.span_minutes, SPARK_MINUTES)
    if a.calls_per_minute.values:
        busiest = max(a.calls_per_minute.values)
        spark = _spark(a.calls_per_minute.first(shown, 0))
        out.append(f"  busiest minute {num(busiest)} calls; calls a minute: {spark}")
    out += ["", "Rate limits"]
    if not a.rate_limits:
        out.append("  none ran out or refused a call")
    for w in a.rate_limits:
        out += textwrap.wrap(w.message, NOTE_WIDTH, initial_indent="  ! ", subsequent_indent="    ")
    o = a.outcomes
    out += ["", "Outcomes"]
    out += table(
        ("outcome", "calls", "share"),
        [
            ("ok", num(o.ok), pct(o.ok, a.rows)),
            ("304 not modified", num(o.not_modified), pct(o.not_modified, a.rows)),
            ("failed", num(o.failed), pct(o.failed, a.rows)),
            ("  of which refused by a rate limit", num(o.refused), pct(o.refused, a.rows)),
            ("no outcome", num(o.unknown), pct(o.unknown, a.rows)),
        ],
    )
    out += ["", "Failures by exit code × operation (ok=false, 304s shown apart)"]
    if not a.failures_by_exit:
        out.append("  (none)")
    else:
        out += table(
            ("operation", "exit", "calls", "of which 304"),
            [(op, _status(e), num(c), num(nm)) for e, op, c, nm in a.failures_by_exit],
        )
    out += ["", "Failures by httpStatus"]
    if not a.failures_by_status:
        out.append("  (none)")
    else:
        out += table(("status", "calls"), [(_status(s), num(c)) for s, c in a.failures_by_status])
    out += ["", "Operation buckets"]
    shares = ", ".join(
        f"{k} {100 * a.bucket_share(k):.1f}%" for k in ("explicit", "derived", "generic", "missing")
    )
    out.append(f"  {shares}")
    out += table(
        ("operation", "kind", "calls", "endpoint shapes"),
        [(b.operation, b.kind, num(b.calls), num(b.shapes)) for b in a.buckets],
    )
    for heading, groups in (
        ("Per repo", a.repos),
        ("Per session", a.sessions),
        ("Endpoint shapes", a.shapes),
    ):
        out += ["", heading]
        out += table(
            ("label", "calls", "share", "304s", "failed", "gql cost", "mean ms"),
            [
                (
                    g.label,
                    num(g.calls),
                    pct(g.calls, a.rows),
                    num(g.not_modified),
                    num(g.failed),
                    num(g.graphql_cost),
                    num(g.mean_ms),
                )
                for g in groups
            ],
        )
    out.append(
        f"  attributed to a session: {num(a.attributed_rows)} ({pct(a.attributed_rows, a.rows)})"
    )
    out += ["", "Rate-limit curve (lowest remaining per minute)"]
    if not a.curves:
        out.append("  (no rows carry rate-limit headers)")
    for c in a.curves:
        known = c.lowest.values
        out.append(
            f"  {c.resource}: {num(known[0])} → {num(known[-1])}, lowest {num(min(known))}"
            f" over {num(a.span_minutes)} min  {_spark(c.lowest.first(shown, None))}"
        )
    out += ["", "Status coverage"]
    out += table(
        ("operation", "calls", "httpStatus", "rate headers", "graphqlCost"),
        [
            (
                c.operation,
                num(c.calls),
                pct(c.with_status, c.calls),
                pct(c.with_rate_headers, c.calls),
                pct(c.with_graphql_cost, c.calls),
            )
            for c in a.coverage
        ],
    )
    return out


def report_text(result: Summary | Analysis, *, title: str, as_json: bool) -> str:
    """What ``summarize``/``analyze`` print: the ``--json`` object, or the text report."""
    if as_json:
        return strict_json(result.to_json())
    if isinstance(result, Summary):
        return "\n".join(summary_lines(result, title=title))
    return "\n".join(analysis_lines(result, title=title))


@dataclass(frozen=True)
class TraceReport:
    """What ``summarize`` or ``analyze`` made of a trace, and the frame it read."""

    frame: TraceFrame
    result: Summary | Analysis

    def text(self, *, title: str, as_json: bool) -> str:
        return report_text(self.result, title=title, as_json=as_json)


def read_report(trace: Path, kind: Literal["summarize", "analyze"]) -> TraceReport:
    """``trace`` read (only the columns ``kind`` computes over) and summarized or analyzed."""
    if kind == "summarize":
        frame = load_trace(trace, SUMMARY_COLUMNS)
        return TraceReport(frame, summarize(frame))
    frame = load_trace(trace, ANALYSIS_COLUMNS)
    return TraceReport(frame, analyze(frame))
