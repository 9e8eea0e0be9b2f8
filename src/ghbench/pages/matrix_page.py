"""The matrix's ``baseline.md`` as one HTML page: every run's figures side by side, how
each scenario's spend scales with the sessions against the hourly budget, the pruning
decisions and what is still pending.

Rendered from ``baseline.json`` (``kind: "baseline"``), which indexes the same runs as
``baseline.md``; every figure is tagged with its path there. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghbench.artifacts.metrics import METRICS
from ghbench.pages.html import Markup, at_path, badge, esc, fmt_number, num, page, section, table
from ghbench.pages.html import verdict as verdict_box
from ghbench.pages.svg import RefLine, Series, legend, line_chart
from ghbench.runspec.cells import cell_from_id

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


def _fits(doc: Mapping[str, Any], best: Mapping[str, int]) -> str:
    """Sessions at the hourly budget, extrapolated linearly from each series' largest
    measured scale (baseline.md's table)."""
    tops: dict[tuple[str, str], tuple[int, int]] = {}
    for cell_id, i in best.items():
        cell = cell_from_id(cell_id)
        if cell is None:
            continue
        key = (cell.scenario, cell.topology)
        if key not in tops or cell.sessions > tops[key][0]:
            tops[key] = (cell.sessions, i)
    rows = []
    for (scenario, topology), (sessions, i) in sorted(tops.items()):
        gql = doc["runs"][i]["scorecard"].get("graphqlPointsPerHr")
        per = None if gql is None else gql / sessions
        fits = "∞" if per == 0 else ("-" if per is None else fmt_number(BUDGET / per))
        rows.append(
            [
                scenario,
                topology,
                str(sessions),
                num(doc, f"runs.{i}.scorecard.graphqlPointsPerHr"),
                fmt_number(per, 1),
                fits,
            ]
        )
    if not rows:
        return ""
    return table(
        [
            "scenario",
            "topology",
            "from",
            "GraphQL pts/h",
            "per session",
            f"sessions at {BUDGET:,}/h",
        ],
        rows,
        numeric_from=2,
    )


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
    level = "bad" if failed else ("warn" if pending else "ok")
    title = "Every planned cell has a successful run" if not pending else "Cells still pending"
    body = [verdict_box(level, title, items)]
    body.append(
        section(
            "Scaling",
            _scaling(doc, best),
            _fits(doc, best),
            anchor="scaling",
            lead=f"Each scenario's latest successful run per scale against the {BUDGET:,}/h"
            " budget; the table extrapolates linearly from the largest scale measured.",
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
