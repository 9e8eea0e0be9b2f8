"""Rows, a window and snapshots in; a ``ScorecardArtifact`` out. Pure: no files, no clock.

``build_scorecard_artifact`` is what ``report``, ``measure`` and ``simulate`` call. It
filters the frame to the window once, computes the per-row costs and burns once, and
hands them to ``metrics`` (the spec's fields) and ``insights`` (ghbench's additions).
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.artifacts.models import (
    Pacing,
    ReadWarningEntry,
    ResourceWindows,
    RunWarning,
    ScorecardArtifact,
    SpendSplit,
    Supplemental,
    Warmup,
    Window,
)
from ghbench.scorecard.burn import CostColumns, ResourceBurn, resource_burn
from ghbench.scorecard.costs import RowCosts, row_costs
from ghbench.scorecard.health import RunHealth, health_warnings
from ghbench.scorecard.health import incomplete_reason as with_losses
from ghbench.scorecard.inputs import Snapshots, epoch_seconds, snapshot_entries
from ghbench.scorecard.insights import compute_insights, consumption_of, spend_split
from ghbench.scorecard.metrics import (
    ao_resource_window,
    bracket_delta,
    compute_exact,
    compute_scorecard,
)
from ghbench.scorecard.pacing import front_loaded_warnings, pacing
from ghbench.scorecard.rates import SHORT_SPAN_S, short_span
from ghbench.scorecard.refusals import rate_limit_warnings
from ghbench.scorecard.window import MeasureWindow, window_rows
from ghbench.timefmt import format_duration, iso_ms, iso_s
from ghbench.trace.frame import CALL_COLUMNS, TraceFrame

__all__ = ["MAX_READ_WARNINGS", "build_scorecard_artifact"]

MAX_READ_WARNINGS = 50  # the artifact keeps the first ones; skippedLines has the count
RESOURCES = ("graphql", "core")
# The trace frame columns the scorecard and its insights compute over: ``report`` reads
# only these (tests hold the list to what the code uses).
SCORECARD_COLUMNS: tuple[str, ...] = (
    *CALL_COLUMNS,
    "session_id",
    "method",
    "rate_limit_call",
    "rate_limited",
    "rate_limit_limit",  # pacing: the share of each window's limit spent early
)


def _burns(rows: TraceFrame, costs: RowCosts) -> dict[str, ResourceBurn]:
    burn_costs: dict[str, CostColumns] = {
        "graphql": (costs.graphql_points, costs.graphql_priced),
        "core": (costs.core_points, costs.core_priced),
    }
    return {r: resource_burn(rows, r, burn_costs[r]) for r in RESOURCES}


def _split(  # noqa: PLR0917 - private, called once
    rows: TraceFrame,
    costs: RowCosts,
    window: MeasureWindow,
    brackets: dict[str, int | None],
    agent_frame: TraceFrame | None,
    agent_trace_path: str | None,
    agent_model: str | None,
) -> tuple[SpendSplit | None, list[RunWarning], Pacing]:
    """Who spent (the agents' trace beside the orchestrator's), the rate limits that
    answered either and each budget's pacing: one user's calls drain one set of buckets."""
    if agent_frame is None:
        return None, rate_limit_warnings(rows, costs, window), pacing(rows, costs, window)
    agent_frame.require(SCORECARD_COLUMNS)
    agent_rows, _ = window_rows(agent_frame, window)
    agent_costs = row_costs(agent_rows)
    together = TraceFrame.concat([rows, agent_rows])
    together_costs = row_costs(together)
    consumed = consumption_of(_burns(together, together_costs), brackets, window)
    split = spend_split(
        rows,
        costs,
        agent_rows,
        agent_costs,
        both=(together, together_costs, consumed),
        agent_trace=agent_trace_path,
        agent_model=agent_model,
    )
    limited = rate_limit_warnings(together, together_costs, window, orchestrator_rows=len(rows))
    return split, limited, pacing(together, together_costs, window)


def _short_window(window: MeasureWindow) -> list[RunWarning]:
    """A window under 10 minutes whose per-hour figures are extrapolated (``rates``)."""
    seconds = window.duration_ms / 1000
    if not short_span(seconds):
        return []
    return [
        RunWarning(
            kind="short-window",
            message=(
                f"hourly figures are extrapolated from a {format_duration(seconds)} window"
                f" (under {format_duration(SHORT_SPAN_S)}): read them as rough"
            ),
            action=(
                f"measure {format_duration(SHORT_SPAN_S)} or more (--duration) for hourly"
                " figures to trust; counts and shares stand as they are"
            ),
            seconds=seconds,
            at=iso_ms(window.start_ms / 1000),
        )
    ]


def build_scorecard_artifact(
    frame: TraceFrame,
    *,
    window_start_ms: int,
    window_end_ms: int,
    scenario_id: str,
    measured_at: float | str,
    warmup_requested: str | None = None,
    duration_requested: str | None = None,
    warmup_end_ms: int | None = None,
    snapshots: Snapshots | None = None,
    control_calls: int | None = None,
    session_count: int | None = None,
    git_sha: str | None = None,
    branch: str | None = None,
    trace_path: str | None = None,
    supplemental: Supplemental | Mapping[str, str | None] | None = None,
    incomplete_reason: str | None = None,
    agent_frame: TraceFrame | None = None,
    agent_trace_path: str | None = None,
    agent_model: str | None = None,
    health: RunHealth | None = None,
) -> ScorecardArtifact:
    """The scorecard artifact for ``frame`` over ``[window_start_ms, window_end_ms]``.

    ``measured_at`` is epoch seconds or ISO text. ``snapshots`` is ``Snapshots(before,
    after)`` of ``ghbench.ratelimit.RateLimitSnapshot``. ``warmup_end_ms`` defaults to the
    window start when a warmup was requested (measure mode); ``report`` passes
    ``--warmup-end``. Missing inputs (snapshots, control-call count, git) become nulls,
    as the spec's report mode requires. ``incomplete_reason`` marks a run cut short.
    ``health``: what a run saw of its own health (``measure``), its warnings; a run
    whose tracers lost rows is incomplete.
    """
    frame.require(SCORECARD_COLUMNS)
    window = MeasureWindow(window_start_ms, window_end_ms)
    snaps = snapshot_entries(snapshots)
    rows, selection = window_rows(frame, window)

    costs = row_costs(rows)
    burns = _burns(rows, costs)
    brackets = {r: bracket_delta(snaps, r) for r in RESOURCES}

    if warmup_end_ms is None and warmup_requested is not None:
        warmup_end_ms = window_start_ms
    split, limited, paced = _split(
        rows, costs, window, brackets, agent_frame, agent_trace_path, agent_model
    )
    warnings = [*limited, *front_loaded_warnings(paced), *_short_window(window)]
    if health is not None:
        warnings += health_warnings(frame, rows, window, health)
    if health is not None:
        incomplete_reason = with_losses(incomplete_reason, health.losses)
    if isinstance(supplemental, Mapping):
        supplemental = Supplemental(
            summarizer_output=supplemental.get("summarizerOutput"),
            analyzer_output=supplemental.get("analyzerOutput"),
        )
    return ScorecardArtifact(
        scenario_id=scenario_id,
        git_sha=git_sha,
        branch=branch,
        measured_at=iso_s(epoch_seconds(measured_at)),
        session_count=session_count,
        warmup=Warmup(
            requested=warmup_requested,
            actual_end=None if warmup_end_ms is None else iso_ms(warmup_end_ms / 1000),
        ),
        window=Window(
            start=iso_ms(window_start_ms / 1000),
            end=iso_ms(window_end_ms / 1000),
            duration_requested=duration_requested,
            duration_actual=format_duration(window.duration_ms / 1000),
        ),
        resource_windows=ResourceWindows(
            graphql=ao_resource_window(burns["graphql"]),
            core=ao_resource_window(burns["core"]),
        ),
        rate_limit_snapshots=snaps,
        scorecard=compute_scorecard(rows, window, burns, snaps, control_calls),
        insights=compute_insights(
            rows,
            window=window,
            burns=burns,
            brackets=brackets,
            costs=costs,
            selection=selection,
            exact=compute_exact(rows, window, burns, snaps),
            split=split,
            pacing=paced,
        ),
        trace=trace_path,
        supplemental=supplemental,
        incomplete=incomplete_reason is not None,
        incomplete_reason=incomplete_reason,
        warnings=warnings,
        skipped_lines=frame.skipped_lines,
        read_warnings=[
            ReadWarningEntry(line=w.line, message=w.message)
            for w in frame.warnings[:MAX_READ_WARNINGS]
        ],
    )
