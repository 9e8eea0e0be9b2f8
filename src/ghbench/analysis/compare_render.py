"""``ghbench compare``'s three outputs: console text, Markdown and a JSON object.

Pure: each function returns text or a dict and never prints (``comparison_report``:
all three, and whether a threshold failed). The console and Markdown
show the same rows: every scalar metric, and per operation its calls plus whichever
of its opaque calls and points are non-zero on either side. The JSON has them all.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ghbench.analysis.compare import (
    ALPHA,
    Comparison,
    MetricComparison,
    Run,
    Side,
    Spread,
    compare_runs,
    runs_needed,
)
from ghbench.analysis.compare_metrics import SECTIONS
from ghbench.analysis.markdown import markdown_table, md_escape
from ghbench.analysis.text import table
from ghbench.analysis.thresholds import (
    THRESHOLD_FAILED,
    Threshold,
    ThresholdResult,
    check_metric,
    evaluate,
)
from ghbench.artifacts.jsontext import strict_json

__all__ = [
    "SCHEMA_VERSION",
    "ComparisonReport",
    "compare_json",
    "comparison_report",
    "console_text",
    "markdown_text",
    "summary_line",
]

# Format history of the JSON object (``kind: "compare"``):
#   1: first version.
SCHEMA_VERSION = 1
NA = "n/a"
HEADERS = ("metric", "baseline", "candidate", "change", "change %")
NOTE_WIDTH = 100


def _num(value: float | None, digits: int, *, signed: bool = False) -> str:
    if value is None:
        return NA
    if digits == 0 and value != int(value):
        digits = 1  # the median of an even number of counts
    return f"{value:+,.{digits}f}" if signed and value else f"{value:,.{digits}f}"


def _spread(s: Spread, digits: int) -> str:
    text = _num(s.median, digits)
    if s.low is not None and s.high is not None and s.low != s.high:
        text += f" [{_num(s.low, digits)}–{_num(s.high, digits)}]"
    return text


def _pct(value: float | None) -> str:
    if value is None:
        return NA
    if math.isinf(value):
        return "from 0"
    return f"{value:+.1f}%" if value else "0.0%"


def _verdict(m: MetricComparison) -> str:
    text = m.verdict.value
    if m.p_value is not None:
        text += f" (p={m.p_value:.2g})"
    return text


def _shown(m: MetricComparison) -> bool:
    """Per-operation opaque calls and points only when some run has them; who spent
    only when some run traced its agents; the rate limits from scorecard version 4."""
    if m.metric.section in ("split", "limits"):
        return bool(m.baseline.values or m.candidate.values)
    if m.metric.section != "operations" or m.metric.name.endswith("].calls"):
        return True
    return any(m.baseline.values) or any(m.candidate.values)


def _rows(c: Comparison, section: str) -> list[list[str]]:
    rows = []
    for m in c.metrics:
        if m.metric.section != section or not _shown(m):
            continue
        d = m.metric.digits
        row = [
            m.metric.name,
            _spread(m.baseline, d),
            _spread(m.candidate, d),
            _num(m.change, d, signed=True),
            _pct(m.change_pct),
        ]
        if not c.single_runs:
            row.append(_verdict(m))
        rows.append(row)
    return rows


def _headers(c: Comparison, sections: Sequence[list[list[str]]]) -> list[str]:
    """The header row, padded so that every section's columns line up."""
    headers = list(HEADERS if c.single_runs else (*HEADERS, "runs say"))
    widths = [len(h) for h in headers]
    for rows in sections:
        for row in rows:
            widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
    return [
        h.ljust(w) if i == 0 else h.rjust(w)
        for i, (h, w) in enumerate(zip(headers, widths, strict=True))
    ]


def _runs(n: int) -> str:
    return f"{n} run" if n == 1 else f"{n} runs"


def _statistics_note(c: Comparison) -> str:
    k = runs_needed()
    if c.single_runs:
        return (
            "One run per side: a change cannot be told from run-to-run noise; compare"
            f" directories of runs ({k} or more per side can show a difference at the"
            f" {ALPHA:.0%} level)."
        )
    return (
        "Median [min–max] per side. 'within spread': the ranges overlap; 'beyond spread':"
        " every run of one side lies past every run of the other, with p = 2/C(m+n, m)"
        " (exact Mann–Whitney at U = 0); 'too few runs': that p is above"
        f" {ALPHA:g} ({k} or more runs per side are needed)."
    )


def _side_lines(side: Side) -> list[str]:
    head = f"  {side.role:<10} {_runs(side.runs):<7} {side.sources[0]}"
    lines = [head] + [f"  {'':<10} {'':<7} {src}" for src in side.sources[1:]]
    if side.git:
        lines.append(f"  {'':<10} {'':<7} git {', '.join(side.git)}")
    return lines


def _failed_count(results: Sequence[ThresholdResult]) -> int:
    return sum(1 for r in results if r.failed)


def summary_line(results: Sequence[ThresholdResult]) -> str:
    failed = _failed_count(results)
    return (
        f"{failed} of {len(results)} threshold(s) failed"
        if failed
        else (f"all {len(results)} threshold(s) passed")
    )


def console_text(c: Comparison, results: Sequence[ThresholdResult]) -> str:
    out = [f"ghbench compare: {c.baseline.cell.describe()}"]
    if not c.baseline.cell.matches(c.candidate.cell):
        out[0] += f" vs {c.candidate.cell.describe()}"
    out += _side_lines(c.baseline) + _side_lines(c.candidate)
    sections = {section: _rows(c, section) for section in SECTIONS}
    headers = _headers(c, list(sections.values()))
    for section, rows in sections.items():
        if rows:
            out += ["", SECTIONS[section], *table(headers, rows, max_rows=None)]
    out += ["", "Notes"]
    for note in (*c.notes, _statistics_note(c)):
        out += textwrap.wrap(note, NOTE_WIDTH, initial_indent="  - ", subsequent_indent="    ")
    if results:
        out += ["", "Thresholds"]
        width = max(len(r.threshold.expression) for r in results)
        for r in results:
            mark = "FAIL" if r.failed else "ok"
            out.append(f"  {mark:<4}  {r.threshold.expression:<{width}}  {r.describe()}")
        out.append(f"  {summary_line(results)}")
    return "\n".join(out) + "\n"


def markdown_text(c: Comparison, results: Sequence[ThresholdResult]) -> str:
    """A PR comment or ``$GITHUB_STEP_SUMMARY``: thresholds first, the spec's figures,
    then the insights folded under ``<details>``."""
    title = f"`{c.baseline.cell.scenario_id}`"
    out = [f"### ghbench compare: {title}", ""]
    if results:
        out += [f"**Thresholds: {summary_line(results)}**", ""]
        verdicts = [
            ("❌ fail" if r.failed else "✅ pass", f"`{r.threshold.expression}`", r.describe())
            for r in results
        ]
        out += [*markdown_table(["result", "threshold", "observed"], verdicts), ""]
    out.append(
        f"Baseline: {_runs(c.baseline.runs)} ({c.baseline.cell.describe()}); candidate:"
        f" {_runs(c.candidate.runs)} ({c.candidate.cell.describe()})."
    )
    for section, heading in SECTIONS.items():
        rows = _rows(c, section)
        if not rows:
            continue
        # numbers right-aligned; the metric (code) and the verdict read from the left
        body = markdown_table(_headers(c, []), [[f"`{m}`", *rest] for m, *rest in rows], "lrrrr")
        if section in ("limits", "scorecard"):
            out += ["", f"**{heading}**", "", *body]
        else:
            out += ["", f"<details><summary>{heading}</summary>", "", *body, "", "</details>"]
    out += ["", *(f"- {md_escape(n)}" for n in (*c.notes, _statistics_note(c)))]
    return "\n".join(out) + "\n"


def _finite(value: float | None) -> float | None:
    return None if value is None or math.isinf(value) else value


def _spread_json(s: Spread) -> dict[str, Any]:
    return {"median": s.median, "min": s.low, "max": s.high, "runs": s.runs, "values": s.values}


def _side_json(side: Side) -> dict[str, Any]:
    cell = side.cell
    return {
        "cell": {
            "scenarioId": cell.scenario_id,
            "sessions": cell.sessions,
            "windowSeconds": cell.window_s,
        },
        "runs": side.runs,
        "sources": list(side.sources),
        "git": list(side.git),
    }


def compare_json(c: Comparison, results: Sequence[ThresholdResult]) -> dict[str, Any]:
    """Everything, machine-readable; infinite changes are null with ``fromZero: true``."""
    failed = _failed_count(results)
    return {
        "schemaVersion": SCHEMA_VERSION,
        "kind": "compare",
        "baseline": _side_json(c.baseline),
        "candidate": _side_json(c.candidate),
        "sameCell": c.baseline.cell.matches(c.candidate.cell),
        "metrics": [
            {
                "name": m.metric.name,
                "section": m.metric.section,
                "baseline": _spread_json(m.baseline),
                "candidate": _spread_json(m.candidate),
                "change": m.change,
                "changePct": _finite(m.change_pct),
                "fromZero": m.change_pct is not None and math.isinf(m.change_pct),
                "verdict": m.verdict.value,
                "p": m.p_value,
            }
            for m in c.metrics
            if m.metric.section not in ("split", "limits") or _shown(m)
        ],
        "notes": [*c.notes, _statistics_note(c)],
        "thresholds": [
            {
                "expression": r.threshold.expression,
                "metric": r.threshold.metric,
                "operator": r.threshold.op,
                "value": r.threshold.value,
                "relative": r.threshold.relative,
                "observed": _finite(r.observed),
                "fromZero": r.observed is not None and math.isinf(r.observed),
                "failed": r.failed,
                "passed": not r.failed,
                "missing": r.missing,
            }
            for r in results
        ],
        "thresholdsFailed": failed,
        "passed": failed == 0,
    }


@dataclass(frozen=True)
class ComparisonReport:
    """A comparison in each of its outputs, and whether a threshold failed."""

    texts: Mapping[str, str]  # console | markdown | json -> the text, ending with a newline
    document: Mapping[str, Any]  # what texts["json"] says, for the page and the trackers
    failed: bool
    summary: str  # the thresholds' one line

    @property
    def exit_code(self) -> int:
        """0, or ``THRESHOLD_FAILED`` when a ``--fail`` threshold held."""
        return THRESHOLD_FAILED if self.failed else 0


def comparison_report(
    baseline: Sequence[Run],
    candidate: Sequence[Run],
    thresholds: Sequence[Threshold],
    *,
    allow_different_cells: bool = False,
) -> ComparisonReport:
    """Compare, check the thresholds, and render every output."""
    comparison = compare_runs(baseline, candidate, allow_different_cells=allow_different_cells)
    results = [evaluate(t, check_metric(t, comparison)) for t in thresholds]
    document = compare_json(comparison, results)
    texts = {
        "json": strict_json(document) + "\n",
        "markdown": markdown_text(comparison, results),
        "console": console_text(comparison, results),
    }
    return ComparisonReport(texts, document, any(r.failed for r in results), summary_line(results))
