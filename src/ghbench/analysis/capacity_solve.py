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
from typing import Literal

from ghbench.analysis.capacity import Probe

__all__ = ["Solve", "SolveResult", "Tried", "solve_agents", "solve_tick"]

# what a solve finds: a poll interval (whole seconds) or an agent count
Solve = Literal["tick", "agents"]


@dataclass(frozen=True)
class Tried:
    """One value tried (an interval in seconds, an agent count) and its run."""

    value: int
    probe: Probe


@dataclass(frozen=True)
class SolveResult:
    """What a solve found with ``sessions`` sessions: the boldest value that fits (the
    fastest interval, the most agents; None: not even the safest, the slowest interval or
    no agent, does), the run there (``at``) and at the next bolder value (``beyond``: one
    second faster, one agent more; it does not fit; None when the boldest allowed fits),
    every value tried, and what binds."""

    solved: Solve
    sessions: int
    fraction: float
    value: int | None
    at: Tried | None
    beyond: Tried | None
    tried: tuple[Tried, ...]

    @property
    def limiting(self) -> str:
        """The budget that binds: at the next bolder value (or at the safest, when none
        fits); at the answer when the boldest allowed fits."""
        binding = self.beyond or self.at
        assert binding is not None
        return binding.probe.binding


class _Runs:
    """A solve's runs: each value's run once (``probe``'s); ``result``: the answer, with
    every run tried, by value."""

    def __init__(self, solved: Solve, probe: Callable[[int], Probe], sessions: int) -> None:
        self._solved, self._probe, self._sessions = solved, probe, sessions
        self._seen: dict[int, Tried] = {}

    def __call__(self, value: int) -> Tried:
        if value not in self._seen:
            self._seen[value] = Tried(value, self._probe(value))
        return self._seen[value]

    def result(self, fraction: float, at: Tried | None, beyond: Tried | None) -> SolveResult:
        tried = tuple(self._seen[v] for v in sorted(self._seen))
        value = None if at is None else at.value
        return SolveResult(self._solved, self._sessions, fraction, value, at, beyond, tried)


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
) -> SolveResult:
    """The smallest interval in ``[fastest, slowest]`` (whole seconds) whose run fits,
    assuming a slower poll never spends more."""
    if not 1 <= fastest <= slowest:
        raise ValueError(f"interval bounds {fastest}..{slowest}")
    run = _Runs("tick", probe, sessions)
    hi = run(slowest)
    if not hi.probe.fits(fraction):
        return run.result(fraction, None, hi)
    lo = run(fastest)
    if lo.probe.fits(fraction):
        return run.result(fraction, lo, None)
    good, bad = _edge(lambda t: run(t).probe, hi.value, lo.value, fraction)
    return run.result(fraction, run(good), run(bad))


def solve_agents(probe: Callable[[int], Probe], *, sessions: int, fraction: float) -> SolveResult:
    """The largest agent count in ``[0, sessions]`` whose run fits, assuming one more
    agent never spends less."""
    if sessions < 1:
        raise ValueError(f"sessions {sessions}")
    run = _Runs("agents", probe, sessions)
    every = run(sessions)
    if every.probe.fits(fraction):
        return run.result(fraction, every, None)
    none = run(0)
    if not none.probe.fits(fraction):
        return run.result(fraction, None, none)
    good, bad = _edge(lambda a: run(a).probe, 0, sessions, fraction)
    return run.result(fraction, run(good), run(bad))
