"""``measure``: one benchmark window against an existing setup (the spec's 14-step flow).

The window's rows come only from the orchestrator: the harness's own calls (the PR
validation before the orchestrator starts, and the two ``/rate_limit`` snapshots that
bracket the window) are direct HTTPS requests, never in the trace. The scorecard's
``benchmarkControlCalls`` counts the control calls made while the trace was being
recorded, which is the two snapshots; the validation calls are reported on stderr.

An interrupted run (Ctrl-C, SIGTERM, SIGHUP), an orchestrator that dies mid-run or a
snapshot that fails (the emulator cannot write its state) still gets a scorecard,
marked ``incomplete`` with the reason, computed from what was measured. The run also
watches its own health (``ghbench.scorecard.health``): how long each snapshot took,
the trace's disk, and the rows the drivers' tracers could not write.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ghbench.artifacts.models import SetupArtifact
from ghbench.clock import Clock
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.errors import ArtifactError, GhbenchError, interrupt_signal, signal_label
from ghbench.github.backend import Backend, explained
from ghbench.github.benchmark_client import BenchmarkClient
from ghbench.harness.factory import find_run_project, start_backend
from ghbench.harness.measure_outputs import write_outputs
from ghbench.harness.progress import Progress
from ghbench.harness.setup import validate_setup
from ghbench.harness.setup_artifact import require_ready_setup
from ghbench.harness.window import Measurement, MeasureResult, WindowPlan
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.runspec.spec import RunSpec
from ghbench.signals import uninterruptible
from ghbench.timefmt import format_duration

__all__ = ["measure_run", "measure_setup", "new_trace_path", "run_measure"]


# the trace's filesystem counts as full with less room than this (a row is under 1 KiB)
FULL_DISK_BYTES = 16 * 1024


class _OrchestratorDied(Exception):
    """The orchestrator exited on its own; the argument names the phase."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "run"


class _SnapshotFailed(Exception):
    """A window's ``/rate_limit`` snapshot failed: ``which`` (before, after) and why."""

    def __init__(self, which: str, error: GhbenchError) -> None:
        super().__init__(which, error)
        self.which, self.error = which, error


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
    """One measurement's collaborators and what it measured."""

    spec: RunSpec
    setup: SetupArtifact
    measured: Measurement
    driver: Driver
    backend: Backend
    client: BenchmarkClient
    clock: Clock
    plan: WindowPlan
    progress: Progress
    calls_at_start: int = 0


def run_measure(
    spec: RunSpec,
    setup: SetupArtifact,
    *,
    driver: Driver,
    backend: Backend,
    clock: Clock,
    progress: Progress,
    plan: WindowPlan | None = None,
    setup_path: Path | None = None,
    color: bool = False,
    announce: Callable[[str], None] | None = None,
) -> MeasureResult:
    """Measure one window of ``spec`` over ``setup``'s sessions, and write the scorecard
    and its companions under ``spec.out_dir``.

    ``setup_path``: the setup was read from this file, so its sessions are checked
    against the live state (worktrees, open PRs) first; without it the caller has done
    so (an A/B run) or made the setup itself (a matrix cell). An interrupted run or a
    dead orchestrator still returns (with everything written); the caller prints the
    console and then calls ``raise_for_outcome``.
    """
    plan = plan or WindowPlan()
    client = backend.benchmark_client()
    interrupted: int | None = None  # the signal, when one cut the run short
    try:
        with explained(backend):
            if setup_path is not None:
                _check_live(setup, setup_path, driver, client)
            validation_calls = client.calls
            stamp = int(clock.now())
            measured = Measurement(trace_path=new_trace_path(spec.out_dir, stamp), stamp=stamp)
            if announce is not None:
                announce(f"trace: {measured.trace_path}")
            run = _Run(spec, setup, measured, driver, backend, client, clock, plan, progress)
            try:
                _measure_window(run)
            except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP as StopSignal
                interrupted = interrupt_signal(exc)
                with uninterruptible(defer=False):  # a second signal is ignored while stopping
                    _finish_early(run, f"interrupted ({signal_label(interrupted)})")
            except _OrchestratorDied as died:
                with uninterruptible(defer=False):
                    code = driver.exit_code()
                    measured.orchestrator_exit = code
                    measured.orchestrator_died = True
                    _finish_early(run, f"the orchestrator exited (code {code}) during the {died}")
            except _SnapshotFailed as failed:
                with uninterruptible(defer=False):
                    measured.benchmark_failed = True
                    why = backend.explain(failed.error)
                    _finish_early(run, f"the {failed.which}-snapshot failed ({why})")
            except BaseException:
                with uninterruptible():
                    _stop(run)
                raise
            finally:
                progress.close()
    finally:
        client.close()
        with uninterruptible():
            driver.close()
    # the scorecard is written whatever arrives meanwhile; a first signal (the run was
    # complete) is delivered after it
    with uninterruptible(defer=interrupted is None):
        return write_outputs(
            spec,
            setup,
            measured,
            plan=plan,
            version=driver.version(),
            color=color,
            validation_calls=validation_calls,
            interrupted=interrupted,
        )


def measure_run(
    spec: RunSpec,
    plan: WindowPlan,
    *,
    clock: Clock,
    progress: Callable[[], Progress],
    color: bool,
    announce: Callable[[str], None],
    hold: Callable[[Path], None],
) -> MeasureResult:
    """``ghbench measure``: the project ``spec`` names and its ready setup artifact
    found (refused before anything starts when missing or partial), ``hold`` given
    ``spec.out_dir``, then ``measure_setup``."""
    project = find_run_project(spec)
    setup_path, setup = require_ready_setup(project, spec.cell.sessions, spec.out_dir)
    hold(spec.out_dir)
    return measure_setup(
        spec,
        project,
        setup_path,
        setup,
        plan=plan,
        clock=clock,
        progress=progress,
        color=color,
        announce=announce,
    )


def measure_setup(
    spec: RunSpec,
    project: Project,
    setup_path: Path,
    setup: SetupArtifact,
    *,
    plan: WindowPlan,
    clock: Clock,
    progress: Callable[[], Progress],
    color: bool,
    announce: Callable[[str], None],
) -> MeasureResult:
    """``run_measure`` of the setup read from ``setup_path`` on the backend and driver
    ``spec`` names, started for it (``start_backend``); the backend stops at the end,
    whatever happens."""
    backend, driver = start_backend(spec, project, clock, setup=setup_path)
    try:
        return run_measure(
            spec,
            setup,
            setup_path=setup_path,
            plan=plan,
            driver=driver,
            backend=backend,
            clock=clock,
            progress=progress(),
            color=color,
            announce=announce,
        )
    finally:
        backend.stop()


def _check_live(setup: SetupArtifact, path: Path, driver: Driver, client: BenchmarkClient) -> None:
    problems = validate_setup(setup, driver, client)
    if problems:
        listed = "; ".join(problems[:10]) + ("; ..." if len(problems) > 10 else "")
        raise ArtifactError(f"{path}: the setup is stale: {listed}; re-run 'ghbench setup'")


def _snapshot(run: _Run, which: str) -> RateLimitSnapshot:
    """A ``/rate_limit`` snapshot at a window's edge (now), and how long it took."""
    asked = run.clock.now()
    try:
        snapshot = run.client.rate_limit()
    except GhbenchError as exc:
        raise _SnapshotFailed(which, exc) from exc
    run.measured.snapshot_delays[which] = run.clock.now() - asked
    return snapshot


def _open_window(run: _Run) -> None:
    """The window starts: the benchmark's call count and the before-snapshot."""
    run.calls_at_start = run.client.calls
    run.measured.start = run.clock.now()
    run.measured.before = _snapshot(run, "before")


def _watch_disk(measured: Measurement, now: float, progress: Progress) -> None:
    """Note when the trace's filesystem is full (and say so the first time, as it
    happens): a tracer that does not count its lost rows (AO's) loses them unseen."""
    try:
        fs = os.statvfs(measured.trace_path.parent)
    except OSError:
        return
    # root may write into the blocks a filesystem keeps back from other users
    free = fs.f_bfree if os.geteuid() == 0 else fs.f_bavail
    if free * fs.f_frsize < FULL_DISK_BYTES:
        if not measured.full_disk:
            progress.note(
                f"warning: the filesystem of {measured.trace_path.parent} is full: rows"
                " written now are lost; free space there"
            )
        measured.full_disk.append(now)


def _measure_window(run: _Run) -> None:
    measured, driver, clock = run.measured, run.driver, run.clock
    driver.prepare_measure(run.setup.sessions)
    warmup = run.spec.warmup.seconds
    if warmup == 0:
        # no warmup: the window opens before the orchestrator starts, so the calls it
        # makes as it starts (AO 0.10 polls at once) are in the window and the bracket
        _open_window(run)
        measured.warmup_end = measured.start
    run.progress.note(f"starting the {driver.name} orchestrator, tracing to {measured.trace_path}")
    driver.start(measured.sink, run.backend.orchestrator_env())
    if warmup > 0:
        _wait(warmup, clock=clock, driver=driver, progress=run.progress, phase="warmup")
        measured.warmup_end = clock.now()
        _open_window(run)
    _window(run)
    measured.end = clock.now()
    measured.after = _snapshot(run, "after")
    measured.control_calls_in_window = run.client.calls - run.calls_at_start
    _stop(run)


def _window(run: _Run) -> None:
    """Wait out the window, running each trigger at its offset, unless ``end_when``
    ends it first."""
    duration, clock, measured = run.spec.duration.seconds, run.clock, run.measured
    test = run.plan.end_when

    def end_when() -> str | None:
        _watch_disk(measured, clock.now(), run.progress)
        return None if test is None else test(measured)

    start = clock.now() if measured.start is None else measured.start
    marks = [(t.at_s, t) for t in sorted(run.plan.triggers, key=lambda t: t.at_s)]
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
            measured.events.append(f"window ended at +{clock.now() - start:.1f}s: {reason}")
            return
        if trigger is not None:
            run.progress.note(f"trigger: {trigger.label}")
            measured.events.append(f"{trigger.label} at +{clock.now() - start:.1f}s")
            trigger.action(measured)


def _stop(run: _Run) -> None:
    grace = run.plan.stop_grace
    result = run.driver.stop(grace)
    if result.killed:
        run.measured.events.append(
            f"the orchestrator did not exit within {grace:g} s of SIGTERM; it was killed"
        )
    run.measured.record_tracing(run.driver.finish_measure())


def _finish_early(run: _Run, why: str) -> None:
    """Close the window where it stands and keep what was measured."""
    measured = run.measured
    now = run.clock.now()
    if measured.start is None:
        measured.start = measured.end = now
        measured.control_calls_in_window = 0
        reason = f"{why} before the measurement window started"
    else:
        if measured.end is None:
            measured.end = now
            so_far = format_duration(measured.end - measured.start)
            reason = f"{why} after {so_far} of {format_duration(run.spec.duration.seconds)}"
        else:  # the window had run its length
            reason = f"{why} at the window's end"
        if measured.after is None and not measured.benchmark_failed:
            try:
                measured.after = run.client.rate_limit()
            except GhbenchError as exc:
                measured.events.append(f"no after-snapshot: {exc}")
        measured.control_calls_in_window = run.client.calls - run.calls_at_start
    measured.incomplete_reason = reason
    _stop(run)
