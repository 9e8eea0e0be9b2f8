"""``ghbench workload run``: the model in real time, as a process AO's place.

Ticks every ``policy.tick`` seconds from an immediate first run, on the timer of the
AO it plays (``ghbench.workload.schedule``: AO's ``setInterval`` with its in-progress
guard, or AO 0.10's Go ticker). A stop request (SIGTERM, SIGHUP or Ctrl-C) lets the call
in flight finish, abandons the rest of the tick, flushes the trace and returns.

``traced_process`` is what the model and a coding agent (``workload agent``) share as
processes: rows to ``$AO_GH_TRACE_FILE`` (AO's variable), each lost row told to the
parent that asked (``GHBENCH_TRACE_LOSS_FD``: ``ghbench.trace.losses``), stop signals.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from ghbench.clock import Clock
from ghbench.errors import GhbenchError, TraceError, UsageError
from ghbench.signals import handling
from ghbench.trace.losses import LossReporter
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceWriter
from ghbench.workload.calls import GhCall, GhResult
from ghbench.workload.config import WorkloadConfig, load_workload_config
from ghbench.workload.pollers import make_poller
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import CallRunner, Transport
from ghbench.workload.schedule import make_schedule
from ghbench.workload.transport import make_transport

__all__ = [
    "TRACE_ENV",
    "ProcessOutcome",
    "RunSummary",
    "Stopped",
    "TracedProcess",
    "model_process",
    "row_settings",
    "run_workload",
    "trace_file",
    "traced_process",
]

TRACE_ENV = "AO_GH_TRACE_FILE"
# a stop request: the call in flight finishes, then the process ends
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


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


def trace_file(env: Mapping[str, str]) -> Path:
    """The trace ``$AO_GH_TRACE_FILE`` names; UsageError when it names none."""
    trace = env.get(TRACE_ENV)
    if not trace:
        raise UsageError(f"{TRACE_ENV} is not set; set it to the trace file the rows go to")
    return Path(trace)


@dataclass(frozen=True)
class TracedProcess:
    """A process's sink for its rows, its writer, and the event a stop signal sets."""

    write: Callable[[TraceRow], None]
    writer: TraceWriter
    stop: threading.Event


@contextmanager
def traced_process(
    path: Path, env: Mapping[str, str], secrets: tuple[str, ...]
) -> Iterator[TracedProcess]:
    """Rows to ``path`` until the block ends; SIGTERM, SIGHUP and Ctrl-C set ``stop``
    (their handlers are restored, the trace flushed and closed, at the end)."""
    stop = threading.Event()

    def on_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    reporter = LossReporter.from_env(env)
    write, writer = open_trace_sink(path, secrets, reporter)
    with handling(STOP_SIGNALS, on_stop):
        try:
            yield TracedProcess(write, writer, stop)
        finally:
            writer.close()
            if reporter is not None:
                reporter.close()


@dataclass(frozen=True)
class ProcessOutcome:
    """What a traced process says when it ends, and the rows it lost (an error)."""

    line: str
    lost: str | None = None

    @classmethod
    def of(cls, line: str, writer: TraceWriter, total: int) -> ProcessOutcome:
        loss = writer.loss()
        if loss is None:
            return cls(line)
        return cls(
            line,
            f"{loss.rows} of {total} trace rows could not be written to {loss.trace}"
            f" ({loss.reason})",
        )

    def raise_for_loss(self) -> None:
        if self.lost is not None:
            raise GhbenchError(self.lost)


def model_process(
    config_path: Path, env: Mapping[str, str], *, clock: Clock, max_ticks: int | None = None
) -> ProcessOutcome:
    """``ghbench workload run``: the config's model in real time until a stop signal
    (or ``max_ticks``), its rows to ``$AO_GH_TRACE_FILE``."""
    path = trace_file(env)
    cfg = load_workload_config(config_path)
    transport = make_transport(cfg, env)
    token = env.get(cfg.token_env, "")
    secrets = (token,) if token else ()
    with traced_process(path, env, secrets) as process:
        try:
            summary = run_workload(
                cfg,
                transport,
                process.write,
                clock=clock,
                stop=process.stop,
                max_ticks=max_ticks,
                secrets=secrets,
            )
        finally:
            transport.close()
    line = (
        f"workload: {summary.ticks} ticks, {summary.calls} calls, "
        f"{summary.skipped_ticks} ticks skipped (overlap)"
    )
    return ProcessOutcome.of(line, process.writer, summary.calls)
