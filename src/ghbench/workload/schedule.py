"""When the model's ticks start: AO's two timers, as a table.

``set-interval``: AO's TypeScript builds, ``setInterval`` from the first tick with an
in-progress guard: ticks are due on a grid from the first one; a tick that comes due
while one runs is dropped (``skip_overlapping_ticks``) or runs at once.

``go-ticker``: AO 0.10's daemon (``observe.StartPollLoop``): the first poll runs at
start, then a ``time.Ticker`` made when it returns fires every period. A ticker's channel
holds one tick: a poll that overruns is followed at once by the tick that came while it
ran, and the ticks after that one are dropped; the grid stays where the first poll put it.

Pure: times in, times out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol

__all__ = [
    "SCHEDULES",
    "GoTicker",
    "Schedule",
    "SetInterval",
    "Ticker",
    "make_schedule",
    "next_tick_after",
]

Ticker = Literal["set-interval", "go-ticker"]


class Schedule(Protocol):
    def after(self, started: float, ended: float) -> tuple[float, int]:
        """The next tick's start after one that started at ``started`` and ended at
        ``ended``, and how many ticks were dropped meanwhile."""
        ...


def next_tick_after(due: float, now: float, period: float, *, skip: bool) -> tuple[float, int]:
    """The next due time after a tick that was due at ``due`` ended at ``now``.

    With ``skip``, ticks that came due while it ran are dropped (returned count);
    without, the next one is due at once.
    """
    nxt = due + period
    if not skip or nxt > now:
        return nxt, 0
    missed = int((now - nxt) // period) + 1
    return nxt + missed * period, missed


class SetInterval:
    """``setInterval``: the grid runs from the first tick's start."""

    def __init__(self, period: float, *, skip: bool) -> None:
        self.period, self.skip = period, skip

    def after(self, started: float, ended: float) -> tuple[float, int]:
        return next_tick_after(started, ended, self.period, skip=self.skip)


class GoTicker:
    """Go's ``time.Ticker``, made when the first poll returned."""

    def __init__(self, period: float) -> None:
        self.period = period
        self._next: float | None = None  # the ticker's next firing

    def after(self, started: float, ended: float) -> tuple[float, int]:
        if self._next is None:  # the first poll: the ticker starts as it returns
            self._next = ended + self.period
            return self._next, 0
        while self._next <= started + _SAME_TIME:  # the firing this poll started on
            self._next += self.period
        if self._next > ended:
            return self._next, 0
        # it fired while the poll ran and waits in the channel; later firings were dropped
        dropped = int((ended - self._next) // self.period)
        self._next += (dropped + 1) * self.period
        return ended, dropped


# seconds within which two times are the same instant (sums of float periods drift)
_SAME_TIME = 1e-6

SCHEDULES: dict[Ticker, Callable[[float, bool], Schedule]] = {
    "set-interval": lambda period, skip: SetInterval(period, skip=skip),
    "go-ticker": lambda period, _skip: GoTicker(period),
}


def make_schedule(ticker: Ticker, period: float, *, skip: bool) -> Schedule:
    """The schedule of ``ticker`` ticking every ``period`` seconds (``skip``: what
    ``set-interval`` does with a tick that came due while one ran)."""
    return SCHEDULES[ticker](period, skip)
