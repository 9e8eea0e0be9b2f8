"""``baseline.md`` (and ``baseline.json``) rendered from the matrix's run records.

The Markdown follows the runbook's section format with the per-run content the real
``experiments/baseline.md`` grew (AO reference §7): one ``### {cell}: {title}`` section
per cell with "what this cell tells us", then one ``#### Run N`` per run holding a
field table, the ``/rate_limit`` bracket, the summarize and analyze output and the
scorecard. The file ends with a cross-run comparison, a scaling table (with the
scaling chart), the pruning decisions and the pending cells. Pure: text in, text out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ghbench import __version__
from ghbench.matrix.cells import Cell, cell_from_id, order_cells
from ghbench.matrix.pruning import PruneDecision, prune
from ghbench.matrix.record import RunRecord
from ghbench.timefmt import format_duration

__all__ = [
    "BASELINE_SCHEMA_VERSION",
    "baseline_json",
    "latest_ok",
    "render_baseline",
    "scorecard_metrics",
]

# Format history of baseline.json: 1: first version.
BASELINE_SCHEMA_VERSION = 1
BUDGET = 5000

# (label, scorecard field, decimals, is a ratio shown as %)
SCORECARD_ROWS: tuple[tuple[str, str, int, bool], ...] = (
    ("Total GH calls", "totalCalls", 0, False),
    ("Calls/min", "callsPerMin", 1, False),
    ("GraphQL points/hr", "graphqlPointsPerHr", 0, False),
    ("REST core requests/hr", "restCoreRequestsPerHr", 0, False),
    ("graphql-batch count", "graphqlBatchCount", 0, False),
    ("guard-pr-list 304s", "guardPrList304Count", 0, False),
    ("guard-pr-list 304 rate", "guardPrList304Rate", 1, True),
    ("guard-pr-list errors", "guardPrListErrorCount", 0, False),
    ("Opaque calls", "opaqueCallCount", 0, False),
    ("Opaque share", "opaqueCallPct", 1, True),
    ("p50 duration (ms)", "p50DurationMs", 0, False),
    ("p95 duration (ms)", "p95DurationMs", 0, False),
    ("p99 duration (ms)", "p99DurationMs", 0, False),
    ("Benchmark control calls", "benchmarkControlCalls", 0, False),
)


def _fmt(value: Any, decimals: int = 0, ratio: bool = False) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{100 * value:.{decimals}f}%" if ratio else f"{value:,.{decimals}f}"
    return str(value)


def scorecard_metrics(run: RunRecord) -> dict[str, float | None]:
    """The numeric scorecard fields of a run (``bracketDelta`` flattened)."""
    sc = run.scorecard or {}
    out: dict[str, float | None] = {
        k: float(v) for k, v in sc.items() if isinstance(v, int | float) and not isinstance(v, bool)
    }
    for resource, v in (sc.get("bracketDelta") or {}).items():
        out[f"bracketDelta.{resource}"] = None if v is None else float(v)
    return out


def latest_ok(runs: Sequence[RunRecord]) -> dict[Cell, RunRecord]:
    """The most recent successful run of each cell (by run number)."""
    out: dict[Cell, RunRecord] = {}
    for r in runs:
        cell = cell_from_id(r.cell)
        usable = cell is not None and r.status == "ok" and r.scorecard is not None
        if usable and cell is not None and (cell not in out or r.run > out[cell].run):
            out[cell] = r
    return out


def _bracket_lines(run: RunRecord) -> list[str]:
    snaps = run.rate_limit_snapshots or {}
    before, after = snaps.get("before"), snaps.get("after")
    if not before or not after:
        return ["- (no /rate_limit snapshots)"]
    out = []
    for label, snap in (("Before:", before), ("After:", after)):
        parts = [
            f"{res} remaining={_fmt((snap.get(res) or {}).get('remaining'))}"
            for res in ("core", "graphql")
            if snap.get(res)
        ]
        out.append(f"- {label:<7} {', '.join(parts)} @ {snap.get('capturedAt', '?')}")
    deltas = []
    for res in ("core", "graphql"):
        b, a = (before.get(res) or {}).get("remaining"), (after.get(res) or {}).get("remaining")
        if b is not None and a is not None:
            deltas.append(f"{res} {b - a:,}")
    out.append(
        f"- Coarse delta: {', '.join(deltas) or '-'} tokens over {_span(run.duration_s)}"
        " (includes opaque subcommands)"
    )
    return out


def _span(seconds: float) -> str:
    """The runbook's ``15 min``; a scaled run's shorter spans as ``9s`` or ``1m 30s``."""
    if seconds >= 60 and round(seconds) % 60 == 0:
        return f"{round(seconds) // 60} min"
    return format_duration(seconds)


def _run_section(run: RunRecord, cell: Cell | None) -> list[str]:
    out = [f"#### Run {run.run} — {run.operator}, {run.started_at}", ""]
    sc = run.scorecard or {}
    fields = [
        ("Status", run.status if not run.reason else f"{run.status}: {run.reason}"),
        ("Backend / driver", f"{run.backend} / {run.driver}"),
        ("Trace", f"`{run.trace}`" if run.trace else "-"),
        ("Repos", ", ".join(run.repos) or "-"),
        ("Sessions", str(run.sessions)),
        ("Warmup / duration", f"{_span(run.warmup_s)} / {_span(run.duration_s)}"),
        ("Calls", _fmt(sc.get("totalCalls"))),
        ("Calls/min", _fmt(sc.get("callsPerMin"), 1)),
    ]
    if run.seed is not None:
        fields.append(("Seed", str(run.seed)))
    out += ["| Field | Value |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in fields]
    out.append("")
    for note in run.notes:
        out += [f"> {note}", ""]
    if cell is not None and cell.needs_attribution and run.attribution_missing:
        out += [
            "> ⚠ **Attribution missing:** this cell needs per-session attribution but its trace"
            " has no `sessionId`; per-session figures here are not backed by data.",
            "",
        ]
    if run.status != "ok":
        return out
    out += ["**Rate-limit bracket:**", *_bracket_lines(run), ""]
    for title, text in (
        ("ghbench summarize", run.summary_text),
        ("ghbench analyze", run.analysis_text),
    ):
        out += [
            f"**{title} output:**",
            "",
            "```text",
            (text or "(missing)").rstrip("\n"),
            "```",
            "",
        ]
    out += ["**Scorecard:**", "", "| Metric | Value |", "|---|---:|"]
    for label, key, decimals, ratio in SCORECARD_ROWS:
        if key in sc:
            out.append(f"| {label} | {_fmt(sc[key], decimals, ratio)} |")
    for key in ("graphqlPointsPerHrEstimated", "restCoreRequestsPerHrEstimated"):
        if sc.get(key):
            out.append(f"| {key} | yes |")
    out.append("")
    return out


def _comparison(runs: Sequence[RunRecord]) -> list[str]:
    out = [
        "## Cross-run comparison",
        "",
        "| Cell | Run | Started | Backend | Status | Calls/min | GraphQL pts/hr"
        " | REST core/hr | 304 rate | Opaque | p50 ms |",
        "|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in _ordered(runs):
        sc = r.scorecard or {}
        out.append(
            f"| {r.cell} | {r.run} | {r.started_at} | {r.backend} | {r.status}"
            f" | {_fmt(sc.get('callsPerMin'), 1)} | {_fmt(sc.get('graphqlPointsPerHr'))}"
            f" | {_fmt(sc.get('restCoreRequestsPerHr'))}"
            f" | {_fmt(sc.get('guardPrList304Rate'), 1, True)}"
            f" | {_fmt(sc.get('opaqueCallPct'), 1, True)} | {_fmt(sc.get('p50DurationMs'))} |"
        )
    return [*out, ""]


def _scaling(best: Mapping[Cell, RunRecord], chart: str | None) -> list[str]:
    scales = sorted({c.scale for c in best})
    out = [
        "## Scaling",
        "",
        "GraphQL points/hr | REST core requests/hr per cell (latest successful run),"
        f" against the {BUDGET:,}/hr budget of each.",
        "",
        "| Scenario | Topology | "
        + " | ".join(f"{n} session{'' if n == 1 else 's'}" for n in scales)
        + " |",
        "|---|---|" + "---:|" * len(scales),
    ]
    series = sorted({(c.scenario, c.topology) for c in best})
    if not series:
        return [*out[:4], "(no successful runs yet)", ""]
    for scen, topo in series:
        cells = []
        for n in scales:
            r = best.get(Cell(scen, topo, n))
            sc = (r.scorecard or {}) if r else {}
            cells.append(
                f"{_fmt(sc.get('graphqlPointsPerHr'))} \\| {_fmt(sc.get('restCoreRequestsPerHr'))}"
                if r
                else "-"
            )
        out.append(f"| {scen} | {topo} | " + " | ".join(cells) + " |")
    out.append("")
    out += _capacity(best)
    if chart:
        out += [f"![GraphQL points and REST requests per hour against sessions]({chart})", ""]
    return out


def _capacity(best: Mapping[Cell, RunRecord]) -> list[str]:
    """Linear extrapolation from each series' largest measured scale."""
    out = [
        "Sessions that fit in the budget, extrapolated linearly from the largest measured"
        " scale of each series:",
        "",
        "| Scenario | Topology | From | GraphQL pts/hr/session | Sessions at 5,000/hr |",
        "|---|---|---:|---:|---:|",
    ]
    tops: dict[tuple[str, str], Cell] = {}
    for c in best:
        key = (c.scenario, c.topology)
        if key not in tops or c.scale > tops[key].scale:
            tops[key] = c
    for key in sorted(tops):
        c = tops[key]
        gql = (best[c].scorecard or {}).get("graphqlPointsPerHr")
        per = None if gql is None else float(gql) / c.scale
        fits = "∞" if per == 0 else ("-" if per is None else f"{BUDGET / per:,.0f}")
        out.append(f"| {key[0]} | {key[1]} | {c.scale} | {_fmt(per, 1)} | {fits} |")
    return [*out, ""]


def _pruning(decisions: Sequence[PruneDecision]) -> list[str]:
    out = [
        "## Pruning",
        "",
        "A cell is kept when a scorecard metric (per session for counts and rates) changes by"
        " more than 15% from an adjacent scale point; priority cells are always kept.",
        "",
        "| Cell | Decision | Why |",
        "|---|---|---|",
    ]
    out += [
        f"| {d.cell.id} | {'keep' if d.keep else 'prune'} | {d.reason.replace('|', '/')} |"
        for d in decisions
    ]
    kept = sum(d.keep for d in decisions)
    return [*out, "", f"Kept {kept} of {len(decisions)} measured cells.", ""]


def _ordered(runs: Sequence[RunRecord]) -> list[RunRecord]:
    cells = {cell_from_id(r.cell) for r in runs} - {None}
    rank = {c.id: i for i, c in enumerate(order_cells(c for c in cells if c is not None))}
    return sorted(runs, key=lambda r: (rank.get(r.cell, len(rank)), r.cell, r.run))


def render_baseline(
    runs: Sequence[RunRecord], planned: Sequence[Cell] = (), *, chart: str | None = None
) -> str:
    """The whole ``baseline.md``: sections for every cell with runs, then the tables."""
    ordered = _ordered(runs)
    best = latest_ok(runs)
    out = [
        "# A2 baseline",
        "",
        f"Rendered by ghbench {__version__} from {len(runs)} run record(s) in `runs/`;"
        " the file is rewritten after every cell, edit the records, not this file.",
        "",
    ]
    by_cell: dict[str, list[RunRecord]] = {}
    for r in ordered:
        by_cell.setdefault(r.cell, []).append(r)
    for cell_id, cell_runs in by_cell.items():
        cell = cell_from_id(cell_id)
        title = cell.title if cell else cell_id
        out += [f"### {cell_id}: {title}", ""]
        if cell is not None:
            out += [f"**What this cell tells us:** {cell.tells}", ""]
            out += [
                f"**Trigger:** {cell.info.trigger}. **Key signal:** {cell.info.key_signal}.",
                "",
            ]
        for r in cell_runs:
            out += _run_section(r, cell)
    out += _comparison(ordered)
    out += _scaling(best, chart)
    metrics = {c: scorecard_metrics(r) for c, r in best.items()}
    if len({c.scale for c in metrics}) > 1:
        out += _pruning(prune(metrics))
    done = {c.id for c in best}
    pending = [c for c in order_cells(planned) if c.id not in done]
    out += ["## Pending cells", ""]
    if pending:
        failed = {r.cell: r for r in ordered if r.status != "ok"}
        for c in pending:
            why = (
                f" — last run {failed[c.id].status}: {failed[c.id].reason}"
                if c.id in failed
                else ""
            )
            out.append(f"- {c.id}: {c.title}{why}")
    else:
        out.append("None: every planned cell has a successful run.")
    return "\n".join(out).rstrip("\n") + "\n"


def baseline_json(runs: Sequence[RunRecord], planned: Sequence[Cell] = ()) -> dict[str, Any]:
    """A machine-readable index of the same content (records stay the source)."""
    best = latest_ok(runs)
    metrics = {c: scorecard_metrics(r) for c, r in best.items()}
    decisions = prune(metrics) if len({c.scale for c in metrics}) > 1 else []
    return {
        "schemaVersion": BASELINE_SCHEMA_VERSION,
        "kind": "baseline",
        "runs": [
            {
                "cell": r.cell,
                "run": r.run,
                "status": r.status,
                "reason": r.reason,
                "backend": r.backend,
                "startedAt": r.started_at,
                "record": f"runs/{r.cell}/run-{r.run:03d}.json",
                "scorecard": r.scorecard,
            }
            for r in _ordered(runs)
        ],
        "pruning": [{"cell": d.cell.id, "keep": d.keep, "reason": d.reason} for d in decisions],
        "pending": [c.id for c in order_cells(planned) if c not in best],
    }
