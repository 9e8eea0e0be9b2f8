"""``baseline.md`` (and ``baseline.json``) rendered from the runs of the matrix's cells.

The Markdown follows the A2 baseline runbook's section format (``runspec.cells``
keeps its cells' titles, triggers and signals) with the per-run content AO's own
``experiments/baseline.md`` grew: one ``### {cell}: {title}`` section per cell with
"what this cell tells us", then one ``#### Run N`` per run holding a field table, the
rate limits that answered (above everything else: every figure after one counts
refused calls), the ``/rate_limit`` bracket, each budget as the capacity engine judges a
count, the summarize and analyze output and the scorecard. The file ends with a
cross-run comparison, a scaling table (with the scaling chart), "Sessions that fit"
(the capacity engine's answer per series, the one ``ghbench capacity`` gives:
``ghbench.matrix.capacity.series_search``), the pruning decisions and the pending
cells. Pure: text in, text out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ghbench import __version__
from ghbench.analysis.capacity import BUDGETS, DEFAULT_FRACTION
from ghbench.analysis.markdown import markdown_table
from ghbench.artifacts.metrics import BASELINE_ROWS, METRICS, SCORECARD_METRICS
from ghbench.artifacts.models import Scorecard, SnapshotEntry
from ghbench.matrix.pruning import PruneDecision, prune
from ghbench.matrix.runs import MatrixRun, SeriesCapacity
from ghbench.matrix.selection import order_cells
from ghbench.runspec.cells import Cell, cell_from_id
from ghbench.timefmt import format_duration

__all__ = [
    "BASELINE_SCHEMA_VERSION",
    "baseline_json",
    "latest_ok",
    "render_baseline",
    "scorecard_metrics",
]

# Format history of baseline.json: 1: first version. 2: ``capacity``: each series'
# capacity (``capacity --json``'s object); each run's ``warnings`` and ``budgets``.
BASELINE_SCHEMA_VERSION = 2
BUDGET = 5000
RATE_LIMITED = "rate-limited"


def _fmt(value: Any, decimals: int = 0, ratio: bool = False) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{100 * value:.{decimals}f}%" if ratio else f"{value:,.{decimals}f}"
    return str(value)


def scorecard_metrics(run: MatrixRun) -> dict[str, float | None]:
    """The scorecard figures of a run that pruning compares, by name."""
    card = run.scorecard or Scorecard()
    return {m.key: m.of(card) for m in SCORECARD_METRICS if m.per_session is not None}


def _figure(run: MatrixRun | None, key: str) -> float | None:
    """A run's scorecard figure, None without a run or a scorecard."""
    if run is None or run.scorecard is None:
        return None
    return METRICS[key].of(run.scorecard)


def latest_ok(runs: Sequence[MatrixRun]) -> dict[Cell, MatrixRun]:
    """The most recent successful run of each cell (by run number)."""
    out: dict[Cell, MatrixRun] = {}
    for r in runs:
        cell = cell_from_id(r.cell)
        usable = cell is not None and r.status == "ok" and r.scorecard is not None
        if usable and cell is not None and (cell not in out or r.run > out[cell].run):
            out[cell] = r
    return out


def _remaining(snap: SnapshotEntry, resource: str) -> int | None:
    bucket = snap.core if resource == "core" else snap.graphql
    return None if bucket is None else bucket.remaining


def _bracket_lines(run: MatrixRun) -> list[str]:
    snaps = run.rate_limit_snapshots
    before, after = (None, None) if snaps is None else (snaps.before, snaps.after)
    if before is None or after is None:
        return ["- (no /rate_limit snapshots)"]
    out = []
    for label, snap in (("Before:", before), ("After:", after)):
        parts = [
            f"{res} remaining={_fmt(_remaining(snap, res))}"
            for res in ("core", "graphql")
            if _remaining(snap, res) is not None
        ]
        out.append(f"- {label:<7} {', '.join(parts)} @ {snap.captured_at}")
    deltas = []
    for res in ("core", "graphql"):
        b, a = _remaining(before, res), _remaining(after, res)
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


def _run_section(run: MatrixRun, cell: Cell | None) -> list[str]:
    out = [f"#### Run {run.run} — {run.operator}, {run.started_at}", ""]
    fields = [
        ("Status", run.status if not run.reason else f"{run.status}: {run.reason}"),
        ("Backend / driver", f"{run.backend} / {run.driver}"),
        ("Trace", f"`{run.trace}`" if run.trace else "-"),
        ("Repos", ", ".join(run.repos) or "-"),
        ("Sessions", str(run.sessions)),
        ("Warmup / duration", f"{_span(run.warmup_s)} / {_span(run.duration_s)}"),
        ("Calls", _fmt(_figure(run, "totalCalls"))),
        ("Calls/min", _fmt(_figure(run, "callsPerMin"), 1)),
    ]
    if run.seed is not None:
        fields.append(("Seed", str(run.seed)))
    out += [*markdown_table(["Field", "Value"], fields), ""]
    # the rate limits that answered first: every figure after one counts refused calls
    for w in sorted(run.warnings, key=lambda w: w.kind != RATE_LIMITED):
        if w.kind == RATE_LIMITED:
            out += [f"> ⛔ **Rate limited ({w.budget}):** {w.message}.", ""]
        else:
            out += [f"> ⚠ **{w.kind}:** {w.message}.", ""]
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
    out += _budget_lines(run)
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
    card = run.scorecard
    if card is None:
        return out
    rows = [(m.label, _fmt(m.of(card), m.shown, m.ratio)) for m in BASELINE_ROWS]
    for key, estimated in (
        ("graphqlPointsPerHrEstimated", card.graphql_points_per_hr_estimated),
        ("restCoreRequestsPerHrEstimated", card.rest_core_requests_per_hr_estimated),
    ):
        if estimated:
            rows.append((key, "yes"))
    return [*out, "**Scorecard:**", "", *markdown_table(["Metric", "Value"], rows, "lr"), ""]


def _comparison(runs: Sequence[MatrixRun]) -> list[str]:
    headers = [
        "Cell",
        "Run",
        "Started",
        "Backend",
        "Status",
        "Calls/min",
        "GraphQL pts/hr",
        "REST core/hr",
        "304 rate",
        "Opaque",
        "p50 ms",
    ]
    rows = [
        (
            r.cell,
            str(r.run),
            r.started_at,
            r.backend,
            r.status,
            _fmt(_figure(r, "callsPerMin"), 1),
            _fmt(_figure(r, "graphqlPointsPerHr")),
            _fmt(_figure(r, "restCoreRequestsPerHr")),
            _fmt(_figure(r, "guardPrList304Rate"), 1, True),
            _fmt(_figure(r, "opaqueCallPct"), 1, True),
            _fmt(_figure(r, "p50DurationMs")),
        )
        for r in _ordered(runs)
    ]
    table = markdown_table(headers, rows, "lrlllrrrrrr")
    return ["## Cross-run comparison", "", *table, ""]


def _scaling(best: Mapping[Cell, MatrixRun], chart: str | None) -> list[str]:
    scales = sorted({c.sessions for c in best})
    out = [
        "## Scaling",
        "",
        "GraphQL points/hr | REST core requests/hr per cell (latest successful run),"
        f" against the {BUDGET:,}/hr budget of each.",
        "",
    ]
    series = sorted({(c.scenario, c.topology) for c in best})
    if not series:
        return [*out, "(no successful runs yet)", ""]
    rows = []
    for scen, topo in series:
        cells = [scen, topo]
        for n in scales:
            r = best.get(Cell(scen, topo, n))
            gql, rest = _figure(r, "graphqlPointsPerHr"), _figure(r, "restCoreRequestsPerHr")
            cells.append(f"{_fmt(gql)} | {_fmt(rest)}" if r else "-")
        rows.append(cells)
    headers = ["Scenario", "Topology", *(f"{n} session{'' if n == 1 else 's'}" for n in scales)]
    out += [*markdown_table(headers, rows, "ll" + "r" * len(scales)), ""]
    if chart:
        out += [f"![GraphQL points and REST requests per hour against sessions]({chart})", ""]
    return out


def _budget_lines(run: MatrixRun) -> list[str]:
    """The run's budgets as the capacity engine judges a count (``Probe.fits``)."""
    if not run.budgets:
        return []
    fraction = DEFAULT_FRACTION
    limited = [w for w in run.warnings if w.kind == RATE_LIMITED]
    fits = all(b.used <= fraction * b.limit for b in run.budgets) and not limited
    verdict = "fits" if fits else "does not fit"
    out = [
        f"**Budgets at {run.sessions} session(s)** (the capacity engine's; {verdict} within"
        f" {fraction:.0%} of every budget{', a rate limit answered' if limited else ''}):",
        "",
    ]
    rows = []
    for b in run.budgets:
        digits = 1 if b.name == "pollCycle" else 0
        unit = BUDGETS.get(b.name, ("", ""))[0]
        share = b.used / b.limit if b.limit else 0.0
        limit = f"{_fmt(b.limit, digits)} {unit}"
        rows.append((b.name, _fmt(b.used, digits), limit, _fmt(share, 1, True)))
    return [*out, *markdown_table(["Budget", "Used", "Limit", "Share"], rows, "lrrr"), ""]


def _capacity(
    capacities: Mapping[tuple[str, str], SeriesCapacity], series: list[tuple[str, str]]
) -> list[str]:
    """Each series' capacity: ``ghbench capacity``'s own answer (``series_search``)."""
    out = [
        "## Sessions that fit",
        "",
        "The capacity engine's answer for each series, the one `ghbench capacity` gives"
        " (docs/capacity.md): the largest count whose every budget (GraphQL points and core"
        " requests an hour, the secondary limits, the poll cycle) stays within the fraction of"
        " its limit and at which no rate limit answers, found with the model of the profile"
        " shown in virtual time at the runbook's timing. The command reproduces the row.",
        "",
    ]
    rows = []
    for key in series:
        found = capacities.get(key)
        if found is None:
            rows.append((*key, "pending", "-", "-", "-", "computed once the matrix ends"))
            continue
        count = f"{found.sessions:,}" + (" (the maximum tried)" if found.reached_max else "")
        agents = f", agents {found.cell.agents}" if found.cell.agents else ""
        profile = f"{found.cell.profile}{agents}, seed {found.cell.seed}"
        fraction = f"{found.budget_fraction:.0%}"
        rows.append((*key, count, found.limiting_resource, fraction, profile, f"`{found.command}`"))
    headers = [
        "Scenario",
        "Topology",
        "Sessions that fit",
        "Binds first",
        "Fraction",
        "Profile",
        "Command",
    ]
    return [*out, *markdown_table(headers, rows, "llrlrll"), ""]


def _pruning(decisions: Sequence[PruneDecision]) -> list[str]:
    out = [
        "## Pruning",
        "",
        "A cell is kept when a scorecard metric (per session for counts and rates) changes by"
        " more than 15% from an adjacent scale point; priority cells are always kept.",
        "",
    ]
    rows = [
        (d.cell.id, "keep" if d.keep else "prune", d.reason.replace("|", "/")) for d in decisions
    ]
    out += markdown_table(["Cell", "Decision", "Why"], rows)
    kept = sum(d.keep for d in decisions)
    return [*out, "", f"Kept {kept} of {len(decisions)} measured cells.", ""]


def _ordered(runs: Sequence[MatrixRun]) -> list[MatrixRun]:
    cells = {cell_from_id(r.cell) for r in runs} - {None}
    rank = {c.id: i for i, c in enumerate(order_cells(c for c in cells if c is not None))}
    return sorted(runs, key=lambda r: (rank.get(r.cell, len(rank)), r.cell, r.run))


def render_baseline(
    runs: Sequence[MatrixRun],
    planned: Sequence[Cell] = (),
    *,
    chart: str | None = None,
    capacities: Mapping[tuple[str, str], SeriesCapacity] | None = None,
) -> str:
    """The whole ``baseline.md``: sections for every cell with runs, then the tables;
    ``capacities``: each series' capacity (``runs.load_capacities``)."""
    ordered = _ordered(runs)
    best = latest_ok(runs)
    out = [
        "# A2 baseline",
        "",
        f"Rendered by ghbench {__version__} from {len(runs)} run record(s) in `runs/`;"
        " the file is rewritten after every cell, edit the records, not this file.",
        "",
    ]
    by_cell: dict[str, list[MatrixRun]] = {}
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
    series = sorted({(c.scenario, c.topology) for c in (*best, *planned)})
    if series:
        out += _capacity(capacities or {}, series)
    metrics = {c: scorecard_metrics(r) for c, r in best.items()}
    if len({c.sessions for c in metrics}) > 1:
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


def baseline_json(
    runs: Sequence[MatrixRun],
    planned: Sequence[Cell] = (),
    capacities: Mapping[tuple[str, str], SeriesCapacity] | None = None,
) -> dict[str, Any]:
    """A machine-readable index of the same content (the runs stay the source)."""
    best = latest_ok(runs)
    metrics = {c: scorecard_metrics(r) for c, r in best.items()}
    decisions = prune(metrics) if len({c.sessions for c in metrics}) > 1 else []
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
                # as the run's file holds it (``ghbench.matrix.runs``: keys sorted)
                "scorecard": msgspec.to_builtins(r.scorecard, order="sorted"),
                "warnings": msgspec.to_builtins(r.warnings, order="sorted"),
                "budgets": msgspec.to_builtins(r.budgets, order="sorted"),
            }
            for r in _ordered(runs)
        ],
        "capacity": [
            msgspec.to_builtins(found, order="sorted")
            for _, found in sorted((capacities or {}).items())
        ],
        "pruning": [{"cell": d.cell.id, "keep": d.keep, "reason": d.reason} for d in decisions],
        "pending": [c.id for c in order_cells(planned) if c not in best],
    }
