"""Solving for what a fleet controls: the fastest poll interval at which N sessions fit.

``capacity --sessions N --solve tick`` asks the converse of the session search: with N
sessions, how often may the orchestrator poll? A run *fits* exactly as the session
search judges it (``Probe.fits``: every budget within ``fraction`` of its limit, no rate
limit answered; ``ghbench.analysis.capacity``); a slower poll spends less, so the
answer is the smallest whole number of seconds in ``[fastest, slowest]`` at which the
run fits, found by bisection: the interval found fits and one second faster does not
(the two runs the answer shows). The slowest interval tried is the poll-cycle ceiling:
a poll slower than it fails the poll-cycle budget whatever it spends. Pure: the probe
(the model at N sessions with a given interval) is injected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ghbench.analysis.capacity import Probe

__all__ = ["TickProbe", "TickResult", "solve_tick"]


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
    seen: dict[int, TickProbe] = {}

    def run(tick: int) -> TickProbe:
        if tick not in seen:
            seen[tick] = TickProbe(tick, probe(tick))
        return seen[tick]

    def result(at: TickProbe | None, faster: TickProbe | None) -> TickResult:
        tried = tuple(seen[t] for t in sorted(seen))
        tick = None if at is None else at.tick_s
        return TickResult(sessions, fraction, tick, at, faster, tried)

    hi = run(slowest)
    if not hi.probe.fits(fraction):
        return result(None, hi)
    lo = run(fastest)
    if lo.probe.fits(fraction):
        return result(lo, None)
    while hi.tick_s - lo.tick_s > 1:  # lo does not fit, hi fits
        mid = run((lo.tick_s + hi.tick_s) // 2)
        lo, hi = (lo, mid) if mid.probe.fits(fraction) else (mid, hi)
    return result(hi, lo)
