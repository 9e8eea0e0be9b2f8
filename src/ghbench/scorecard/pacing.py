"""Pacing: how each budget's spend is spread over its reset windows.

GitHub's primary limits refill once an hour: a bucket's window starts with its first
charged call and ends at its reset (``rateLimitReset``), so a window's start is its reset
minus the bucket's window (one hour for every budget here). Per reset window of
``graphql`` and ``core`` seen in the measured window:

- ``spentFirst10Min`` / ``shareFirst10Min``: what the bucket had lost by its last row in
  the window's first 10 minutes (its limit minus the least ``remaining`` those rows
  show: every consumer's spend, the rows' own and any other's on the same token), and
  that as a share of the limit. A lower bound: spend after that row, still inside the
  10 minutes, is not seen. ``None`` when no row of those minutes is in the measured
  window or the rows carry no limit;
- ``exhaustedAfterSeconds``: from the window's start to the first row that saw the
  bucket at 0 or that the bucket refused; ``None`` when it never ran out;
- ``refusedMinutes``: the time the bucket spent refusing calls inside the window, by
  the rule of the ``rate-limited`` warning (``refusals``).

A budget is **front-loaded** when half its limit or more went in a window's first 10
minutes (``FRONT_LOADED_SHARE``; docs/scorecard.md says why): one ``front-loaded``
warning per budget, for its worst window. Pure: the window's rows, their costs, the
measured window and each bucket's window length are passed in.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ghbench.artifacts.models import BudgetPacing, Pacing, ResetWindowPacing, RunWarning
from ghbench.budgets import WINDOW_S
from ghbench.scorecard.burn import ResetWindow, reset_windows
from ghbench.scorecard.costs import RowCosts
from ghbench.scorecard.refusals import BUDGET_NAMES, RefusalBudget, primary_refusals, refused_ms
from ghbench.scorecard.window import MeasureWindow
from ghbench.timefmt import format_duration, iso_s
from ghbench.trace.frame import NA, TraceFrame

__all__ = [
    "FIRST_MINUTES_S",
    "FRONT_LOADED_SHARE",
    "KIND",
    "budget_pacing",
    "front_loaded_warnings",
    "pacing",
]

KIND = "front-loaded"
FIRST_MINUTES_S = 600  # the opening of a reset window whose share is measured
# An even pace spends 10/60 of the hour's budget in its first 10 minutes; half is three
# times that: at that pace the budget is gone by minute 20 and the rest of the hour is
# refused (craft-agents, 2026: ~4,500 of 5,000 points in the first minutes, then 221
# deferrals). docs/scorecard.md, "Pacing".
FRONT_LOADED_SHARE = 0.5
RESOURCES = ("graphql", "core")
ACTION = (
    "spread the calls over the hour: a longer poll interval (`ghbench capacity --sessions N"
    " --solve tick` finds the fastest that fits) or one admission gate for the whole fleet"
    " that refills a 3,600th of the budget each second; a burst at the window's start"
    " leaves the rest of the hour refused"
)


def _window_pacing(
    rows: TraceFrame,
    refusals: RefusalBudget,
    reset: ResetWindow,
    window: MeasureWindow,
    window_s: int,
) -> ResetWindowPacing:
    start_ms = (reset.reset - window_s) * 1000
    reset_ms = reset.reset * 1000
    ts = rows.ts_ms
    within = (ts >= start_ms) & (ts < reset_ms)
    group = refusals.domain & (rows.rate_limit_reset == reset.reset)
    group &= rows.rate_limit_remaining != NA
    limits = rows.rate_limit_limit[group & (rows.rate_limit_limit != NA)]
    limit = int(limits.max()) if limits.size else None
    opening = group & (ts < start_ms + FIRST_MINUTES_S * 1000)
    spent = share = None
    if limit is not None and bool(opening.any()):
        spent = int(np.clip(limit - int(rows.rate_limit_remaining[opening].min()), 0, limit))
        share = round(spent / limit, 4) if limit > 0 else None
    spent_out = within & refusals.domain & ((rows.rate_limit_remaining == 0) | refusals.refused)
    exhausted = None
    if bool(spent_out.any()):
        exhausted = max(0.0, (int(ts[spent_out].min()) - start_ms) / 1000)
    span = MeasureWindow(window.start_ms, max(window.start_ms, min(window.end_ms, reset_ms)))
    mine = RefusalBudget(
        refusals.name,
        refusals.limit,
        refusals.domain & within,
        refusals.refused & within,
        refusals.answered & within,
    )
    return ResetWindowPacing(
        start=iso_s(start_ms // 1000),
        reset=iso_s(reset.reset),
        limit=limit,
        spent_first_10_min=spent,
        share_first_10_min=share,
        exhausted_after_seconds=None if exhausted is None else round(exhausted, 3),
        refused_minutes=round(refused_ms(rows, mine, span) / 60_000, 3),
    )


def budget_pacing(
    rows: TraceFrame,
    costs: RowCosts,
    resource: str,
    window: MeasureWindow,
    window_s: int = WINDOW_S,
) -> BudgetPacing:
    """``resource``'s pacing over its reset windows in ``rows`` (the window's rows)."""
    refusals = primary_refusals(rows, costs, resource)
    windows = [
        _window_pacing(rows, refusals, r, window, window_s) for r in reset_windows(rows, resource)
    ]
    shares = [w.share_first_10_min for w in windows if w.share_first_10_min is not None]
    ran_out = [w.exhausted_after_seconds for w in windows if w.exhausted_after_seconds is not None]
    return BudgetPacing(
        share_first_10_min=max(shares) if shares else None,
        exhausted_after_seconds=ran_out[0] if ran_out else None,
        refused_minutes=round(sum(w.refused_minutes for w in windows), 3),
        windows=windows,
    )


def pacing(
    rows: TraceFrame,
    costs: RowCosts,
    window: MeasureWindow,
    window_s: Mapping[str, int] | None = None,
) -> Pacing:
    """``graphql``'s and ``core``'s pacing; ``window_s``: each bucket's window length
    (GitHub's hour unless given)."""
    lengths = dict.fromkeys(RESOURCES, WINDOW_S) | dict(window_s or {})
    graphql, core = (budget_pacing(rows, costs, r, window, lengths[r]) for r in RESOURCES)
    return Pacing(graphql=graphql, core=core)


def _warning(name: str, w: ResetWindowPacing) -> RunWarning:
    what = BUDGET_NAMES[name]
    share = w.share_first_10_min or 0.0
    message = (
        f"{what[:1].upper()}{what[1:]} were front-loaded: {w.spent_first_10_min:,} of"
        f" {w.limit:,} ({share:.0%}) spent in the first"
        f" {FIRST_MINUTES_S // 60} minutes of its reset window from {w.start}"
    )
    if w.exhausted_after_seconds is not None:
        message += f"; ran out after {format_duration(w.exhausted_after_seconds)}"
    if w.refused_minutes:
        message += f", {format_duration(w.refused_minutes * 60)} refused"
    return RunWarning(
        kind=KIND,
        message=message,
        action=ACTION,
        seconds=w.exhausted_after_seconds,
        at=w.start,
        budget=name,
        limit="primary",
    )


def _front_loaded(w: ResetWindowPacing) -> bool:
    """Half the limit or more in the first 10 minutes, unrounded."""
    if w.spent_first_10_min is None or not w.limit:
        return False
    return w.spent_first_10_min >= FRONT_LOADED_SHARE * w.limit


def front_loaded_warnings(paced: Pacing) -> list[RunWarning]:
    """One ``front-loaded`` warning per budget whose worst reset window spent
    ``FRONT_LOADED_SHARE`` of its limit or more in its first 10 minutes."""
    out = []
    for name in RESOURCES:
        budget: BudgetPacing = getattr(paced, name)
        worst = max(
            (w for w in budget.windows if w.share_first_10_min is not None),
            key=lambda w: w.share_first_10_min or 0.0,
            default=None,
        )
        if worst is not None and _front_loaded(worst):
            out.append(_warning(name, worst))
    return out
