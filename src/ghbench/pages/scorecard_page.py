"""A scorecard as one HTML page: the verdict and the run's warnings first, then the
spec's scorecard, each budget's burn curve against its limit over the window, its pacing
over its reset windows, who spent (the orchestrator, its agents, sessions, operations),
the secondary limits and the health notes.

Every figure is read from the artifact's JSON by its path and tagged with it
(``ghbench.pages.html.num``). Warnings are rendered from the artifact's typed list as
they are (kind, message, action and whichever figures they carry), so a kind this page
has never heard of shows like any other. Pure: the artifact and the burn points in,
the page out; its callers write it beside the scorecard (``report_path``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from ghbench.analysis.capacity import BUDGETS, budget_uses
from ghbench.artifacts.metrics import SCORECARD_METRICS
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.pages.burn import BurnSeries, burn_points
from ghbench.pages.html import (
    Markup,
    at_path,
    card,
    cards,
    esc,
    num,
    page,
    section,
    share_bar,
    table,
    verdict,
)
from ghbench.pages.svg import COLUMNS, Band, RefLine, Series, legend, line_chart
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.scorecard.refusals import BUDGET_NAMES
from ghbench.scorecard.refusals import KIND as RATE_LIMITED
from ghbench.timefmt import format_duration, parse_iso
from ghbench.trace.frame import TraceFrame

__all__ = ["report_path", "scorecard_page", "scorecard_report"]

NEAR = 0.8  # a budget at this share of its limit or more is close to running out
_RESOURCE_TITLES = {
    "graphql": "GraphQL points remaining",
    "core": "REST core requests remaining",
}
# the budgets the verdict weighs, in capacity's names: (their figure under insights, or
# under insights.spendSplit when the run traced its agents, whose calls count too)
_BUDGET_FIGURES: dict[str, str] = {
    "graphqlPointsPerHr": "consumption.graphql.perHr",
    "coreRequestsPerHr": "consumption.core.perHr",
    "restPointsPerMinute": "secondaryLimits.restPointsPerMinute.peak",
    "graphqlPointsPerMinute": "secondaryLimits.graphqlPointsPerMinute.peak",
    "concurrency": "secondaryLimits.concurrency.peak",
}


def report_path(scorecard: Path) -> tuple[Path, str]:
    """Where the page of a scorecard goes: its directory and the stem, ``report-X-T``
    for ``scorecard-X-T.json`` (the writer adds ``.html``, and ``-2``… if it is taken)."""
    return scorecard.parent, "report-" + scorecard.stem.removeprefix("scorecard-")


def _iso_s(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return parse_iso(value)
    except ValueError:
        return None


def _budget_rows(artifact: ScorecardArtifact, doc: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(capacity's budget name, its use, the JSON path of the figure used)."""
    split = doc["insights"].get("spendSplit") or {}
    rows = []
    uses = {u.name: u for u in budget_uses(artifact, 0.0)}
    for name, figure in _BUDGET_FIGURES.items():
        top = figure.split(".")[0]
        base = "insights.spendSplit" if split.get(top) is not None else "insights"
        rows.append((name, uses[name], f"{base}.{figure}"))
    return rows


def _limit_text(doc: dict[str, Any], name: str, path: str, limit: float) -> str:
    """The limit, tagged with its field when the artifact holds it."""
    if name in ("graphqlPointsPerHr", "coreRequestsPerHr"):
        resource = "graphql" if name.startswith("graphql") else "core"
        at = f"rateLimitSnapshots.before.{resource}.limit"
        if at_path(doc, at) is not None:
            return num(doc, at)
        return esc(f"{limit:,.0f} (GitHub's default)")
    return num(doc, path.rsplit(".", 1)[0] + ".limit")


def _exhausted(burn: Sequence[BurnSeries]) -> list[str]:
    """When each budget's remaining first read 0, as the traces saw it."""
    out = []
    for s in burn:
        empty = np.flatnonzero(s.remaining <= 0)
        if empty.size:
            at = _clock(float(s.times[empty[0]]))
            out.append(f"{s.resource}: remaining reached 0 at {at} UTC (from the trace)")
    return out


def _clock(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _verdict(artifact: ScorecardArtifact, doc: dict[str, Any], burn: Sequence[BurnSeries]) -> str:
    rows = _budget_rows(artifact, doc)
    worst = max(rows, key=lambda r: r[1].share)
    name, use, _ = worst
    what = BUDGETS[name][1]
    items = [
        Markup(
            f"{esc(BUDGETS[n][1])}: {num(doc, path)} of {_limit_text(doc, n, path, u.limit)}"
            f" ({u.share:.0%})"
        )
        for n, u, path in rows
    ]
    limited = [w for w in artifact.warnings if w.kind == RATE_LIMITED]
    # a version-4 scorecard says when each budget ran out; an older one, only its trace
    ran_out = [esc(w.message) for w in limited] or [esc(line) for line in _exhausted(burn)]
    if artifact.incomplete:
        level, title = "bad", "Incomplete run: figures cover only what was measured"
    elif limited:
        level = "bad"
        primary = any(w.limit == "primary" for w in limited)
        title = "A budget ran out" if primary else "A secondary rate limit refused calls"
        title += f": {sum(w.count or 0 for w in limited):,} call(s) refused"
    elif use.share > 1 or ran_out:
        level = "bad"
        title = f"Over budget: {what} at {use.share:.0%} of its limit"
        if ran_out and use.share <= 1:
            title = "A budget ran out during the run"
    elif use.share >= NEAR:
        level, title = "warn", f"Close to a limit: {what} at {use.share:.0%}"
    elif artifact.warnings:
        level = "warn"
        title = f"Within budget, with {len(artifact.warnings)} warning(s) on the figures"
    else:
        level, title = "ok", f"Within budget: the busiest is {what} at {use.share:.0%}"
    if artifact.scorecard.total_calls == 0:
        items.insert(0, esc("No calls in the window: there is nothing to score"))
        level = "bad" if level == "bad" else "warn"
    return verdict(level, title, [*ran_out, *items])


# how a warning's figures are labelled (``RunWarning``'s fields); a rate limit's own words
_FIGURES = {"count": "count", "seconds": "seconds", "at": "at"}
_LIMITED_FIGURES = {"count": "calls refused", "seconds": "time refused", "at": "first at"}


def _warnings(doc: dict[str, Any]) -> str:
    parts = []
    if doc.get("incomplete"):
        parts.append(
            '<div class="warning bad"><span class="kind">incomplete</span> '
            f"{esc(doc.get('incompleteReason') or 'the run was cut short')}</div>"
        )
    found = list(enumerate(doc.get("warnings") or []))
    # the rate limits that answered first: every figure after one counts refused calls
    for i, w in sorted(found, key=lambda iw: iw[1].get("kind") != RATE_LIMITED):
        limited = w.get("kind") == RATE_LIMITED
        labels = _LIMITED_FIGURES if limited else _FIGURES
        figs = []
        for key, unit in (("count", ""), ("seconds", "s")):
            if w.get(key) is not None:
                value = num(doc, f"warnings.{i}.{key}", digits=1 if unit else 0, unit=unit)
                figs.append(f"{esc(labels[key])} {value}")
        if w.get("at"):
            figs.append(f"{esc(labels['at'])} {esc(w['at'])}")
        if limited and w.get("budget"):
            budget = BUDGET_NAMES.get(w["budget"], w["budget"])
            figs.append(f"budget {esc(budget)} ({esc(w.get('limit') or '?')} limit)")
        level = "bad" if limited or w.get("kind") == "rows-lost" else ""
        parts.append(
            f'<div class="warning {level}" data-kind="{esc(w.get("kind"))}">'
            f'<span class="kind">{esc(w.get("kind"))}</span> {esc(w.get("message"))}'
            f'<p class="action"><b>What to do:</b> {esc(w.get("action"))}</p>'
            + (f'<div class="figs">{" · ".join(figs)}</div>' if figs else "")
            + "</div>"
        )
    if not parts:
        return ""
    return section("Warnings", *parts, anchor="warnings")


def _scorecard(doc: dict[str, Any]) -> str:
    rows = []
    for m in SCORECARD_METRICS:
        path = f"scorecard.{m.key}"
        value = num(doc, path, digits=m.shown + (1 if m.ratio else 0), pct=m.ratio)
        note = ""
        flag = at_path(doc, f"scorecard.{m.key}Estimated")
        if flag:
            note = "estimated from the /rate_limit bracket"
        rows.append([m.label, value, Markup(f"<code>{esc(m.key)}</code>"), note])
    headline = cards(
        [
            card("Calls", num(doc, "scorecard.totalCalls"), "in the window"),
            card("GraphQL points/h", num(doc, "scorecard.graphqlPointsPerHr"), "spec's burn"),
            card(
                "REST core requests/h", num(doc, "scorecard.restCoreRequestsPerHr"), "spec's burn"
            ),
            card(
                "Opaque calls", num(doc, "scorecard.opaqueCallPct", digits=1, pct=True), "no status"
            ),
            card("p95 duration", num(doc, "scorecard.p95DurationMs", unit="ms")),
        ]
    )
    return section(
        "Scorecard",
        headline,
        table(["figure", "value", "field", "note"], rows, optional=(2, 3)),
        anchor="scorecard",
        lead="The benchmark spec's fields, with AO's rounding (docs/scorecard.md).",
    )


def _spent(doc: dict[str, Any], resource: str) -> str:
    """What the budget lost in the window, under its chart."""
    if resource not in ("graphql", "core"):
        return ""
    base = f"insights.consumption.{resource}"
    source = esc(at_path(doc, base + ".source") or "no data")
    return (
        f"spent in the window {num(doc, base + '.points')}"
        f" ({num(doc, base + '.perHr', digits=1)}/h, from {source}); bracket delta"
        f" {num(doc, 'scorecard.bracketDelta.' + resource)}"
    )


def _burn_chart(
    doc: dict[str, Any], resource: str, s: BurnSeries | None, origin: float, window: Band | None
) -> str:
    title = _RESOURCE_TITLES.get(resource, f"{resource} remaining")
    pts: list[tuple[float, float]] = []
    if s is not None:
        s = s.thinned(COLUMNS)
        minutes = ((s.times - origin) / 60).tolist()
        pts = list(zip(minutes, s.remaining.astype(float).tolist(), strict=True))
    limit = None if s is None else s.limit
    series = [Series(f"{resource} remaining", pts, step=True)]
    chart = line_chart(
        series,
        x_label="minutes from the window's start",
        y_label="remaining",
        hlines=[] if limit is None else [RefLine(float(limit), f"limit {limit:,}")],
        bands=[] if window is None else [window],
        title=title,
    )
    notes = ["shaded: the measurement window" if window else ""]
    notes.append("" if pts else "no rate-limit headers or snapshots for this budget")
    return (
        f'<figure class="chart" data-resource="{esc(resource)}">'
        f"<figcaption>{esc(title)}</figcaption>{chart}{legend(series, notes)}"
        f'<div class="legend">{_spent(doc, resource)}</div></figure>'
    )


def _burn(doc: dict[str, Any], burn: Sequence[BurnSeries]) -> str:
    start, end = _iso_s(at_path(doc, "window.start")), _iso_s(at_path(doc, "window.end"))
    origin = start if start is not None else min((float(s.times[0]) for s in burn), default=0.0)
    window = None
    lead = (
        "Each budget's remaining points as the traces' rate-limit headers and the"
        " /rate_limit snapshots saw them, against its limit."
    )
    if start is not None and end is not None:
        window = Band(0.0, (end - start) / 60, "measurement window")
        lead += f" Window {doc['window']['start']} to {doc['window']['end']}"
        lead += f" ({format_duration(end - start)})."
    by_name = {s.resource: s for s in burn}
    # the two primary budgets always (an empty chart says nothing was seen), then others
    names = ["graphql", "core", *sorted(set(by_name) - {"graphql", "core"})]
    charts = "".join(_burn_chart(doc, r, by_name.get(r), origin, window) for r in names)
    return section("Burn curves", f'<div class="charts">{charts}</div>', anchor="burn", lead=lead)


def _breakdown(rows: list[list[str]], who: str = "who") -> str:
    """A table of breakdowns; a phone shows their calls and points."""
    headers = [who, "calls", "opaque", "GraphQL points", "core points", "share of calls"]
    return table(headers, rows, optional=(2, 5))


def _row(doc: dict[str, Any], path: str, label: str, total: float) -> list[str]:
    """One breakdown (``RowBreakdown``) at ``path``: its calls, opaque calls and points."""
    calls = at_path(doc, path + ".calls") or 0
    return [
        label,
        num(doc, path + ".calls"),
        num(doc, path + ".opaqueCalls"),
        num(doc, path + ".graphqlPoints"),
        num(doc, path + ".corePoints"),
        share_bar(calls / total if total else None),
    ]


def _rows(doc: dict[str, Any], base: str) -> list[list[str]]:
    """Every breakdown of the list at ``base``, by its key."""
    items = at_path(doc, base) or []
    total = sum(item.get("calls", 0) for item in items)
    return [
        _row(doc, f"{base}.{i}", Markup(f"<code>{esc(item.get('key') or '(none)')}</code>"), total)
        for i, item in enumerate(items)
    ]


def _who(doc: dict[str, Any]) -> str:
    insights = doc["insights"]
    parts = []
    split = insights.get("spendSplit")
    if split:
        total = split["orchestrator"].get("calls", 0) + split["agents"].get("calls", 0)
        rows = [
            _row(doc, f"insights.spendSplit.{who}", Markup(f"<b>{who}</b>"), total)
            for who in ("orchestrator", "agents")
        ]
        model = split.get("agentModel")
        lead = "The orchestrator's traced calls, and its agents' own from their trace" + (
            f" (the agent model's profile {model})." if model else " (real agents)."
        )
        parts += [f"<h3>Orchestrator and agents</h3><p class=note>{esc(lead)}</p>"]
        parts.append(_breakdown(rows))
        if split.get("agentSessions"):
            parts.append("<h3>Agent sessions</h3>")
            parts.append(
                _breakdown(_rows(doc, "insights.spendSplit.agentSessions"), "agent session")
            )
    if insights.get("sessions"):
        parts.append("<h3>Orchestrator sessions</h3>")
        parts.append(_breakdown(_rows(doc, "insights.sessions"), "session"))
    parts.append("<h3>Operations</h3>")
    if insights.get("operations"):
        parts.append(_breakdown(_rows(doc, "insights.operations"), "operation"))
    else:
        parts.append("<p class=note>No calls in the window.</p>")
    attributed = []
    for resource in ("graphql", "core"):
        base = f"insights.attributedSpend.{resource}"
        attributed.append(
            [
                resource,
                num(doc, base + ".pricedCalls"),
                num(doc, base + ".attributedPoints"),
                num(doc, base + ".attributedPerHr", digits=1),
                num(doc, base + ".consumedPerHr", digits=1),
                num(doc, base + ".unattributedPerHr", digits=1, signed=True),
            ]
        )
    headers = ["budget", "priced calls", "points", "attributed/h", "consumed/h", "unattributed/h"]
    parts += [
        "<h3>Known cost against what the budget lost</h3>",
        table(headers, attributed, optional=(1, 2, 3)),
        "<p class=note>Unattributed: points the headers saw go that no traced row's known"
        " cost explains (opaque calls, other consumers of the token); negative when the"
        " headers under-observe (docs/scorecard.md).</p>",
    ]
    return section("Who spent", *parts, anchor="who")


def _pacing(doc: dict[str, Any]) -> str:
    """Each budget's reset windows: the share spent in the first 10 minutes, when it ran
    out, the minutes refused (none before scorecard version 5)."""
    if at_path(doc, "insights.pacing") is None:
        return ""
    rows = []
    for resource in ("graphql", "core"):
        for i, w in enumerate(at_path(doc, f"insights.pacing.{resource}.windows") or []):
            base = f"insights.pacing.{resource}.windows.{i}"
            share = w.get("shareFirst10Min")
            rows.append(
                [
                    resource,
                    esc(f"{w.get('start')} to {w.get('reset')}"),
                    num(doc, base + ".spentFirst10Min"),
                    num(doc, base + ".limit"),
                    num(doc, base + ".shareFirst10Min", digits=1, pct=True),
                    num(doc, base + ".exhaustedAfterSeconds", digits=1, unit="s"),
                    num(doc, base + ".refusedMinutes", digits=2, unit="min"),
                    share_bar(share, cls="c1"),
                ]
            )
    if not rows:
        return ""
    headers = [
        "budget",
        "reset window",
        "spent in its first 10 min",
        "limit",
        "share",
        "ran out after",
        "refused",
        "share",
    ]
    return section(
        "Pacing",
        table(headers, rows, numeric_from=2, optional=(1, 7)),
        anchor="pacing",
        lead="How each budget's spend is spread over its reset windows (GitHub's hour,"
        " from its first charged call): an even pace spends a sixth in the first 10"
        " minutes; half or more is front-loaded (docs/scorecard.md, Pacing).",
    )


def _secondary(doc: dict[str, Any]) -> str:
    rows = []
    for key, label in (
        ("concurrency", "calls in flight at once"),
        ("restPointsPerMinute", "REST points in the busiest minute"),
        ("graphqlPointsPerMinute", "GraphQL points in the busiest minute"),
    ):
        base = f"insights.secondaryLimits.{key}"
        peak, limit = at_path(doc, base + ".peak"), at_path(doc, base + ".limit")
        share = peak / limit if isinstance(peak, int | float) and limit else None
        rows.append(
            [
                label,
                num(doc, base + ".peak"),
                num(doc, base + ".limit"),
                esc(at_path(doc, base + ".at") or "-"),
                share_bar(share, cls="c1"),
            ]
        )
    return section(
        "Secondary limits",
        table(["limit", "peak", "GitHub's limit", "at", "share"], rows, optional=(3, 4)),
        anchor="secondary",
        lead="GitHub's secondary limits over the orchestrator's trace (the verdict counts"
        " its agents' calls too, when they were traced).",
    )


_SOURCES = {"graphql": "graphqlPointsPerHr", "core": "restCoreRequestsPerHr"}


def _window_notes(doc: dict[str, Any]) -> list[str]:
    """Straddled reset windows, where each per-hour figure came from, estimates."""
    notes = []
    for resource, figure in _SOURCES.items():
        for base, view in (
            ("resourceWindows", "spec"),
            ("insights.exact.resourceWindows", "exact"),
        ):
            if at_path(doc, f"{base}.{resource}.straddled"):
                reset = esc(at_path(doc, f"{base}.{resource}.resetAt"))
                notes.append(
                    f"{resource}: the run straddled a reset ({view} view, reset at {reset}):"
                    " trust the per-row burn, not the bracket delta."
                )
        source = at_path(doc, f"insights.exact.{figure}Source")
        if source:
            notes.append(f"{figure}: from {esc(source)}.")
        if at_path(doc, f"scorecard.{figure}Estimated"):
            notes.append(
                f"{figure} is estimated from the /rate_limit bracket (under two header rows)."
            )
    return notes


def _health(doc: dict[str, Any]) -> str:
    notes: list[str] = []
    if doc.get("skippedLines"):
        notes.append(f"{num(doc, 'skippedLines')} trace line(s) could not be read:")
        for i, w in enumerate((doc.get("readWarnings") or [])[:10]):
            line = num(doc, f"readWarnings.{i}.line")
            notes.append(f"&nbsp;&nbsp;line {line}: {esc(w.get('message'))}")
    excluded = "insights.rowsExcluded"
    notes.append(
        f"Rows left out: {num(doc, excluded + '.beforeWindow')} before the window,"
        f" {num(doc, excluded + '.afterWindow')} after it,"
        f" {num(doc, excluded + '.benchmarkControl')} the harness's own (benchmark-control)."
    )
    notes += _window_notes(doc)
    if at_path(doc, "scorecard.benchmarkControlCalls") is not None:
        control = num(doc, "scorecard.benchmarkControlCalls")
        notes.append(f"The harness made {control} call(s) of its own in the window.")
    for label, path in (("trace", "trace"), ("agents' trace", "insights.spendSplit.agentTrace")):
        if at_path(doc, path):
            notes.append(f"{label}: <code>{esc(at_path(doc, path))}</code>")
    items = "".join(f"<li>{n}</li>" for n in notes)
    return section("Health notes", f"<ul>{items}</ul>", anchor="health")


def scorecard_page(artifact: ScorecardArtifact, burn: Sequence[BurnSeries] = ()) -> str:
    """The whole page for ``artifact``; ``burn``: the run's burn points (none: the
    charts say there were none)."""
    doc: dict[str, Any] = msgspec.to_builtins(artifact)
    window = ""
    start, end = _iso_s(artifact.window.start), _iso_s(artifact.window.end)
    if start is not None and end is not None:
        window = f"window {format_duration(end - start)}"
    meta = [
        f"measured {artifact.measured_at}",
        window,
        f"{artifact.session_count} session(s)" if artifact.session_count is not None else "",
        f"git {artifact.git_sha[:12]}" if artifact.git_sha else "",
        f"branch {artifact.branch}" if artifact.branch else "",
        f"scorecard v{artifact.schema_version}",
    ]
    body = [
        _verdict(artifact, doc, burn),
        _warnings(doc),
        _scorecard(doc),
        _burn(doc, burn),
        _pacing(doc),
        _who(doc),
        _secondary(doc),
        _health(doc),
    ]
    return page(
        f"ghbench scorecard: {artifact.scenario_id}",
        f"Scorecard: {artifact.scenario_id}",
        meta,
        body,
        kind="scorecard",
    )


def scorecard_report(
    artifact: ScorecardArtifact,
    frame: TraceFrame,
    *,
    snapshots: Sequence[RateLimitSnapshot | None] = (),
    agents: TraceFrame | None = None,
) -> str:
    """The page of a run whose traces are at hand: its burn points from ``frame`` (and
    the agents' trace, same token) and the ``/rate_limit`` snapshots."""
    also = [] if agents is None else [agents]
    return scorecard_page(artifact, burn_points(frame, snapshots, also=also))
