"""The lab's table as text and as Markdown: one set of cells (``lab_cells``) that the
HTML page (``pages.lab_page``) shows too, so the three say the same."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghbench.analysis.markdown import markdown_table
from ghbench.timefmt import format_duration

__all__ = ["LAB_HEADERS", "lab_cells", "lab_lead", "lab_markdown", "lab_text"]

LAB_HEADERS: tuple[str, ...] = (
    "policies",
    "sessions fit",
    "binds",
    "GraphQL/h",
    "core/h",
    "absorbed",
    "delayed",
    "refused",
    "longest wait",
)


def _n(value: float) -> str:
    return f"{value:,.0f}" if abs(value - round(value)) < 0.05 else f"{value:,.1f}"


def lab_cells(doc: Mapping[str, Any]) -> list[list[str]]:
    """One row of strings per choice of policies (``LAB_HEADERS``), from the table's JSON."""
    out = []
    for row in doc["table"]:
        spend = row["spendPerHour"]
        out.append(
            [
                row["policies"],
                _n(row["sessionsFit"]),
                row["binds"] or "-",
                _n(spend["graphql"]),
                _n(spend["core"]),
                _n(row["absorbed"]),
                _n(row["delayed"]),
                _n(row["refused"]),
                format_duration(row["longestWaitS"]) if row["longestWaitS"] else "-",
            ]
        )
    return out


def lab_lead(doc: Mapping[str, Any]) -> str:
    """What the table is of, in one sentence."""
    limits = ", ".join(f"{b} {v:,.0f}/h" for b, v in doc["limits"].items())
    return (
        f"{doc['rows']:,} rows, {doc['recordedSessions']} recorded session(s) over"
        f" {format_duration(doc['spanS'])}; budgets {limits}. Sessions fit: within"
        f" {doc['budgetFraction']:.0%} of every budget, nothing refused, no wait over"
        f" {format_duration(doc['ceilingS'])}. Spend and calls: at {doc['sessions']}"
        " session(s)."
    )


def _widths(rows: list[list[str]]) -> list[int]:
    return [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]


def lab_text(doc: Mapping[str, Any]) -> str:
    """The table as the console shows it."""
    rows = [list(LAB_HEADERS), *lab_cells(doc)]
    widths = _widths(rows)
    lines = [f"lab: {doc['trace']}", lab_lead(doc), ""]
    for row in rows:
        cells = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def lab_markdown(doc: Mapping[str, Any]) -> str:
    """The table as Markdown (a PR comment, a job summary)."""
    lines = [f"### Budget lab: `{doc['trace']}`", "", lab_lead(doc), ""]
    lines += markdown_table(LAB_HEADERS, lab_cells(doc), "l" + "r" * (len(LAB_HEADERS) - 1))
    return "\n".join(lines) + "\n"
