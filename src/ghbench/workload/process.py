"""``ghbench workload run``: the model in real time, as a process AO's place.

Ticks every ``policy.tick`` seconds from an immediate first run, on the timer of the
AO it plays (``ghbench.workload.schedule``: AO's ``setInterval`` with its in-progress
guard, or AO 0.10's Go ticker). A stop request (SIGTERM) lets the call in flight finish,
abandons the rest of the tick, flushes the trace and returns.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ghbench.clock import Clock
from ghbench.errors import TraceError
from ghbench.trace.losses import LossReporter
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceWriter
from ghbench.workload.calls import GhCall, GhResult
from ghbench.workload.config import WorkloadConfig
from ghbench.workload.pollers import make_poller
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import CallRunner, Transport
from ghbench.workload.schedule import make_schedule

__all__ = ["RunSummary", "Stopped", "row_settings", "run_workload"]


class Stopped(Exception):
    """Raised inside a tick when a stop was requested between two calls."""


@dataclass(frozen=True)
class RunSummary:
    ticks: int
    skipped_ticks: int
    calls: int


def row_settings(cfg: WorkloadConfig, secrets: tuple[str, ...] = ()) -> RowSettings:
    return RowSettings(
        session_ids=cfg.trace.session_ids,
        project_id=cfg.project,
        origin=cfg.trace.origin,
        secrets=secrets,
    )


class _StoppableTransport:
    """Refuses to start a call once a stop was requested."""

    def __init__(self, inner: Transport, stop: threading.Event) -> None:
        self.inner = inner
        self.stop = stop

    def call(self, call: GhCall) -> GhResult:
        if self.stop.is_set():
            raise Stopped
        return self.inner.call(call)

    def close(self) -> None:
        self.inner.close()


def run_workload(
    cfg: WorkloadConfig,
    transport: Transport,
    sink: Callable[[TraceRow], None],
    *,
    clock: Clock,
    stop: threading.Event,
    max_ticks: int | None = None,
    secrets: tuple[str, ...] = (),
) -> RunSummary:
    """Poll until ``stop`` is set (or ``max_ticks`` ran); rows go to ``sink``."""
    guarded = _StoppableTransport(transport, stop)
    runner = CallRunner(guarded, clock, sink, row_settings(cfg, secrets))
    poller = make_poller(cfg.policy, runner, repos=cfg.all_repos, sessions=cfg.sessions)
    policy = cfg.policy
    schedule = make_schedule(policy.ticker, policy.tick, skip=policy.skip_overlapping_ticks)
    due = clock.now()
    ticks = skipped = 0
    while not stop.is_set() and (max_ticks is None or ticks < max_ticks):
        wait = due - clock.now()
        if wait > 0:
            stop.wait(wait)
            continue
        try:
            poller.tick()
        except Stopped:
            break
        ticks += 1
        due, missed = schedule.after(due, clock.now())
        skipped += missed
    return RunSummary(ticks=ticks, skipped_ticks=skipped, calls=runner.calls_made)


def open_trace_sink(
    path: Path, secrets: tuple[str, ...] = (), reporter: LossReporter | None = None
) -> tuple[Callable[[TraceRow], None], TraceWriter]:
    """Append rows to ``path`` (``O_APPEND``, one write per row); returns the poller's
    sink and the writer (``close`` it; ``loss()``: the rows it could not write).

    A trace that cannot be opened is an error up front; a row that cannot be written
    later never raises into the poller: the writer counts it, and ``reporter`` (the
    parent's pipe, when it gave one) is told the running loss.
    """
    writer = TraceWriter(path, secrets=secrets)
    if writer.failed:
        raise TraceError(f"cannot open the trace file {path} ($AO_GH_TRACE_FILE): {writer.error}")

    def write(row: TraceRow) -> None:
        if not writer.write(row) and reporter is not None:
            loss = writer.loss()
            if loss is not None:
                reporter.report(loss)

    return write, writer
