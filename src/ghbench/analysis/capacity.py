"""How many sessions fit: the budgets a run is held to, and the search for the largest count.

A run (a ``Probe``) uses six budgets, each as a figure against a limit:

==========================  =================================================  ==========
budget                      figure (under ``insights``)                        limit
==========================  =================================================  ==========
``graphqlPointsPerHr``      ``consumption.graphql.perHr``                      bucket's
``coreRequestsPerHr``       ``consumption.core.perHr``                         bucket's
``restPointsPerMinute``     ``secondaryLimits.restPointsPerMinute.peak``       900
``graphqlPointsPerMinute``  ``secondaryLimits.graphqlPointsPerMinute.peak``    2,000
``concurrency``             ``secondaryLimits.concurrency.peak``               100
``pollCycle``               the longest poll cycle in the window (seconds)     the ceiling
==========================  =================================================  ==========

The buckets' limits come from the run's ``/rate_limit`` snapshot (5,000 when it has
none); the poll-cycle ceiling is AO's limit-finder's 60 s unless told otherwise. A run
whose agents were traced (``insights.spendSplit``) is held to the figures of both
traces together (``spendSplit.consumption`` and ``spendSplit.secondaryLimits``): the
agents draw on the same user's buckets and limits as the orchestrator.

The hourly figures are what each bucket lost, first call of each reset window included
(docs/scorecard.md, ``consumption``), so the budget is what the token really spends. A
count *fits* when every figure is at most ``fraction`` of its limit and no rate limit
answered in the run (the scorecard's ``rate-limited`` warnings: a budget that ran out or
a secondary limit that refused calls binds, whatever the figures say). This is the one
definition of "fits": ``capacity``, ``--from-trace``, ``--verify`` and the matrix's
``baseline.md`` all judge a count by ``Probe.fits``.

``find_capacity`` looks for the largest count that fits, calling ``probe(n)`` (the model
in virtual time, injected) as few times as it can. Each budget grows close to linearly
with the sessions, so it extrapolates each one to where it reaches ``fraction`` and
tries the nearest such count; it brackets the answer that way, then narrows it by the
same interpolation, bisecting when a step does not halve the bracket, until it has a
count that fits and the next count, which does not. It assumes cost grows with the
sessions: counts above the first one that does not fit are not tried. Pure: no model,
no files, no clock here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ghbench.artifacts.models import RowBreakdown, ScorecardArtifact
from ghbench.scorecard.rates import short_span
from ghbench.timefmt import parse_iso
from ghbench.trace.frame import TraceFrame

__all__ = [
    "BUDGETS",
    "DEFAULT_FRACTION",
    "POLL_CEILING_S",
    "BudgetUse",
    "CapacityResult",
    "Probe",
    "Refusal",
    "Spend",
    "VerifiedCount",
    "budget_uses",
    "find_capacity",
    "longest_poll_cycle",
    "poll_ticks",
    "traced_probe",
]

DEFAULT_FRACTION = 0.8
POLL_CEILING_S = 60.0  # AO's limit-finder: a poll cycle over 60 s no longer keeps up
TICK_MARK = "gh.api.guard-pr-list"  # Guard 1 opens each of AO's ticks (and the model's)
AO_POLL_S = 30.0  # AO's poll interval: a recording's ticks are read at it
DEFAULT_HOURLY_LIMIT = 5_000

# name -> (unit, what it is), in the order they are shown
BUDGETS: dict[str, tuple[str, str]] = {
    "graphqlPointsPerHr": ("points/h", "GraphQL points per hour"),
    "coreRequestsPerHr": ("requests/h", "REST core requests per hour"),
    "restPointsPerMinute": ("points/min", "secondary: REST points in the busiest minute"),
    "graphqlPointsPerMinute": ("points/min", "secondary: GraphQL points in the busiest minute"),
    "concurrency": ("calls", "secondary: most calls in flight at once"),
    "pollCycle": ("s", "the longest poll cycle"),
}


@dataclass(frozen=True)
class BudgetUse:
    name: str
    used: float
    limit: float

    @property
    def share(self) -> float:
        """``used / limit``: 1.0 is the whole budget."""
        return self.used / self.limit

    def fits(self, fraction: float) -> bool:
        return self.used <= fraction * self.limit

    def margin(self, fraction: float) -> float:
        """Headroom below ``fraction`` of the limit, in the budget's unit (negative: over)."""
        return fraction * self.limit - self.used


def _hourly_limit(artifact: ScorecardArtifact, resource: str) -> float:
    snaps = artifact.rate_limit_snapshots
    bucket = None if snaps is None or snaps.before is None else getattr(snaps.before, resource)
    return float(bucket.limit) if bucket is not None and bucket.limit > 0 else DEFAULT_HOURLY_LIMIT


def budget_uses(
    artifact: ScorecardArtifact,
    poll_cycle_s: float,
    ceiling_s: float = POLL_CEILING_S,
    *,
    hourly_limits: Mapping[str, float] | None = None,
) -> tuple[BudgetUse, ...]:
    """Every budget of one run, in ``BUDGETS`` order, its agents' calls in it when the
    run traced them. A consumption without data (no header row and no bracket, never the
    case for a simulated run) counts as 0. ``hourly_limits``: each bucket's, instead of
    the snapshot's (a replay raises its buckets to measure demand)."""
    insights = artifact.insights
    consumed, peaks = insights.consumption, insights.secondary_limits
    split = insights.spend_split
    if split is not None and split.consumption is not None:
        consumed = split.consumption
    if split is not None and split.secondary_limits is not None:
        peaks = split.secondary_limits

    def limit(resource: str) -> float:
        if hourly_limits is not None and resource in hourly_limits:
            return hourly_limits[resource]
        return _hourly_limit(artifact, resource)

    return (
        BudgetUse("graphqlPointsPerHr", consumed.graphql.per_hr or 0.0, limit("graphql")),
        BudgetUse("coreRequestsPerHr", consumed.core.per_hr or 0.0, limit("core")),
        BudgetUse(
            "restPointsPerMinute",
            float(peaks.rest_points_per_minute.peak),
            float(peaks.rest_points_per_minute.limit),
        ),
        BudgetUse(
            "graphqlPointsPerMinute",
            float(peaks.graphql_points_per_minute.peak),
            float(peaks.graphql_points_per_minute.limit),
        ),
        BudgetUse("concurrency", float(peaks.concurrency.peak), float(peaks.concurrency.limit)),
        BudgetUse("pollCycle", poll_cycle_s, ceiling_s),
    )


@dataclass(frozen=True)
class Spend:
    """Who spent a run's known points, per hour of its window: the orchestrator's calls
    and its agents' (``insights.spendSplit``)."""

    orchestrator: tuple[float, float]  # GraphQL points/h, REST core requests/h
    agents: tuple[float, float]

    @classmethod
    def of(cls, artifact: ScorecardArtifact) -> Spend | None:
        split = artifact.insights.spend_split
        hours = _window_hours(artifact)
        if split is None or hours <= 0:
            return None

        def per_hour(b: RowBreakdown) -> tuple[float, float]:
            return b.graphql_points / hours, b.core_points / hours

        return cls(per_hour(split.orchestrator), per_hour(split.agents))


def _window_hours(artifact: ScorecardArtifact) -> float:
    start, end = artifact.window.start, artifact.window.end
    if start is None or end is None:
        return 0.0
    return (parse_iso(end) - parse_iso(start)) / 3600.0


# a ``rate-limited`` warning's budget as a capacity budget (the others keep their names)
REFUSED_BUDGET: dict[str, str] = {"graphql": "graphqlPointsPerHr", "core": "coreRequestsPerHr"}
RATE_LIMITED = "rate-limited"


@dataclass(frozen=True)
class Refusal:
    """A rate limit that answered in a run: its budget (``BUDGETS``' name, else the
    warning's), the calls it refused and the scorecard's own words."""

    budget: str
    calls: int
    at: str | None
    message: str


@dataclass(frozen=True)
class Probe:
    """One session count run through the model, and what it used (and who spent it,
    when the run had agents); the rate limits that answered in it; its window."""

    sessions: int
    uses: tuple[BudgetUse, ...]
    spend: Spend | None = None
    refusals: tuple[Refusal, ...] = ()
    window_s: float | None = None

    @classmethod
    def of(cls, sessions: int, card: ScorecardArtifact, uses: tuple[BudgetUse, ...]) -> Probe:
        """A run's probe: its budgets, who spent, its rate limits and its window."""
        refusals = tuple(
            Refusal(
                REFUSED_BUDGET.get(w.budget or "", w.budget or "?"), w.count or 0, w.at, w.message
            )
            for w in card.warnings
            if w.kind == RATE_LIMITED
        )
        hours = _window_hours(card)
        return cls(sessions, uses, Spend.of(card), refusals, hours * 3600 if hours > 0 else None)

    def worst(self) -> BudgetUse:
        """The budget closest to (or furthest over) its limit."""
        return max(self.uses, key=lambda u: u.share)

    @property
    def binding(self) -> str:
        """What binds at this count: the first rate limit that answered, else the budget
        closest to its limit."""
        return self.refusals[0].budget if self.refusals else self.worst().name

    @property
    def extrapolated(self) -> bool:
        """Its hourly figures come from a window under 10 minutes (``scorecard.rates``)."""
        return self.window_s is not None and short_span(self.window_s)

    def fits(self, fraction: float) -> bool:
        return not self.refusals and all(u.fits(fraction) for u in self.uses)

    def pressure(self, fraction: float) -> float:
        """The worst share over ``fraction``: at most 1 when the count fits."""
        return self.worst().share / fraction


@dataclass(frozen=True)
class CapacityResult:
    fraction: float
    sessions: int  # the largest count that fits; 0 when even the smallest does not
    limiting: str  # the budget that binds first (at ``next``; at ``at`` when capped)
    at: Probe | None  # the run at ``sessions``
    next: Probe | None  # the next count tried, which does not fit; None when capped
    probes: tuple[Probe, ...]  # every count tried, by session count
    capped: bool  # every count up to the maximum fits


def _extrapolate(a: Probe, b: Probe | None, fraction: float) -> float:
    """The count where the first budget reaches ``fraction`` of its limit: each budget on
    the line through ``a`` and ``b`` (else through ``a`` and the origin), the nearest
    crossing ahead. Each budget alone grows close to linearly; their maximum does not."""
    nearest = math.inf
    for i, ua in enumerate(a.uses):
        ya = ua.used / (fraction * ua.limit)
        if b is not None and b.sessions != a.sessions:
            ub = b.uses[i]
            slope = (ub.used / (fraction * ub.limit) - ya) / (b.sessions - a.sessions)
        else:
            slope = ya / a.sessions
        if slope > 0:
            nearest = min(nearest, a.sessions + (1.0 - ya) / slope)
    return nearest


def find_capacity(
    probe: Callable[[int], Probe],
    *,
    fraction: float = DEFAULT_FRACTION,
    start: int = 1,
    maximum: int = 1000,
) -> CapacityResult:
    """The largest count in ``[start, maximum]`` that fits, with ``probe`` run as little
    as the budgets' near-linear growth allows."""
    seen: dict[int, Probe] = {}

    def run(n: int) -> Probe:
        if n not in seen:
            seen[n] = probe(n)
        return seen[n]

    def result(lo: Probe | None, hi: Probe | None) -> CapacityResult:
        binding = hi or lo
        assert binding is not None
        return CapacityResult(
            fraction=fraction,
            sessions=0 if lo is None else lo.sessions,
            limiting=binding.binding,
            at=lo,
            next=hi,
            probes=tuple(seen[n] for n in sorted(seen)),
            capped=hi is None,
        )

    lo = run(start)
    if not lo.fits(fraction):
        return result(None, lo)
    prev: Probe | None = None
    hi: Probe | None = None
    while hi is None:  # bracket: grow until a count does not fit
        if lo.sessions >= maximum:
            return result(lo, None)
        guess = math.ceil(min(_extrapolate(lo, prev, fraction), maximum))
        # a line through the origin is a rough guess; a line through two runs a good one
        growth = 8 if prev is None else 32
        n = min(maximum, growth * lo.sessions, max(lo.sessions + 1, guess))
        p = run(n)
        if p.fits(fraction):
            prev, lo = lo, p
        else:
            hi = p
    stalled = False
    while hi.sessions - lo.sessions > 1:  # narrow: interpolate, or bisect when that stalls
        span = hi.sessions - lo.sessions
        if stalled:
            n = (lo.sessions + hi.sessions) // 2
        else:
            n = math.floor(min(_extrapolate(lo, hi, fraction), hi.sessions))
        n = min(hi.sessions - 1, max(lo.sessions + 1, n))
        p = run(n)
        if not p.fits(fraction):
            hi = p
            if n - lo.sessions > 1 and _extrapolate(lo, hi, fraction) >= n - 1:
                q = run(n - 1)  # the crossing is predicted right below: check it directly
                lo, hi = (q, hi) if q.fits(fraction) else (lo, q)
        else:
            lo = p
            if hi.sessions - n > 1 and _extrapolate(lo, hi, fraction) < n + 1:
                q = run(n + 1)  # the crossing is predicted right above: check it directly
                lo, hi = (q, hi) if q.fits(fraction) else (lo, q)
        stalled = (hi.sessions - lo.sessions) * 2 > span
    return result(lo, hi)


def longest_poll_cycle(
    ts_ms: npt.NDArray[np.int64],
    duration_ms: npt.NDArray[np.float64],
    tick_marks: npt.NDArray[np.bool_],
    *,
    window: tuple[int, int],
    poll_s: float,
    scaled: npt.NDArray[np.bool_] | None = None,
    factor: float = 1.0,
) -> float:
    """The longest poll cycle a trace shows, in seconds, for runs whose ticks are not
    recorded (a real orchestrator). AO's poller opens every tick with Guard 1 (one
    ``gh.api.guard-pr-list`` per repo, in parallel): ``tick_marks`` flags those rows, and
    their starts less than half a poll interval apart are one tick's. A cycle runs from
    its tick's start to the end of the last call started before the next tick; the
    longest cycle that overlaps the window is the answer. Rows without a duration count
    as instants. 0.0 when no row is a tick mark.

    ``scaled`` and ``factor``: the cycle of the same orchestrator with ``factor`` times the
    sessions (a recording replayed at n of its k sessions, ``factor = n / k``): in each
    tick, the calls ``scaled`` flags (a session's own: its PR's guards, its review
    threads) take ``factor`` times what they took in an average tick of the window (the
    time some of them were in flight: the sum over n sessions' calls varies less than
    over k, so the average scales, not one tick's luck), the others (a repository's,
    the orchestrator's) what they took."""
    ends = ts_ms.astype(np.float64)
    starts = ends - np.nan_to_num(np.maximum(duration_ms, 0.0))
    tick_starts = poll_ticks(ts_ms, duration_ms, tick_marks, poll_s=poll_s)
    if tick_starts.size == 0:
        return 0.0
    owner = np.searchsorted(tick_starts, starts, side="right") - 1
    known = owner >= 0
    cycle_end = tick_starts.copy()
    np.maximum.at(cycle_end, owner[known], ends[known])
    lo, hi = window
    overlaps = (tick_starts <= hi) & (cycle_end >= lo)
    spans = cycle_end - tick_starts
    if scaled is not None and factor != 1.0 and overlaps.any():
        busy = _busy(starts, ends, owner, scaled & known, spans.size)
        spans = spans - busy + factor * float(busy[overlaps].mean())
    spans = spans[overlaps]
    return float(max(spans.max(), 0.0)) / 1000.0 if spans.size else 0.0


def poll_ticks(
    ts_ms: npt.NDArray[np.int64],
    duration_ms: npt.NDArray[np.float64],
    tick_marks: npt.NDArray[np.bool_],
    *,
    poll_s: float,
) -> npt.NDArray[np.float64]:
    """When each tick began (epoch ms, in order): the starts of the ``tick_marks`` rows,
    those less than half a poll interval apart one tick's (``longest_poll_cycle``)."""
    starts = ts_ms.astype(np.float64) - np.nan_to_num(np.maximum(duration_ms, 0.0))
    marks = np.sort(starts[tick_marks])
    if marks.size == 0:
        return marks
    ticks = [float(marks[0])]
    for start in marks[1:]:
        if start - ticks[-1] > 500.0 * poll_s:
            ticks.append(float(start))
    return np.array(ticks)


def _busy(
    starts: npt.NDArray[np.float64],
    ends: npt.NDArray[np.float64],
    owner: npt.NDArray[np.intp],
    chosen: npt.NDArray[np.bool_],
    ticks: int,
) -> npt.NDArray[np.float64]:
    """Per tick, the time at least one ``chosen`` call of it was in flight (ms)."""
    busy = np.zeros(ticks)
    index = np.flatnonzero(chosen)
    for tick in np.unique(owner[index]).tolist():
        mine = index[owner[index] == tick]
        order = np.argsort(starts[mine], kind="stable")
        reach = -np.inf
        for s, e in zip(starts[mine][order].tolist(), ends[mine][order].tolist(), strict=True):
            if e > reach:
                busy[tick] += e - max(s, reach)
                reach = e
    return busy


@dataclass(frozen=True)
class VerifiedCount:
    """One count run in real time, next to the model at the same timing."""

    model: Probe
    real: Probe

    @property
    def sessions(self) -> int:
        return self.real.sessions

    def agrees(self, fraction: float) -> bool:
        """Both fit, or neither does (which budget is furthest over is shown, not judged:
        at the boundary two budgets are often close)."""
        return self.model.fits(fraction) == self.real.fits(fraction)


def traced_probe(
    artifact: ScorecardArtifact, frame: TraceFrame, poll_s: float, ceiling_s: float
) -> Probe:
    """A run's budgets, its poll cycle read from its trace (``frame``: its ``ts_ms``,
    ``duration_ms`` and ``operation``) over the scorecard's window: how a real run, whose
    ticks are not recorded, is judged (``--verify``, the matrix's runs)."""
    start, end = artifact.window.start, artifact.window.end
    assert start is not None and end is not None
    window = (round(parse_iso(start) * 1000), round(parse_iso(end) * 1000))
    marks = frame.operation.mask(TICK_MARK)
    cycle = longest_poll_cycle(frame.ts_ms, frame.duration_ms, marks, window=window, poll_s=poll_s)
    sessions = artifact.session_count or 0
    return Probe.of(sessions, artifact, budget_uses(artifact, cycle, ceiling_s))
