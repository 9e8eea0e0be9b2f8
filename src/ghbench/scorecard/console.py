"""The console scorecard: the spec's framed block, its warnings, then ghbench's insights.

A rate limit that answered in the window (a budget that ran out, a secondary limit that
refused calls) is printed above the numbers, in red: every figure after it counts
refused calls; so is a window under 10 minutes, in yellow: every hourly figure is
extrapolated from it. Without them the spec's block is unchanged. The insights say what
their hourly figures are over.

``render_console`` is pure: it returns the text and never looks at the terminal. The
caller decides ``color`` (ANSI only on a TTY, never with ``NO_COLOR``; see
``use_color``). Layout follows the spec's "Console Output" example character for
character: a 59-column ``═`` frame, labels and values ending at column 32, 20-cell
bars against a fixed 5,000 budget, thousands separators.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path

from ghbench.artifacts.models import (
    Attribution,
    Consumption,
    Pacing,
    RowBreakdown,
    ScorecardArtifact,
    SecondaryPeak,
)
from ghbench.scorecard.rates import span_note
from ghbench.timefmt import format_duration, iso_s, parse_iso

__all__ = ["bar_color", "render_console", "use_color"]

WIDTH = 59
FRAME = "═" * WIDTH
RULE = "─" * WIDTH
BUDGET = 5_000
BAR_CELLS = 20
VALUE_END = 30  # label + right-aligned value fill columns 3..32
NA_TEXT = "n/a"
TOP_ROWS = 10
KEY_WIDTH = 30

RESET = "\x1b[0m"
GREEN, YELLOW, RED = "\x1b[32m", "\x1b[33m", "\x1b[31m"
WARN = YELLOW
RATE_LIMITED = "rate-limited"  # ``scorecard.refusals``: a finding, shown above the numbers
SHORT_WINDOW = "short-window"  # hourly figures extrapolated: said above the numbers too


def use_color(is_tty: bool, environ: Mapping[str, str]) -> bool:
    """ANSI colour only on a terminal, and never when ``NO_COLOR`` is set non-empty."""
    return is_tty and not environ.get("NO_COLOR")


def bar_color(percent: float) -> str:
    """The spec's bands: green below 50%, yellow from 50% to 80%, red above 80%."""
    if percent > 80.0:
        return RED
    return YELLOW if percent >= 50.0 else GREEN


def _int(value: float | None) -> str:
    return NA_TEXT if value is None else f"{round(value):,}"


def _pct(ratio: float | None) -> str:
    return "" if ratio is None else f"  ({ratio * 100:.1f}%)"


def _line(label: str, value: str, suffix: str = "") -> str:
    return f"  {label}{value:>{max(1, VALUE_END - len(label))}}{suffix}"


def _bar(value: float | None, estimated: bool, color: bool) -> str:
    budget = f"  / {BUDGET:,}"
    if value is None:
        return budget
    percent = value / BUDGET * 100
    filled = min(BAR_CELLS, round(percent / 100 * BAR_CELLS))
    if value > 0:
        filled = max(1, filled)  # any spend shows
    cells = "█" * filled + "░" * (BAR_CELLS - filled)
    text = f"{cells}{percent:>4.0f}%"
    if color:
        text = f"{bar_color(percent)}{text}{RESET}"
    return f"{budget}  {text}" + ("  (estimated)" if estimated else "")


def _header(a: ScorecardArtifact) -> list[str]:
    end = iso_s(parse_iso(a.window.end)) if a.window.end else NA_TEXT
    measured = a.window.duration_requested or a.window.duration_actual or NA_TEXT
    warmup = a.warmup.requested or "none"
    if a.warmup.requested is None and a.warmup.actual_end:
        warmup = f"until {iso_s(parse_iso(a.warmup.actual_end))}"
    facts = [end, f"warmup {warmup}", f"measured {measured}"]
    if a.session_count is not None:
        facts.append(f"{a.session_count} sessions")
    ident = [a.scenario_id, (a.git_sha or "-")[:8], a.branch or "-"]
    return [
        FRAME,
        "  GH Rate-Limit Benchmark",
        "  " + " | ".join(ident),
        "  " + " | ".join(facts),
        FRAME,
    ]


def _spec_block(a: ScorecardArtifact, color: bool, paths: Mapping[str, str | Path]) -> list[str]:
    s = a.scorecard
    calls_per_min = NA_TEXT if s.calls_per_min is None else f"{s.calls_per_min:,.1f}"
    p = [_int(v) for v in (s.p50_duration_ms, s.p95_duration_ms, s.p99_duration_ms)]
    lines = [
        "",
        _line("Total GH calls:", f"{s.total_calls:,}"),
        _line("Calls/min:", calls_per_min),
        "",
        _line(
            "GraphQL points/hr:",
            _int(s.graphql_points_per_hr),
            _bar(s.graphql_points_per_hr, s.graphql_points_per_hr_estimated, color),
        ),
        _line(
            "REST core requests/hr:",
            _int(s.rest_core_requests_per_hr),
            _bar(s.rest_core_requests_per_hr, s.rest_core_requests_per_hr_estimated, color),
        ),
        "",
        _line("graphql-batch count:", f"{s.graphql_batch_count:,}"),
        _line(
            "guard-pr-list 304s:", f"{s.guard_pr_list_304_count:,}", _pct(s.guard_pr_list_304_rate)
        ),
        _line("guard-pr-list errors:", f"{s.guard_pr_list_error_count:,}"),
        "",
        _line("Opaque calls:", f"{s.opaque_call_count:,}", _pct(s.opaque_call_pct)),
        _line("Bracket delta (core):", _int(s.bracket_delta.core)),
        _line("Bracket delta (graphql):", _int(s.bracket_delta.graphql)),
        "",
        f"  {'p50 / p95 / p99:':<21}{p[0]} / {p[1]} / {p[2]} ms",
    ]
    if paths:
        width = max(len(k) for k in paths) + 2
        lines.append("")
        lines.extend(f"  {f'{k}:':<{width}}{v}" for k, v in paths.items())
    lines.append(FRAME)
    return lines


def _findings(a: ScorecardArtifact, kind: str) -> list[str]:
    """The warnings of ``kind`` printed above the numbers: the rate limits that answered
    (every figure after a budget ran out counts refused calls) and a short window
    (every hourly figure is extrapolated from it)."""
    return [w.message for w in a.warnings if w.kind == kind]


def _warnings(a: ScorecardArtifact) -> list[str]:
    s = a.scorecard
    out: list[str] = []
    if a.incomplete:
        out.append(f"incomplete run: {a.incomplete_reason or 'stopped early'}")
    for w in a.warnings:
        # a rate limit's (a short window's) message is above the numbers; its action here
        if w.kind == RATE_LIMITED:
            out.append(f"{w.kind} ({w.budget}): {w.action}")
        elif w.kind == SHORT_WINDOW:
            out.append(f"{w.kind}: {w.action}")
        else:
            out.append(f"{w.kind}: {w.message}; {w.action}")
    if a.window.start is not None and a.window.start == a.window.end:
        out.append("the window is zero-length, so every rate reads 0")
    if s.total_calls == 0:
        out.append("no rows fall inside the window")
    # ghbench's view of the reset windows (rows, else snapshots) where the artifact has it
    windows = a.insights.exact.resource_windows if a.insights.exact else a.resource_windows
    for name, rw in (("graphql", windows.graphql), ("core", windows.core)):
        if rw is not None and rw.straddled:
            out.append(
                f"{name}: the window straddled a rate-limit reset (latest reset {rw.reset_at});"
                " per-row burn is authoritative, the bracket delta under-reports"
            )
    for label, estimated in (
        ("GraphQL points/hr", s.graphql_points_per_hr_estimated),
        ("REST core requests/hr", s.rest_core_requests_per_hr_estimated),
    ):
        if estimated:
            out.append(
                f"{label} (estimated): no row carried that resource's rate-limit headers,"
                " so it comes from the /rate_limit bracket delta"
            )
    if a.skipped_lines:
        out.append(f"the trace reader skipped {a.skipped_lines:,} unreadable line(s)")
    return out


def _span_line(a: ScorecardArtifact) -> list[str]:
    """What every hourly figure is over (``scorecard.rates``)."""
    if a.window.start is None or a.window.end is None:
        return []
    seconds = parse_iso(a.window.end) - parse_iso(a.window.start)
    return [f"  {span_note(seconds)}"] if seconds > 0 else []


def _budget_row(name: str, c: Consumption, at: Attribution) -> str:
    source = c.source or "no data"
    if c.source == "rows":
        source = f"rows, {c.reset_windows} reset window(s)"
    cells = (_int(c.per_hr), _int(at.attributed_per_hr), _int(at.unattributed_per_hr))
    return f"  {name:<9}{cells[0]:>12}{cells[1]:>15}{cells[2]:>17}  ({source})"


def _pacing_rows(pacing: Pacing | None) -> list[str]:
    """Each budget's worst reset window: its share spent in the first 10 minutes, when it
    ran out (from the window's start), the time it refused calls."""
    if pacing is None:  # files before version 5
        return []
    out = [
        "",
        f"  {'pacing':<9}{'first 10 min':>14}{'ran out after':>15}{'refused':>11}"
        "  (worst reset window)",
    ]
    for name, b in (("graphql", pacing.graphql), ("core", pacing.core)):
        share = NA_TEXT if b.share_first_10_min is None else f"{b.share_first_10_min:.1%}"
        ran_out = (
            "-" if b.exhausted_after_seconds is None else format_duration(b.exhausted_after_seconds)
        )
        refused = format_duration(b.refused_minutes * 60) if b.refused_minutes else "-"
        out.append(f"  {name:<9}{share:>14}{ran_out:>15}{refused:>11}")
    return out


def _peak_row(label: str, peak: SecondaryPeak) -> str:
    when = f"  at {peak.at}" if peak.at else ""
    return _line(label, f"{peak.peak:,}", f"  / {peak.limit:,}{when}")


def _table(title: str, rows: list[RowBreakdown]) -> list[str]:
    def key(b: RowBreakdown) -> str:
        k = "(none)" if b.key is None else b.key
        return k if len(k) <= KEY_WIDTH else k[: KEY_WIDTH - 1] + "…"

    out = [f"  {title:<{KEY_WIDTH}}{'calls':>8}{'opaque':>8}{'graphql':>9}{'core':>7}"]
    out.extend(
        f"  {key(b):<{KEY_WIDTH}}{b.calls:>8,}{b.opaque_calls:>8,}{b.graphql_points:>9,}"
        f"{b.core_points:>7,}"
        for b in rows[:TOP_ROWS]
    )
    if len(rows) > TOP_ROWS:
        out.append(f"  … and {len(rows) - TOP_ROWS} more")
    return out


def _insights(a: ScorecardArtifact) -> list[str]:
    i = a.insights
    limits = i.secondary_limits
    lines = [
        RULE,
        "  Insights (ghbench; beside the spec's scorecard)",
        *_span_line(a),
        "",
        f"  {'budget':<9}{'consumed/hr':>12}{'attributed/hr':>15}{'unattributed/hr':>17}",
        _budget_row("graphql", i.consumption.graphql, i.attributed_spend.graphql),
        _budget_row("core", i.consumption.core, i.attributed_spend.core),
        *_pacing_rows(i.pacing),
        "",
        _peak_row("Peak calls in flight:", limits.concurrency),
        _peak_row("Peak REST points/min:", limits.rest_points_per_minute),
        _peak_row("Peak GraphQL points/min:", limits.graphql_points_per_minute),
        "",
        *_table("operation", i.operations),
    ]
    if i.sessions:
        lines.extend(["", *_table("session", i.sessions)])
    if i.spend_split is not None:
        split = i.spend_split
        lines.extend(["", *_table("who spent", [split.orchestrator, split.agents])])
        if split.agent_model is not None:
            lines.append(f"  (the agents: ghbench's agent model, profile {split.agent_model})")
        both = split.secondary_limits
        if both is not None:
            lines.extend(
                [
                    "",
                    _peak_row("Both, in flight:", both.concurrency),
                    _peak_row("Both, REST points/min:", both.rest_points_per_minute),
                    _peak_row("Both, GraphQL points/min:", both.graphql_points_per_minute),
                ]
            )
        lines.extend(["", *_table("agent session", split.agent_sessions)])
    lines.append(FRAME)
    return lines


def _wrapped(texts: list[str], color: bool, tint: str) -> list[str]:
    out: list[str] = []
    for text in texts:
        wrapped = textwrap.wrap(text, WIDTH, initial_indent="  ! ", subsequent_indent="    ")
        out.extend(f"{tint}{w}{RESET}" if color else w for w in wrapped)
    return out


def render_console(
    artifact: ScorecardArtifact,
    *,
    color: bool,
    paths: Mapping[str, str | Path] | None = None,
) -> str:
    """The console scorecard as text ending in a newline.

    ``paths`` are printed in order inside the frame (the spec shows ``Trace`` and
    ``Scorecard``); by default just the artifact's trace.
    """
    if paths is None:
        paths = {"Trace": artifact.trace} if artifact.trace else {}
    lines = _header(artifact)
    limited, short = _findings(artifact, RATE_LIMITED), _findings(artifact, SHORT_WINDOW)
    if limited or short:
        lines.append("")
        lines.extend(_wrapped(limited, color, RED) + _wrapped(short, color, WARN))
    lines += _spec_block(artifact, color, paths)
    warnings = _warnings(artifact)
    if warnings:
        lines.append("")
        lines.extend(_wrapped(warnings, color, WARN))
    lines.append("")
    lines.extend(_insights(artifact))
    return "\n".join(lines) + "\n"
