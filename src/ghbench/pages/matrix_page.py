"""The matrix's ``baseline.md`` as one HTML page: every run's figures side by side, how
each scenario's spend scales with the sessions against the hourly budget, the pruning
decisions and what is still pending.

Rendered from ``baseline.json`` (``kind: "baseline"``), which indexes the same runs as
``baseline.md``; every figure is tagged with its path there. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghbench.analysis.capacity import BUDGETS
from ghbench.artifacts.metrics import METRICS
from ghbench.pages.html import Markup, at_path, badge, esc, num, page, section, table
from ghbench.pages.html import verdict as verdict_box
from ghbench.pages.svg import RefLine, Series, legend, line_chart
from ghbench.runspec.cells import cell_from_id
from ghbench.scorecard.refusals import KIND as RATE_LIMITED

__all__ = ["matrix_page"]

BUDGET = 5000  # the hourly budget of one token's buckets, as baseline.md draws it
# the columns of the runs' table: (scorecard key, heading)
_COLUMNS: tuple[tuple[str, str], ...] = (
    ("totalCalls", "calls"),
    ("callsPerMin", "calls/min"),
    ("graphqlPointsPerHr", "GraphQL pts/h"),
    ("restCoreRequestsPerHr", "REST core/h"),
    ("guardPrList304Rate", "304 rate"),
    ("opaqueCallPct", "opaque"),
    ("p50DurationMs", "p50 ms"),
)


def _latest_ok(doc: Mapping[str, Any]) -> dict[str, int]:
    """cell id -> index in ``runs`` of its latest successful run."""
    best: dict[str, int] = {}
    runs = doc.get("runs") or []
    for i, r in enumerate(runs):
        if r.get("status") != "ok" or r.get("scorecard") is None:
            continue
        cell = r["cell"]
        if cell not in best or r["run"] > runs[best[cell]]["run"]:
            best[cell] = i
    return best


def _runs_table(doc: Mapping[str, Any]) -> str:
    rows = []
    for i, r in enumerate(doc.get("runs") or []):
        status = r.get("status", "?")
        mark = badge(status, "ok" if status == "ok" else "bad")
        if any(w.get("kind") == RATE_LIMITED for w in r.get("warnings") or []):
            mark = Markup(f"{mark} {badge(RATE_LIMITED, 'bad')}")
        row: list[str] = [
            Markup(f"<code>{esc(r.get('cell'))}</code>"),
            num(doc, f"runs.{i}.run"),
            esc((r.get("startedAt") or "")[:16].replace("T", " ")),
            esc(r.get("backend")),
            mark,
        ]
        for key, _ in _COLUMNS:
            m = METRICS[key]
            row.append(num(doc, f"runs.{i}.scorecard.{key}", digits=m.shown + m.ratio, pct=m.ratio))
        rows.append(row)
    headers = ["cell", "run", "started", "backend", "status", *(h for _, h in _COLUMNS)]
    return table(headers, rows, numeric_from=5, optional=(2, 3))


def _scaling(doc: Mapping[str, Any], best: Mapping[str, int]) -> str:
    by_series: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for cell_id, i in best.items():
        cell = cell_from_id(cell_id)
        if cell is not None:
            by_series.setdefault((cell.scenario, cell.topology), []).append((cell.sessions, i))
    if not by_series:
        return "<p class=note>No successful runs yet.</p>"
    charts = []
    runs = doc["runs"]
    for key, label in (
        ("graphqlPointsPerHr", "GraphQL points per hour"),
        ("restCoreRequestsPerHr", "REST core requests per hour"),
    ):
        series = []
        for (scenario, topology), points in sorted(by_series.items()):
            xy = sorted((float(n), float(runs[i]["scorecard"].get(key) or 0)) for n, i in points)
            series.append(Series(f"{scenario} {topology}", xy, markers=True))
        chart = line_chart(
            series,
            x_label="sessions",
            y_label="per hour",
            hlines=[RefLine(BUDGET, f"budget {BUDGET:,}/h")],
            title=label,
        )
        charts.append(
            f'<figure class="chart" data-figure="{esc(key)}"><figcaption>{esc(label)}'
            f"</figcaption>{chart}{legend(series)}</figure>"
        )
    return f'<div class="charts">{"".join(charts)}</div>'


def _what(budget: str) -> str:
    return BUDGETS[budget][1] if budget in BUDGETS else budget


def _fits(doc: Mapping[str, Any]) -> str:
    """Each series' capacity: the capacity engine's answer, ``ghbench capacity``'s own
    (baseline.md's "Sessions that fit"), then the command that gives each."""
    rows, commands = [], []
    for i, found in enumerate(doc.get("capacity") or []):
        cell = found.get("cell") or {}
        limiting = found.get("limitingResource") or "?"
        count = num(doc, f"capacity.{i}.sessions")
        if found.get("reachedMax"):
            count = Markup(f"{count} (the maximum tried)")
        agents = f", agents {cell['agents']}" if cell.get("agents") else ""
        rows.append(
            [
                esc(cell.get("scenario")),
                esc(cell.get("topology")),
                Markup(f"{esc(_what(limiting))} (<code>{esc(limiting)}</code>)"),
                esc(f"{cell.get('profile')}{agents}, seed {cell.get('seed')}"),
                num(doc, f"capacity.{i}.budgetFraction", pct=True),
                count,
            ]
        )
        commands.append(f"<li><code>{esc(found.get('command'))}</code></li>")
    if not rows:
        return "<p class=note>No series' capacity yet: computed once the matrix ends.</p>"
    headers = ["scenario", "topology", "binds first", "profile", "fraction", "sessions that fit"]
    return Markup(
        table(headers, rows, numeric_from=4, optional=(3,))
        + f"<p class=note>The command that gives each row:</p><ul>{''.join(commands)}</ul>"
    )


def _limited(doc: Mapping[str, Any]) -> list[str]:
    """The runs at which a rate limit answered: cell, run and each budget refused."""
    out = []
    for r in doc.get("runs") or []:
        budgets = [
            w.get("budget") or "?" for w in r.get("warnings") or [] if w.get("kind") == RATE_LIMITED
        ]
        if budgets:
            out.append(f"{r.get('cell')} run {r.get('run')}: {', '.join(budgets)}")
    return out


def matrix_page(doc: Mapping[str, Any]) -> str:
    """The page for one matrix directory's ``baseline.json``."""
    runs = doc.get("runs") or []
    best = _latest_ok(doc)
    failed = [r for r in runs if r.get("status") != "ok"]
    pending = doc.get("pending") or []
    cells = sorted({r.get("cell") for r in runs})
    items = [
        f"{len(runs)} run(s) of {len(cells)} cell(s); {len(best)} cell(s) with a successful run."
    ]
    if failed:
        items.append(f"{len(failed)} run(s) failed or were refused (below).")
    if pending:
        items.append(f"Pending: {', '.join(pending)}.")
    limited = _limited(doc)
    if limited:
        items.append(
            f"A rate limit answered in {len(limited)} run(s), whose figures count refused calls: "
            + "; ".join(limited)
            + "."
        )
    level = "bad" if failed or limited else ("warn" if pending else "ok")
    title = "Every planned cell has a successful run" if not pending else "Cells still pending"
    body = [verdict_box(level, title, items)]
    body.append(
        section(
            "Scaling",
            _scaling(doc, best),
            anchor="scaling",
            lead=f"Each scenario's latest successful run per scale against the {BUDGET:,}/h"
            " budget.",
        )
    )
    body.append(
        section(
            "Sessions that fit",
            _fits(doc),
            anchor="fits",
            lead="The capacity engine's answer for each series, the one `ghbench capacity`"
            " gives: the largest count whose every budget (GraphQL points and core requests"
            " an hour, the secondary limits, the poll cycle) stays within the fraction of its"
            " limit and at which no rate limit answers. The command reproduces the row.",
        )
    )
    body.append(section("Runs", _runs_table(doc), anchor="runs"))
    pruning = doc.get("pruning") or []
    if pruning:
        rows = [
            [
                Markup(f"<code>{esc(p['cell'])}</code>"),
                "keep" if p["keep"] else "prune",
                esc(p["reason"]),
            ]
            for p in pruning
        ]
        body.append(
            section(
                "Pruning",
                table(["cell", "decision", "why"], rows, numeric_from=9),
                anchor="pruning",
            )
        )
    if failed:
        rows = [
            [
                Markup(f"<code>{esc(r['cell'])}</code>"),
                str(r.get("run")),
                esc(r.get("status")),
                esc(r.get("reason")),
            ]
            for r in failed
        ]
        body.append(
            section(
                "Failed runs",
                table(["cell", "run", "status", "why"], rows, numeric_from=9),
                anchor="failed",
            )
        )
    body.append(
        section(
            "Pending cells",
            "<ul>" + "".join(f"<li><code>{esc(c)}</code></li>" for c in pending) + "</ul>"
            if pending
            else "<p class=note>None: every planned cell has a successful run.</p>",
            anchor="pending",
        )
    )
    return page(
        "ghbench matrix baseline",
        "Matrix baseline",
        [f"baseline.json v{at_path(doc, 'schemaVersion')}"],
        body,
        kind="matrix",
    )
