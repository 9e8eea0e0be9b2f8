"""Runs the policy's calls: keeps time, calls the transport, writes one row per call.

The poller never reads a clock; it asks the runner. In real time (``gh`` and
``http`` transports) a call starts now and ends when gh returns. In virtual
time (``inprocess``) a call starts at the runner's cursor and lasts the latency
the emulator's model gives it; the shared virtual clock is moved forward to each
call's start so the emulator sees the right time. ``parallel`` runs lanes that
start together and finish with the slowest, as AO's ``Promise.all`` does; in
real time they run one after another (the model is then slower, never cheaper).
Rows are written when calls complete; in virtual time a lane's call may complete
after a later-started one, so the simulation sorts its rows by time at the end.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Generator, Sequence
from typing import Protocol

from ghbench.clock import Clock, VirtualClock
from ghbench.trace.schema import TraceRow
from ghbench.workload.calls import GhCall, GhResult
from ghbench.workload.rows import RowBuilder, RowSettings

__all__ = ["CallRunner", "Lane", "LaneClock", "RowSink", "Transport"]

RowSink = Callable[[TraceRow], None]
# One lane of a parallel phase: yields the calls it makes, one at a time, and gets
# each call's result back (``result = yield call``).
Lane = Generator[GhCall, GhResult, None]


class Transport(Protocol):
    """Turns one gh invocation into gh's output."""

    def call(self, call: GhCall) -> GhResult: ...

    def close(self) -> None: ...


class LaneClock(VirtualClock):
    """A virtual clock the runner may move back to the start of a parallel lane.

    Lanes that run "at the same time" are executed one after another; each must
    see the emulator at the lane's own start, and the emulator advances this clock
    by each call's latency. Only the simulation's runner moves it back.
    """

    def jump(self, when: float) -> None:
        with self._lock:  # VirtualClock's own lock and time, reused on purpose
            self._now = float(when)


class CallRunner:
    """The poller's only way to the outside: time, calls and rows."""

    def __init__(
        self,
        transport: Transport,
        clock: Clock,
        sink: RowSink,
        options: RowSettings,
    ) -> None:
        self.transport = transport
        self.clock = clock
        self.sink = sink
        self.options = options
        self.rows = RowBuilder(options)
        self.virtual = isinstance(clock, VirtualClock)
        self._cursor = clock.now()
        self.calls_made = 0

    def now(self) -> float:
        """The current time of the running lane."""
        return self._cursor if self.virtual else self.clock.now()

    def start_at(self, when: float) -> None:
        """Begin a new tick at ``when`` (virtual time moves the clock there)."""
        if self.virtual:
            self._cursor = max(when, self._cursor)
            self._move_clock(self._cursor)

    def _move_clock(self, when: float) -> None:
        if isinstance(self.clock, LaneClock):
            self.clock.jump(when)
        elif isinstance(self.clock, VirtualClock) and when > self.clock.now():
            self.clock.set(when)

    def call(self, call: GhCall) -> GhResult:
        if self.virtual:
            start = self._cursor
            self._move_clock(start)
            result = self.transport.call(call)
            end = start + result.duration_s
            self._cursor = end
            self._move_clock(end)
        else:
            result = self.transport.call(call)
            end = self.clock.now()
        self.calls_made += 1
        self.sink(self.rows.row(call, result, end))
        return result

    def parallel(self, lanes: Sequence[Callable[[], Lane]]) -> None:
        """Run ``lanes`` as if started together; time ends at the slowest lane.

        In virtual time the next call to run is always the one that starts first,
        across lanes, so the emulator sees (and charges) calls in time order, as
        GitHub would see AO's concurrent requests. In real time lanes run one by one.
        """
        if not self.virtual:
            for lane in lanes:
                self._drive(lane())
            return
        start = self._cursor
        end = start
        ready: list[tuple[float, int, Lane, GhCall]] = []
        for i, lane in enumerate(lanes):
            gen = lane()
            try:
                ready.append((start, i, gen, next(gen)))
            except StopIteration:
                continue
        heapq.heapify(ready)
        while ready:
            when, i, gen, call = heapq.heappop(ready)
            self._cursor = when
            result = self.call(call)
            try:
                heapq.heappush(ready, (self._cursor, i, gen, gen.send(result)))
            except StopIteration:
                end = max(end, self._cursor)
        self._cursor = end
        self._move_clock(end)

    def _drive(self, gen: Lane) -> None:
        try:
            call = next(gen)
            while True:
                call = gen.send(self.call(call))
        except StopIteration:
            return
