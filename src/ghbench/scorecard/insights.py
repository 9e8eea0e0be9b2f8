"""``insights``: what ghbench adds beside the spec's scorecard, never changing it.

- consumption: what each budget lost, counting the first call of every reset window
  (the spec's ``first − last`` misses it); the bracket delta when no row has headers;
- attributed spend: the known cost of the traced calls against that consumption; the
  rest (``unattributedPerHr``, never negative) was spent by opaque rows or by consumers
  that left no row; free calls (a 304, ``/rate_limit``, a refused call) cost 0;
- secondary limits: peak in-flight calls, and peak points per minute per budget,
  against GitHub's published limits;
- breakdowns: calls and known cost per operation, and per session when rows carry one.

All vectorised over the window's rows; see docs/scorecard.md for each definition.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ghbench.artifacts.models import (
    Attribution,
    AttributionByResource,
    Consumption,
    ConsumptionByResource,
    ExactFigures,
    Insights,
    Pacing,
    RowBreakdown,
    RowsExcluded,
    SecondaryLimits,
    SecondaryPeak,
    SpendSplit,
)
from ghbench.scorecard.burn import ResourceBurn
from ghbench.scorecard.costs import RowCosts
from ghbench.scorecard.metrics import round_or_none
from ghbench.scorecard.minutes import minute_codes
from ghbench.scorecard.window import MeasureWindow, RowSelection
from ghbench.timefmt import iso_ms, iso_s
from ghbench.trace.frame import NA, Categorical, TraceFrame

__all__ = [
    "CONCURRENCY_LIMIT",
    "GRAPHQL_POINTS_PER_MINUTE_LIMIT",
    "REST_POINTS_PER_MINUTE_LIMIT",
    "compute_insights",
    "consumption_of",
    "peak_concurrency",
    "peak_points_per_minute",
    "spend_split",
]

# GitHub's secondary limits (docs: secondary-rate-limit-rest-graphql.md)
CONCURRENCY_LIMIT = 100
REST_POINTS_PER_MINUTE_LIMIT = 900
GRAPHQL_POINTS_PER_MINUTE_LIMIT = 2_000


def _consumption(burn: ResourceBurn, bracket: int | None, window: MeasureWindow) -> Consumption:
    if burn.rows > 0:
        return Consumption(
            source="rows",
            points=burn.consumed,
            per_hr=round_or_none(window.per_hour(burn.consumed), "per_hr"),
            reset_windows=burn.groups,
            first_call_points=burn.first_call_cost,
        )
    if bracket is not None:
        points = max(0, bracket)
        return Consumption(
            source="bracket",
            points=points,
            per_hr=round_or_none(window.per_hour(points), "per_hr"),
        )
    return Consumption()


def _attribution(
    points: npt.NDArray[np.integer[Any]],
    priced: npt.NDArray[np.bool_],
    consumed: Consumption,
    window: MeasureWindow,
) -> Attribution:
    attributed = int(points.sum())
    attributed_hr = window.per_hour(attributed)
    unattributed = None
    if consumed.per_hr is not None and attributed_hr is not None:
        # known costs beyond what the headers saw: the headers under-observe (docs),
        # nothing was refunded; what is unattributed is then nothing
        unattributed = max(0.0, consumed.per_hr - attributed_hr)
    return Attribution(
        priced_calls=int(np.count_nonzero(priced)),
        attributed_points=attributed,
        attributed_per_hr=round_or_none(attributed_hr, "per_hr"),
        consumed_per_hr=consumed.per_hr,
        unattributed_per_hr=round_or_none(unattributed, "per_hr"),
    )


def peak_concurrency(
    ts_ms: npt.NDArray[np.int64], duration_ms: npt.NDArray[np.float64]
) -> SecondaryPeak:
    """Most calls in flight at once; a row runs over ``[timestamp − durationMs, timestamp)``
    at millisecond resolution. Rows without a duration are left out.

    A sweep over ±1 events: each event is ``2·time + is_start``, so at equal times a
    call that ends is counted out before one that starts is counted in.
    """
    known = ~np.isnan(duration_ms)
    ends = ts_ms[known]
    if ends.size == 0:
        return SecondaryPeak(peak=0, at=None, limit=CONCURRENCY_LIMIT)
    starts = ends - np.rint(np.maximum(duration_ms[known], 0.0)).astype(np.int64)
    events = np.concatenate((ends * 2, starts * 2 + 1))
    events.sort()
    steps = (events & 1).astype(np.int8) * np.int8(2) - np.int8(1)
    in_flight = np.cumsum(steps, dtype=np.int32)
    best = int(np.argmax(in_flight))
    peak = int(in_flight[best])
    at = iso_ms(int(events[best] // 2) / 1000) if peak > 0 else None
    return SecondaryPeak(peak=peak, at=at, limit=CONCURRENCY_LIMIT)


def peak_points_per_minute(
    slots: npt.NDArray[np.int64],
    slot_minute: npt.NDArray[np.int64],
    points: npt.NDArray[np.int8],
    limit: int,
) -> SecondaryPeak:
    """The busiest calendar minute and its points (``slots``: each row's minute code,
    ``slot_minute``: each code's calendar minute, as ``minute_codes`` gives them)."""
    if slots.size == 0:
        return SecondaryPeak(peak=0, at=None, limit=limit)
    totals = np.bincount(slots, weights=points, minlength=slot_minute.size)
    best = int(np.argmax(totals))
    peak = int(totals[best])
    at = iso_s(int(slot_minute[best]) * 60) if peak > 0 else None
    return SecondaryPeak(peak=peak, at=at, limit=limit)


def breakdown(cat: Categorical, rows: TraceFrame, costs: RowCosts) -> list[RowBreakdown]:
    """Calls, opaque calls and known cost per label; rows without one go under None."""
    n = len(cat.labels)
    size = n + 1
    slot = np.where(cat.codes < 0, n, cat.codes)
    opaque = rows.http_status == NA
    # one pass for calls and opaque calls: slot·2 + opaque
    both = np.bincount(slot * 2 + opaque, minlength=2 * size).reshape(size, 2)
    priced_gql = costs.graphql_priced
    gql = np.bincount(slot[priced_gql], weights=costs.graphql_points[priced_gql], minlength=size)
    core = np.bincount(slot[costs.core_points > 0], minlength=size)
    keys: list[str | None] = [*cat.labels, None]
    out = [
        RowBreakdown(
            key=keys[i],
            calls=int(both[i, 0] + both[i, 1]),
            opaque_calls=int(both[i, 1]),
            graphql_points=int(gql[i]),
            core_points=int(core[i]),
        )
        for i in range(size)
        if both[i, 0] + both[i, 1]
    ]
    out.sort(key=lambda b: (-b.calls, b.key is None, b.key or ""))
    return out


def _total(key: str, rows: TraceFrame, costs: RowCosts) -> RowBreakdown:
    """All of ``rows`` as one breakdown."""
    priced = costs.graphql_priced
    return RowBreakdown(
        key=key,
        calls=len(rows),
        opaque_calls=int(np.count_nonzero(rows.http_status == NA)),
        graphql_points=int(costs.graphql_points[priced].sum()),
        core_points=int(np.count_nonzero(costs.core_points > 0)),
    )


def _secondary(
    ts_ms: npt.NDArray[np.int64],
    duration_ms: npt.NDArray[np.float64],
    rest_points: npt.NDArray[np.int8],
    graphql_points: npt.NDArray[np.int8],
) -> SecondaryLimits:
    slots, slot_minute = minute_codes(ts_ms)
    return SecondaryLimits(
        concurrency=peak_concurrency(ts_ms, duration_ms),
        rest_points_per_minute=peak_points_per_minute(
            slots, slot_minute, rest_points, REST_POINTS_PER_MINUTE_LIMIT
        ),
        graphql_points_per_minute=peak_points_per_minute(
            slots, slot_minute, graphql_points, GRAPHQL_POINTS_PER_MINUTE_LIMIT
        ),
    )


def spend_split(
    rows: TraceFrame,
    costs: RowCosts,
    agent_rows: TraceFrame,
    agent_costs: RowCosts,
    *,
    both: tuple[TraceFrame, RowCosts, dict[str, Consumption]],
    agent_trace: str | None,
    agent_model: str | None = None,
) -> SpendSplit:
    """The window's orchestrator calls against its agents' calls, and each agent session;
    ``both``: the two traces' rows as one, their costs, and what each budget lost by
    their headers together (``consumption``)."""
    sessions = [b for b in breakdown(agent_rows.session_id, agent_rows, agent_costs) if b.key]
    together, together_costs, consumed = both
    return SpendSplit(
        orchestrator=_total("orchestrator", rows, costs),
        agents=_total("agents", agent_rows, agent_costs),
        agent_sessions=sessions,
        agent_trace=agent_trace,
        agent_model=agent_model,
        consumption=ConsumptionByResource(graphql=consumed["graphql"], core=consumed["core"]),
        secondary_limits=_secondary(
            together.ts_ms,
            together.duration_ms,
            together_costs.rest_secondary,
            together_costs.graphql_secondary,
        ),
    )


def consumption_of(
    burns: dict[str, ResourceBurn], brackets: dict[str, int | None], window: MeasureWindow
) -> dict[str, Consumption]:
    """What each budget lost (``consumption``) by its burn, else its bracket."""
    return {r: _consumption(burns[r], brackets[r], window) for r in ("graphql", "core")}


def compute_insights(
    rows: TraceFrame,
    *,
    window: MeasureWindow,
    burns: dict[str, ResourceBurn],
    brackets: dict[str, int | None],
    costs: RowCosts,
    selection: RowSelection,
    exact: ExactFigures | None = None,
    split: SpendSplit | None = None,
    pacing: Pacing | None = None,
) -> Insights:
    """All insights over ``rows`` (the window's non-control rows)."""
    consumption = consumption_of(burns, brackets, window)
    has_sessions = bool(np.any(rows.session_id.codes >= 0))
    return Insights(
        consumption=ConsumptionByResource(graphql=consumption["graphql"], core=consumption["core"]),
        attributed_spend=AttributionByResource(
            graphql=_attribution(
                costs.graphql_points, costs.graphql_priced, consumption["graphql"], window
            ),
            core=_attribution(costs.core_points, costs.core_priced, consumption["core"], window),
        ),
        secondary_limits=_secondary(
            rows.ts_ms, rows.duration_ms, costs.rest_secondary, costs.graphql_secondary
        ),
        operations=breakdown(rows.operation, rows, costs),
        sessions=breakdown(rows.session_id, rows, costs) if has_sessions else None,
        rows_excluded=RowsExcluded(
            before_window=selection.before_window,
            after_window=selection.after_window,
            benchmark_control=selection.benchmark_control,
        ),
        exact=exact,
        spend_split=split,
        pacing=pacing,
    )
