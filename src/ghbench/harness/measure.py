"""``measure``: one benchmark window against an existing setup (the spec's 14-step flow).

The window's rows come only from the orchestrator: the harness's own calls (the PR
validation before the orchestrator starts, and the two ``/rate_limit`` snapshots that
bracket the window) are direct HTTPS requests, never in the trace. The scorecard's
``benchmarkControlCalls`` counts the control calls made while the trace was being
recorded, which is the two snapshots; the validation calls are reported on stderr.

An interrupted run (Ctrl-C, SIGTERM, SIGHUP) or an orchestrator that dies mid-run
still gets a scorecard, marked ``incomplete`` with the reason, computed from what
was measured.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ghbench.clock import Clock
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.errors import ArtifactError, GhbenchError, interrupt_signal, signal_label
from ghbench.github.backend import Backend, explained
from ghbench.github.control import ControlClient
from ghbench.harness.measure_outputs import write_outputs
from ghbench.harness.progress import Progress
from ghbench.harness.setup import validate_setup
from ghbench.harness.setup_record import SetupRecord, require_ready_setup
from ghbench.harness.window import MeasureOptions, MeasureResult, WindowRecord
from ghbench.signals import uninterruptible
from ghbench.timefmt import format_duration

__all__ = ["load_validated_setup", "new_trace_path", "run_measure"]


class _OrchestratorDied(Exception):
    """The orchestrator exited on its own; the argument names the phase."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "run"


def new_trace_path(out_dir: Path, stamp: int) -> Path:
    """Create ``gh-trace-bench-{stamp}.jsonl`` empty and exclusively: never reuse a trace.

    The path is absolute: the orchestrator gets it in ``AO_GH_TRACE_FILE`` and runs in
    its own working directory, where a relative ``--out`` would name another file.
    """
    out_dir = out_dir.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    n = 0
    while True:
        name = f"gh-trace-bench-{stamp}.jsonl" if n == 0 else f"gh-trace-bench-{stamp}-{n}.jsonl"
        path = out_dir / name
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            n += 1
            continue
        os.close(fd)
        return path


def load_validated_setup(
    project: Project, sessions: int, out_dir: Path, driver: Driver, control: ControlClient
) -> tuple[Path, SetupRecord]:
    path, record = require_ready_setup(project, sessions, out_dir)
    problems = validate_setup(record, driver, control)
    if problems:
        listed = "; ".join(problems[:10]) + ("; ..." if len(problems) > 10 else "")
        raise ArtifactError(f"{path}: the setup is stale: {listed}; re-run 'ghbench setup'")
    return path, record


def _wait(
    seconds: float,
    *,
    clock: Clock,
    driver: Driver,
    progress: Progress,
    phase: str,
    end_when: Callable[[], str | None] | None = None,
) -> str | None:
    """Sleep in steps of at most 1 s, watching the orchestrator; ``end_when``'s reason,
    when it gives one, ends the wait early and is returned."""
    progress.phase(phase, seconds)
    start = clock.now()
    while True:
        elapsed = clock.now() - start
        progress.tick(elapsed)
        if not driver.alive():
            raise _OrchestratorDied(phase)
        reason = None if end_when is None else end_when()
        if reason is not None:
            return reason
        left = seconds - elapsed
        if left <= 0:
            return None
        clock.sleep(min(1.0, left))


@dataclass
class _Run:
    """One measurement's collaborators and what it recorded."""

    setup: SetupRecord
    record: WindowRecord
    driver: Driver
    backend: Backend
    control: ControlClient
    clock: Clock
    options: MeasureOptions
    progress: Progress
    calls_at_start: int = 0


def run_measure(
    project: Project,
    *,
    sessions: int,
    driver: Driver,
    backend: Backend,
    clock: Clock,
    options: MeasureOptions,
    progress: Progress,
    color: bool = False,
    announce: Callable[[str], None] | None = None,
    setup: SetupRecord | None = None,
) -> MeasureResult:
    """Validate, measure one window, and write the scorecard and its companions.

    An interrupted run or a dead orchestrator still returns (with everything
    written); the caller prints the console and then calls ``raise_for_outcome``.
    ``setup``, when given, is a record the caller has already validated (the
    matrix's multi-repo setups); it is then not read from ``options.out_dir``.
    """
    driver.check_tools()
    control = backend.control_client()
    interrupted: int | None = None  # the signal, when one cut the run short
    try:
        with explained(backend):
            if setup is None:
                _, setup = load_validated_setup(project, sessions, options.out_dir, driver, control)
            validation_calls = control.calls
            stamp = int(clock.now())
            record = WindowRecord(trace_path=new_trace_path(options.out_dir, stamp), stamp=stamp)
            if announce is not None:
                announce(f"trace: {record.trace_path}")
            run = _Run(setup, record, driver, backend, control, clock, options, progress)
            try:
                _measure_window(run)
            except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP as StopSignal
                interrupted = interrupt_signal(exc)
                with uninterruptible(defer=False):  # a second signal is ignored while stopping
                    _finish_early(run, f"interrupted ({signal_label(interrupted)})")
            except _OrchestratorDied as died:
                with uninterruptible(defer=False):
                    code = driver.exit_code()
                    record.orchestrator_exit = code
                    record.orchestrator_died = True
                    _finish_early(run, f"the orchestrator exited (code {code}) during the {died}")
            except BaseException:
                with uninterruptible():
                    _stop(run)
                raise
            finally:
                progress.close()
    finally:
        control.close()
        with uninterruptible():
            driver.close()
    # the scorecard is written whatever arrives meanwhile; a first signal (the run was
    # complete) is delivered after it
    with uninterruptible(defer=interrupted is None):
        return write_outputs(
            setup,
            record,
            sessions=sessions,
            version=driver.version(),
            options=options,
            color=color,
            validation_calls=validation_calls,
            interrupted=interrupted,
        )


def _measure_window(run: _Run) -> None:
    record, driver, clock = run.record, run.driver, run.clock
    driver.prepare_measure(run.setup.sessions, run.setup.repo)
    run.progress.note(f"starting the {driver.name} orchestrator, tracing to {record.trace_path}")
    driver.start(record.trace_path, run.backend.orchestrator_env())
    _wait(run.options.warmup, clock=clock, driver=driver, progress=run.progress, phase="warmup")
    record.warmup_end = clock.now()
    run.calls_at_start = run.control.calls
    record.start = clock.now()
    record.before = run.control.rate_limit()
    _window(run)
    record.end = clock.now()
    record.after = run.control.rate_limit()
    record.control_calls_in_window = run.control.calls - run.calls_at_start
    _stop(run)


def _window(run: _Run) -> None:
    """Wait out the window, running each trigger at its offset, unless ``end_when``
    ends it first."""
    duration, clock, record = run.options.duration, run.clock, run.record
    test = run.options.end_when
    end_when = None if test is None else functools.partial(test, record)
    start = clock.now()
    marks = [(t.at_s, t) for t in sorted(run.options.triggers, key=lambda t: t.at_s)]
    for at_s, trigger in [*marks, (duration, None)]:
        left = min(max(at_s, 0.0), duration) - (clock.now() - start)
        reason = None
        if left > 0:
            reason = _wait(
                left,
                clock=clock,
                driver=run.driver,
                progress=run.progress,
                phase="window",
                end_when=end_when,
            )
        if reason is not None:
            run.progress.note(f"window ended early: {reason}")
            record.events.append(f"window ended at +{clock.now() - start:.1f}s: {reason}")
            return
        if trigger is not None:
            run.progress.note(f"trigger: {trigger.label}")
            record.events.append(f"{trigger.label} at +{clock.now() - start:.1f}s")
            trigger.action(record)


def _stop(run: _Run) -> None:
    grace = run.options.stop_grace
    result = run.driver.stop(grace)
    if result.killed:
        run.record.events.append(
            f"the orchestrator did not exit within {grace:g} s of SIGTERM; it was killed"
        )
    run.driver.finish_measure()


def _finish_early(run: _Run, why: str) -> None:
    """Close the window where it stands and keep what was measured."""
    record = run.record
    now = run.clock.now()
    if record.start is None:
        record.start = record.end = now
        record.control_calls_in_window = 0
        reason = f"{why} before the measurement window started"
    else:
        if record.end is None:
            record.end = now
        measured = format_duration(record.end - record.start)
        reason = f"{why} after {measured} of {format_duration(run.options.duration)}"
        if record.after is None:
            try:
                record.after = run.control.rate_limit()
            except GhbenchError as exc:
                record.events.append(f"no after-snapshot: {exc}")
        record.control_calls_in_window = run.control.calls - run.calls_at_start
    record.incomplete_reason = reason
    _stop(run)
