"""Rate-limit hygiene: may a cell start now, should it wait, or must it refuse?

The runbook's rule: every run stays inside one reset window, with at least 5 minutes
to spare after the window starts and before it ends, and never straddles a reset.
GitHub's window starts at the first request (not at the top of the hour), so the
window is read from ``/rate_limit``: it ends at ``reset`` and began an hour earlier.
A bucket with ``used == 0``, or whose ``reset`` has passed, has not started a window:
the run's own first request starts one.

The run's length and the budget estimate come from :class:`CellTiming`: the warmup
and window as the run will really last (``--duration-scale`` shortens both) and the
orchestrator's poll interval (the workload model's shrinks with them, AO's does not).

Pure: the caller passes the buckets (``ghbench.ratelimit.Bucket``), the time and the
run's length, and acts on the decision (sleep on the injected clock and ask again, or
record a refused cell).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ghbench.ratelimit import Bucket
from ghbench.runspec.cells import Cell
from ghbench.runspec.flags import takes
from ghbench.runspec.spec import RunSpec
from ghbench.timefmt import format_duration, iso_s

__all__ = [
    "AO_POLL_S",
    "MARGIN_S",
    "WINDOW_S",
    "CellTiming",
    "Decision",
    "Go",
    "Refuse",
    "Wait",
    "cell_timing",
    "decide",
    "estimate_cost",
    "run_timing",
    "spec_timing",
]

WINDOW_S = 3600.0
MARGIN_S = 300.0
AO_POLL_S = 30.0  # AO's lifecycle poll interval; the per-hour rates below assume it


@dataclass(frozen=True)
class CellTiming:
    """How long one run of a cell lasts and how often its orchestrator polls."""

    warmup_s: float
    window_s: float
    poll_s: float = AO_POLL_S
    # the interval the orchestrator is told to poll at (the workload model's tick), when
    # the run sets one; None: it polls at its own
    tick_s: float | None = None

    @property
    def runtime_s(self) -> float:
        return self.warmup_s + self.window_s


def cell_timing(
    cell: Cell,
    *,
    duration_scale: float = 1.0,
    tick_s: float | None = None,
    scaled_poll: bool = False,
) -> CellTiming:
    """The runbook's warmup and window times ``duration_scale`` (the window at least 1 s).

    The poll interval is ``tick_s`` when given; else, with ``scaled_poll`` (the workload
    model in real time), AO's 30 s scaled the same way, at least 1 s, so a shortened
    window still sees several cycles; else AO's 30 s. Both of the first two are imposed
    on the orchestrator (``CellTiming.tick_s``). The runner's hygiene estimate and the
    cell's run both take their timing from here (``run_timing``).
    """
    warmup = cell.info.warmup_s * duration_scale
    window = max(1.0, cell.info.duration_s * duration_scale)
    if tick_s is not None:
        return CellTiming(warmup, window, tick_s, tick_s)
    if scaled_poll and duration_scale != 1.0:
        poll = float(max(1, round(AO_POLL_S * duration_scale)))
        return CellTiming(warmup, window, poll, poll)
    return CellTiming(warmup, window)


def _told(spec: RunSpec) -> bool:
    """Whether ``spec``'s orchestrator is told its poll interval (the model is)."""
    return takes("tick", spec.driver, spec.backend)


def spec_timing(spec: RunSpec) -> CellTiming:
    """The timing a cell's own spec runs with (``ghbench.matrix.runner.cell_spec`` set
    its durations, and the poll interval of a driver told one)."""
    told = spec.tick.seconds if spec.tick is not None and _told(spec) else None
    poll = AO_POLL_S if told is None else told
    return CellTiming(spec.warmup.seconds, spec.duration.seconds, poll, told)


def run_timing(spec: RunSpec, cell: Cell) -> CellTiming:
    """How long ``cell`` runs under ``spec`` and how often its orchestrator polls: virtual
    time always takes the runbook's durations; real time scales them, and a driver told
    its poll interval (the model) gets ``--tick`` or the scaled one."""
    tick = None if spec.tick is None else spec.tick.seconds
    if spec.backend == "simulated":
        return cell_timing(cell, tick_s=tick)
    told = _told(spec)
    return cell_timing(
        cell,
        duration_scale=spec.duration_scale,
        tick_s=tick if told else None,
        scaled_poll=told,
    )


@dataclass(frozen=True)
class Go:
    reason: str


@dataclass(frozen=True)
class Wait:
    until: float  # epoch seconds; ask again then
    reason: str


@dataclass(frozen=True)
class Refuse:
    reason: str


Decision = Go | Wait | Refuse

# Conservative per-cell budget estimate. Per session-hour of polling, from the AO
# reference's measured table (post-B1 ~1,400 GraphQL pts/hr at 50 sessions, ~28 core/hr
# at 5), rounded up; plus one cold start (R Guard 1 200s, ceil(N/25) batches, a detectPR
# and a review pass per session) for every fresh orchestrator start in the scenario.
_GRAPHQL_PER_SESSION_HOUR = 40.0
_CORE_PER_SESSION_HOUR = 20.0
_COLD_STARTS = {"S1": 2, "S2": 1, "S3": 1, "S4": 1, "S5": 2, "S6": 1}
# S4's comment burst and S6's dashboard readers, per session over the run
_EXTRA_PER_SESSION = {"S4": (2, 2), "S6": (12, 0)}


def estimate_cost(cell: Cell, timing: CellTiming | None = None) -> dict[str, int]:
    """A conservative upper estimate of what one run of ``cell`` spends, per resource.

    Polling costs per cycle, so it grows with the run's length over its poll interval
    (``timing``, the runbook's when None); cold starts, the S4 burst and the S6 reader
    cost the same however long the run is.
    """
    timing = timing or cell_timing(cell)
    n, repos = cell.sessions, cell.repo_count
    # session-hours of polling at AO's interval, as many cycles as the run really has
    hours = timing.runtime_s / 3600.0 * (AO_POLL_S / timing.poll_s)
    colds = _COLD_STARTS[cell.scenario]
    extra_gql, extra_core = _EXTRA_PER_SESSION.get(cell.scenario, (0, 0))
    graphql = hours * _GRAPHQL_PER_SESSION_HOUR * n + colds * (math.ceil(n / 25) * 20 + n)
    core = hours * _CORE_PER_SESSION_HOUR * n + colds * (repos + 2 * n)
    return {
        "graphql": math.ceil(graphql + extra_gql * n),
        "core": math.ceil(core + extra_core * n),
    }


def _fresh(bucket: Bucket, now: float) -> bool:
    return bucket.used == 0 or bucket.reset <= now


def decide(
    buckets: Mapping[str, Bucket],
    now: float,
    run_s: float,
    estimate: Mapping[str, int],
    *,
    margin_s: float = MARGIN_S,
    window_s: float = WINDOW_S,
) -> Decision:
    """Go, Wait(until) or Refuse for a run of ``run_s`` seconds starting ``now``.

    Only the resources named in ``estimate`` are checked; a missing bucket is ignored
    (an emulator or GHES may not report it).
    """
    longest = window_s - 2 * margin_s
    if run_s > longest:
        return Refuse(
            f"the cell runs {format_duration(run_s)} but a reset window leaves at most"
            f" {format_duration(longest)} with {format_duration(margin_s)} spare on either side;"
            " shorten the cell's duration"
        )
    until = now
    reasons: list[str] = []
    for name in sorted(estimate):
        b = buckets.get(name)
        if b is None or _fresh(b, now):
            continue
        start = b.reset - window_s
        if now < start + margin_s:
            until = max(until, start + margin_s)
            reasons.append(
                f"{name} window began at {iso_s(start)};"
                f" waiting {format_duration(margin_s)} past it"
            )
        elif now + run_s > b.reset - margin_s:
            until = max(until, b.reset + margin_s)
            reasons.append(
                f"{name} resets at {iso_s(b.reset)}; a {format_duration(run_s)} run would end"
                f" within {format_duration(margin_s)} of it"
            )
    for name in sorted(estimate):
        b = buckets.get(name)
        if b is None:
            continue
        need = estimate[name]
        refills = _fresh(b, until) or until >= b.reset
        budget = b.limit if refills else b.remaining
        if need > b.limit:
            return Refuse(
                f"{name}: the cell needs about {need:,}, more than a whole window ({b.limit:,});"
                " run a smaller scale or a shorter duration"
            )
        if need > budget:
            return Refuse(
                f"{name}: {b.remaining:,} of {b.limit:,} remaining, the cell needs about {need:,};"
                f" the bucket resets at {iso_s(b.reset)}, run again then with --resume"
            )
    if until > now:
        return Wait(until, "; ".join(reasons))
    return Go(f"fits in the current windows with {format_duration(margin_s)} to spare")
