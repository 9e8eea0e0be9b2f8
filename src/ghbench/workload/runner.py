"""Runs the policy's calls: keeps time, calls the transport, writes one row per call.

The poller never reads a clock; it asks the runner. In real time (``gh`` and
``http`` transports) a call starts now and ends when gh returns. In virtual
time (``inprocess``) a call starts at the runner's cursor and lasts the latency
the emulator's model gives it; the shared virtual clock is moved forward to each
call's start so the emulator sees the right time. ``parallel`` runs lanes that
start together and finish with the slowest, as AO's ``Promise.all`` does; in
real time they run one after another (the model is then slower, never cheaper).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ghbench.clock import Clock, VirtualClock
from ghbench.trace.schema import TraceRow
from ghbench.workload.calls import GhCall, GhResult
from ghbench.workload.rows import RowOptions, row_for

__all__ = ["CallRunner", "RowSink", "Transport"]

RowSink = Callable[[TraceRow], None]


class Transport(Protocol):
    """Turns one gh invocation into gh's output."""

    def call(self, call: GhCall) -> GhResult: ...

    def close(self) -> None: ...


class CallRunner:
    """The poller's only way to the outside: time, calls and rows."""

    def __init__(
        self,
        transport: Transport,
        clock: Clock,
        sink: RowSink,
        options: RowOptions,
    ) -> None:
        self.transport = transport
        self.clock = clock
        self.sink = sink
        self.options = options
        self.virtual = isinstance(clock, VirtualClock)
        self._cursor = clock.now()
        self.calls_made = 0
        self._held: list[tuple[float, int, TraceRow]] | None = None

    def now(self) -> float:
        """The current time of the running lane."""
        return self._cursor if self.virtual else self.clock.now()

    def start_at(self, when: float) -> None:
        """Begin a new tick at ``when`` (virtual time moves the clock there)."""
        if self.virtual:
            assert isinstance(self.clock, VirtualClock)
            self._cursor = max(when, self._cursor)
            if self._cursor > self.clock.now():
                self.clock.set(self._cursor)

    def call(self, call: GhCall) -> GhResult:
        if self.virtual:
            assert isinstance(self.clock, VirtualClock)
            start = self._cursor
            if start > self.clock.now():
                self.clock.set(start)
            result = self.transport.call(call)
            end = start + result.duration_s
            self._cursor = end
        else:
            result = self.transport.call(call)
            end = self.clock.now()
        self.calls_made += 1
        row = row_for(call, result, completed_at=end, options=self.options)
        if self._held is None:
            self.sink(row)
        else:
            self._held.append((end, len(self._held), row))
        return result

    def parallel(self, lanes: Sequence[Callable[[], None]]) -> None:
        """Run ``lanes`` as if started together; time ends at the slowest lane."""
        if not self.virtual:
            for lane in lanes:
                lane()
            return
        start = self._cursor
        end = start
        outer, self._held = self._held, []
        try:
            for lane in lanes:
                self._cursor = start
                lane()
                end = max(end, self._cursor)
        finally:
            held, self._held = self._held, outer
            # AO writes a row when its call completes: emit in completion order
            for when, seq, row in sorted(held, key=lambda h: (h[0], h[1])):
                if self._held is None:
                    self.sink(row)
                else:
                    self._held.append((when, seq, row))
        self._cursor = end
