"""Solving for what a fleet controls: the fastest poll interval at which N sessions fit,
and the most of N sessions that may run their coding agent.

``capacity --sessions N --solve tick`` asks the converse of the session search: with N
sessions, how often may the orchestrator poll? A run *fits* exactly as the session
search judges it (``Probe.fits``: every budget within ``fraction`` of its limit, no rate
limit answered; ``ghbench.analysis.capacity``); a slower poll spends less, so the
answer is the smallest whole number of seconds in ``[fastest, slowest]`` at which the
run fits, found by bisection: the interval found fits and one second faster does not
(the two runs the answer shows). The slowest interval tried is the poll-cycle ceiling:
a poll slower than it fails the poll-cycle budget whatever it spends. Pure: the probe
(the model at N sessions with a given interval) is injected.

``capacity --sessions N --solve agents`` asks, with N sessions, how many may run their
coding agent (one per session: 0 to N). More agents never spend less, so the answer is
the largest count in ``[0, N]`` whose run fits, found by the same bisection: the count
found fits and one more does not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from ghbench.analysis.capacity import Probe

__all__ = ["AgentsProbe", "AgentsResult", "TickProbe", "TickResult", "solve_agents", "solve_tick"]


@dataclass(frozen=True)
class TickProbe:
    """One interval tried (seconds) and its run."""

    tick_s: int
    probe: Probe


@dataclass(frozen=True)
class TickResult:
    """The fastest interval that fits (None: not even the slowest does), the run there
    (``at``) and at the next faster interval tried (``faster``, which does not fit; None
    when the fastest allowed fits), every interval tried, and what binds."""

    sessions: int
    fraction: float
    tick_s: int | None
    at: TickProbe | None
    faster: TickProbe | None
    tried: tuple[TickProbe, ...]

    @property
    def limiting(self) -> str:
        """The budget that binds: at the faster interval (or at the slowest, when none
        fits); at the answer when even the fastest allowed fits."""
        binding = self.faster or self.at
        assert binding is not None
        return binding.probe.binding


@dataclass(frozen=True)
class AgentsProbe:
    """One agent count tried and its run."""

    agents: int
    probe: Probe


@dataclass(frozen=True)
class AgentsResult:
    """The most agents that fit beside ``sessions`` (None: not even none do), the run
    there (``at``) and with one more (``more``, which does not fit; None when every
    session's agent fits), every count tried, and what binds."""

    sessions: int
    fraction: float
    agents: int | None
    at: AgentsProbe | None
    more: AgentsProbe | None
    tried: tuple[AgentsProbe, ...]

    @property
    def limiting(self) -> str:
        """The budget that binds: with one agent more (or with none, when none fits); at
        the answer when every session's agent fits."""
        binding = self.more or self.at
        assert binding is not None
        return binding.probe.binding


_P = TypeVar("_P", TickProbe, AgentsProbe)


class _Runs(Generic[_P]):
    """A solve's runs: each value's run once (``probe``'s, kept as ``make`` builds it);
    ``tried()``: every run, by value."""

    def __init__(self, probe: Callable[[int], Probe], make: Callable[[int, Probe], _P]) -> None:
        self._probe = probe
        self._make: Callable[[int, Probe], _P] = make
        self._seen: dict[int, _P] = {}

    def __call__(self, value: int) -> _P:
        if value not in self._seen:
            self._seen[value] = self._make(value, self._probe(value))
        return self._seen[value]

    def tried(self) -> tuple[_P, ...]:
        return tuple(self._seen[v] for v in sorted(self._seen))


def _edge(run: Callable[[int], Probe], fits: int, fails: int, fraction: float) -> tuple[int, int]:
    """Two adjacent values between ``fits`` (whose run fits) and ``fails`` (whose run
    does not), either way round, the first fitting and the second not: a bisection."""
    while abs(fits - fails) > 1:
        mid = (fits + fails) // 2
        fits, fails = (mid, fails) if run(mid).fits(fraction) else (fits, mid)
    return fits, fails


def solve_tick(
    probe: Callable[[int], Probe],
    *,
    sessions: int,
    fraction: float,
    fastest: int = 1,
    slowest: int = 60,
) -> TickResult:
    """The smallest interval in ``[fastest, slowest]`` (whole seconds) whose run fits,
    assuming a slower poll never spends more."""
    if not 1 <= fastest <= slowest:
        raise ValueError(f"interval bounds {fastest}..{slowest}")
    run = _Runs(probe, TickProbe)

    def result(at: TickProbe | None, faster: TickProbe | None) -> TickResult:
        tick = None if at is None else at.tick_s
        return TickResult(sessions, fraction, tick, at, faster, run.tried())

    hi = run(slowest)
    if not hi.probe.fits(fraction):
        return result(None, hi)
    lo = run(fastest)
    if lo.probe.fits(fraction):
        return result(lo, None)
    good, bad = _edge(lambda t: run(t).probe, hi.tick_s, lo.tick_s, fraction)
    return result(run(good), run(bad))


def solve_agents(probe: Callable[[int], Probe], *, sessions: int, fraction: float) -> AgentsResult:
    """The largest agent count in ``[0, sessions]`` whose run fits, assuming one more
    agent never spends less."""
    if sessions < 1:
        raise ValueError(f"sessions {sessions}")
    run = _Runs(probe, AgentsProbe)

    def result(at: AgentsProbe | None, more: AgentsProbe | None) -> AgentsResult:
        count = None if at is None else at.agents
        return AgentsResult(sessions, fraction, count, at, more, run.tried())

    every = run(sessions)
    if every.probe.fits(fraction):
        return result(every, None)
    none = run(0)
    if not none.probe.fits(fraction):
        return result(None, none)
    good, bad = _edge(lambda a: run(a).probe, 0, sessions, fraction)
    return result(run(good), run(bad))
