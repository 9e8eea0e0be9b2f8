"""``ghbench ab``: two orchestrator builds measured alternately on one setup, A B A B ...

AO's own ``m2-ab-run.sh`` did this by hand (AO reference §6): smoke-test each build,
then alternate runs so that drift in the backend (its load, the hour's budget) falls on
both builds alike. Here it is the harness's own flows, on the ``Driver`` interface:

1. one backend for the whole run (real GitHub, or one emulator with durable state);
2. ``setup`` with build A's driver, into ``OUT`` (reused when it is still valid);
3. a smoke run of each build: a ``measure`` with no warmup and a short window that ends
   at the build's first traced call, into ``RUN/smoke/{a,b}``; a build whose trace
   stays empty is refused before any real run;
4. N ``measure`` runs each, alternating A, B, A, B, each validated against the setup
   first, into ``RUN/a`` and ``RUN/b`` (every run's trace, scorecard, summaries and plot
   kept), so ``ghbench compare RUN/a RUN/b`` compares them at any time.

``RUN`` is ``OUT/ab-{unix time}``, new for every invocation, so a second A/B on the same
setup never mixes its runs with the first's.

A run that ends early (Ctrl-C, or the orchestrator died) stops the sequence; what was
measured is kept and the error says where.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.artifacts.io import unique_path
from ghbench.clock import Clock
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.errors import ArtifactError, GhbenchError
from ghbench.github.backend import Backend
from ghbench.harness.factory import build_backend, build_driver
from ghbench.harness.flags import RunFlags
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import Progress
from ghbench.harness.setup import SetupOptions, run_setup, validate_setup
from ghbench.harness.setup_record import SetupRecord
from ghbench.harness.window import MeasureOptions, MeasureResult, WindowRecord
from ghbench.timefmt import format_duration

__all__ = ["AbOptions", "AbOutcome", "Build", "run_ab", "trace_rows"]


@dataclass(frozen=True)
class Build:
    """One side: ``label`` is ``a`` or ``b``; ``name`` is what the user sees."""

    label: str
    name: str
    flags: RunFlags


@dataclass(frozen=True)
class AbOptions:
    out_dir: Path
    sessions: int
    issues: tuple[int, ...]
    runs: int  # per build
    warmup: float
    duration: float
    warmup_text: str
    duration_text: str
    smoke: float = 60.0  # the smoke run's window, seconds
    poll_interval: float = 30.0  # setup's PR polling
    setup_timeout: float = 600.0


@dataclass
class AbOutcome:
    run_dir: Path  # OUT/ab-{stamp}: smoke/, a/, b/
    setup_path: Path
    setup_reused: bool
    smoke_traces: dict[str, Path] = field(default_factory=dict)
    runs: list[tuple[Build, MeasureResult]] = field(default_factory=list)


def trace_rows(path: Path) -> int:
    """Rows in a trace file (non-blank lines); 0 when it is missing or empty."""
    try:
        with path.open("rb") as fh:
            return sum(1 for line in fh if line.strip())
    except FileNotFoundError:
        return 0


@dataclass
class _Ab:
    project: Project
    builds: tuple[Build, Build]
    options: AbOptions
    clock: Clock
    progress: Callable[[], Progress]
    announce: Callable[[str], None]
    backend: Backend
    drivers: dict[str, Driver]
    setup: SetupRecord | None = None

    def measure(self, build: Build, options: MeasureOptions) -> MeasureResult:
        """One ``measure`` of ``build`` against the setup, re-validated first."""
        assert self.setup is not None
        driver = self.drivers[build.label]
        control = self.backend.control_client()
        try:
            problems = validate_setup(self.setup, driver, control)
        finally:
            control.close()
        if problems:
            raise ArtifactError(
                f"the setup went stale before build {build.label}'s run: {problems[0]};"
                f" re-run 'ghbench ab' (its setup is redone) or 'ghbench setup'"
            )
        result = run_measure(
            self.project,
            sessions=self.options.sessions,
            driver=driver,
            backend=self.backend,
            clock=self.clock,
            options=options,
            progress=self.progress(),
            setup=self.setup,
        )
        result.raise_for_outcome()
        return result


def _setup(ab: _Ab) -> tuple[Path, bool]:
    build = ab.builds[0]
    ab.announce(f"setup: {ab.options.sessions} sessions with build a ({build.name})")
    bar = ab.progress()
    try:
        outcome = run_setup(
            ab.project,
            list(ab.options.issues),
            sessions=ab.options.sessions,
            driver=ab.drivers["a"],
            backend=ab.backend,
            clock=ab.clock,
            options=SetupOptions(
                out_dir=ab.options.out_dir,
                poll_interval=ab.options.poll_interval,
                timeout=ab.options.setup_timeout,
            ),
            progress=bar,
        )
    finally:
        bar.close()
    if not outcome.record.ready:
        raise GhbenchError(
            f"setup timed out with {len(outcome.record.sessions)} of {ab.options.sessions}"
            f" sessions ready ({outcome.path}); raise --timeout or check build a's agents"
        )
    ab.setup = outcome.record
    return outcome.path, outcome.reused


def _first_call(record: WindowRecord) -> str | None:
    """The smoke's end: the build traced a call (a smoke proves it traces and polls)."""
    try:
        traced = record.trace_path.stat().st_size > 0
    except FileNotFoundError:
        return None
    return "the build traced its first call" if traced else None


def _smoke(ab: _Ab, build: Build, run_dir: Path) -> Path:
    seconds = ab.options.smoke
    ab.announce(
        f"smoke: build {build.label} ({build.name}), up to {format_duration(seconds)}"
        " until its first traced call"
    )
    options = MeasureOptions(
        out_dir=run_dir / "smoke" / build.label,
        warmup=0.0,
        duration=seconds,
        warmup_text="0s",
        duration_text=format_duration(seconds),
        plot=False,
        supplemental=False,
        end_when=_first_call,
    )
    result = ab.measure(build, options)
    if trace_rows(result.trace_path) == 0:
        raise GhbenchError(
            f"build {build.label} ({build.name}) traced no GitHub call in its"
            f" {format_duration(seconds)} smoke run ({result.trace_path} is empty): it does"
            " not write AO_GH_TRACE_FILE or does not poll; check its log, or give --smoke"
            " a longer window"
        )
    return result.trace_path


def run_ab(
    project: Project,
    builds: tuple[Build, Build],
    *,
    options: AbOptions,
    clock: Clock,
    progress: Callable[[], Progress],
    announce: Callable[[str], None],
) -> AbOutcome:
    """Set up once, smoke-test both builds, then alternate ``runs`` measurements each.

    Both builds share the backend (build A's ``github`` flag); AO builds share one
    private world under ``OUT/state/ao``, the workload model's builds get their own
    state under ``OUT/builds/{a,b}``; the setup artifact and the emulator's state are
    ``OUT``'s, as for ``setup`` and ``measure``.
    """
    out = options.out_dir
    backend = build_backend(builds[0].flags, out, clock)
    # AO builds share one private world (its clone and HOME hold the setup's worktrees
    # and sessions; each build writes its own storage layout there); the workload
    # model keeps per-build state
    drivers = {
        b.label: build_driver(
            b.flags, project, backend, out if b.flags.driver == "ao" else out / "builds" / b.label
        )
        for b in builds
    }
    for driver in drivers.values():
        driver.check_tools()
    ab = _Ab(project, builds, options, clock, progress, announce, backend, drivers)
    backend.start()
    try:
        setup_path, reused = _setup(ab)
        run_dir = unique_path(out, f"ab-{int(clock.now())}", "")
        outcome = AbOutcome(run_dir, setup_path, reused)
        for build in builds:
            outcome.smoke_traces[build.label] = _smoke(ab, build, run_dir)
        window = MeasureOptions(
            out_dir=run_dir,
            warmup=options.warmup,
            duration=options.duration,
            warmup_text=options.warmup_text,
            duration_text=options.duration_text,
        )
        total = options.runs * len(builds)
        for i in range(options.runs):
            for j, build in enumerate(builds):
                n = i * len(builds) + j + 1
                announce(f"run {n}/{total}: build {build.label} ({build.name})")
                per_build = dataclasses.replace(window, out_dir=run_dir / build.label)
                result = ab.measure(build, per_build)
                announce(f"  scorecard: {result.scorecard_path}")
                outcome.runs.append((build, result))
        return outcome
    finally:
        backend.stop()
