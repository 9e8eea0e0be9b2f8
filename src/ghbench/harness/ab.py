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

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ghbench.analysis.compare import Run
from ghbench.analysis.compare_render import ComparisonReport, comparison_report
from ghbench.analysis.thresholds import Threshold
from ghbench.artifacts.io import unique_path, write_new
from ghbench.artifacts.models import SetupArtifact
from ghbench.clock import Clock
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.drivers.registry import build_driver, driver_kind
from ghbench.errors import ArtifactError, GhbenchError, UsageError
from ghbench.github.backend import Backend
from ghbench.harness.factory import build_backend
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import Progress
from ghbench.harness.setup import run_setup, validate_setup
from ghbench.harness.window import Measurement, MeasureResult, WindowPlan
from ghbench.runspec.flags import flag_for, takes
from ghbench.runspec.names import AoLayoutName
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.timefmt import format_duration
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = [
    "AbOutcome",
    "Build",
    "BuildChoice",
    "ab_builds",
    "compare_builds",
    "run_ab",
    "trace_rows",
]


@dataclass(frozen=True)
class Build:
    """One side: ``label`` is ``a`` or ``b``; ``name`` is what the user sees; ``spec``
    the run as this build makes it (the two differ only in the orchestrator)."""

    label: str
    name: str
    spec: RunSpec


@dataclass(frozen=True)
class BuildChoice:
    """What the flags say a build is: an AO (``--a-ao``, its layout) or a profile of the
    model (``--a-profile``)."""

    ao: str | None = None
    layout: AoLayoutName | None = None  # None: RunSpec's (auto)
    profile: ProfileName | None = None


def ab_builds(
    spec: RunSpec, choices: Mapping[str, BuildChoice], env: Mapping[str, str]
) -> tuple[Build, Build]:
    """Build A and build B: ``spec`` with each one's AO or model profile, as the flag
    table says the driver takes them (``--driver ao``: an AO each; ``workload``: a
    profile each). Both must run on one setup."""
    builds = []
    # the flag that names a build: the one of --ao and --profile the driver takes
    naming = next(d for d in ("ao_command", "profile") if takes(d, spec.driver, spec.backend))
    for label in ("a", "b"):
        choice = choices[label]
        given = {"ao_command": choice.ao, "profile": choice.profile, "ao_layout": choice.layout}
        for dest, value in given.items():
            row = flag_for(dest)
            if value is not None and not row.taken(spec.driver, spec.backend):
                raise UsageError(
                    f"--{label}-{row.name[2:]} applies only with {row.needs()}; drop it"
                )
        wanted = given[naming]
        if wanted is None:
            flag = flag_for(naming).name[2:]
            raise UsageError(
                f"--driver {spec.driver} needs --{label}-{flag} (build {label.upper()})"
            )
        build = msgspec.structs.replace(
            spec,
            ao_command=choice.ao,
            ao_layout=choice.layout or spec.ao_layout,
            profile=choice.profile or DEFAULT_PROFILE,
        )
        builds.append(Build(label, Path(wanted).name or wanted, build))
    a, b = (driver_kind(build.spec, env) for build in builds)
    if a.name != b.name:
        raise UsageError(
            f"build A runs as {a.name} and build B as {b.name}: one setup cannot serve both"
            " (AO's daemon keeps its sessions in its own database); measure each with"
            " 'ghbench setup' and 'ghbench measure' in its own --out, then 'ghbench compare'"
        )
    return builds[0], builds[1]


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
    clock: Clock
    progress: Callable[[], Progress]
    announce: Callable[[str], None]
    backend: Backend
    drivers: dict[str, Driver]
    setup: SetupArtifact | None = None

    def measure(self, build: Build, spec: RunSpec, plan: WindowPlan | None = None) -> MeasureResult:
        """One ``measure`` of ``build`` (as ``spec`` times it) against the setup,
        re-validated first."""
        assert self.setup is not None
        driver = self.drivers[build.label]
        client = self.backend.benchmark_client()
        try:
            problems = validate_setup(self.setup, driver, client)
        finally:
            client.close()
        if problems:
            raise ArtifactError(
                f"the setup went stale before build {build.label}'s run: {problems[0]};"
                f" re-run 'ghbench ab' (its setup is redone) or 'ghbench setup'"
            )
        result = run_measure(
            spec,
            self.setup,
            driver=driver,
            backend=self.backend,
            clock=self.clock,
            plan=plan,
            progress=self.progress(),
        )
        result.raise_for_outcome()
        return result


def _setup(ab: _Ab) -> tuple[Path, bool]:
    build = ab.builds[0]
    sessions = build.spec.cell.sessions
    ab.announce(f"setup: {sessions} sessions with build a ({build.name})")
    bar = ab.progress()
    try:
        outcome = run_setup(
            build.spec,
            ab.project,
            driver=ab.drivers["a"],
            backend=ab.backend,
            clock=ab.clock,
            progress=bar,
        )
    finally:
        bar.close()
    if not outcome.setup.ready:
        raise GhbenchError(
            f"setup timed out with {len(outcome.setup.sessions)} of {sessions}"
            f" sessions ready ({outcome.path}); raise --timeout or check build a's agents"
        )
    ab.setup = outcome.setup
    return outcome.path, outcome.reused


def _first_call(measured: Measurement) -> str | None:
    """The smoke's end: the build traced a call (a smoke proves it traces and polls)."""
    try:
        traced = measured.trace_path.stat().st_size > 0
    except FileNotFoundError:
        return None
    return "the build traced its first call" if traced else None


def _smoke(ab: _Ab, build: Build, run_dir: Path, smoke: Duration) -> Path:
    seconds = smoke.seconds
    ab.announce(
        f"smoke: build {build.label} ({build.name}), up to {format_duration(seconds)}"
        " until its first traced call"
    )
    spec = msgspec.structs.replace(
        build.spec,
        out_dir=run_dir / "smoke" / build.label,
        warmup=Duration(0.0, "0s"),
        duration=Duration.of(seconds),
    )
    plan = WindowPlan(plot=False, supplemental=False, end_when=_first_call)
    result = ab.measure(build, spec, plan)
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
    runs: int,
    smoke: Duration,
    clock: Clock,
    progress: Callable[[], Progress],
    announce: Callable[[str], None],
) -> AbOutcome:
    """Set up once, smoke-test both builds (each window at most ``smoke``), then
    alternate ``runs`` measurements each.

    Both builds share the backend (build A's spec's GitHub); AO builds share one
    private world under ``OUT/state/ao``, the workload model's builds get their own
    state under ``OUT/builds/{a,b}``; the setup artifact and the emulator's state are
    ``OUT``'s, as for ``setup`` and ``measure``.
    """
    out = builds[0].spec.out_dir
    env = dict(os.environ)
    backend = build_backend(builds[0].spec, clock, env)
    # AO builds share one private world (its clone and HOME hold the setup's worktrees
    # and sessions; each build writes its own storage layout there); the workload
    # model keeps per-build state
    drivers = {
        b.label: build_driver(
            b.spec,
            [project],
            backend=backend,
            out_dir=out if b.spec.driver == "ao" else out / "builds" / b.label,
            env=env,
        )
        for b in builds
    }
    for driver in drivers.values():
        driver.check_tools()
    ab = _Ab(project, builds, clock, progress, announce, backend, drivers)
    backend.start()
    try:
        setup_path, reused = _setup(ab)
        run_dir = unique_path(out, f"ab-{int(clock.now())}", "")
        outcome = AbOutcome(run_dir, setup_path, reused)
        for build in builds:
            outcome.smoke_traces[build.label] = _smoke(ab, build, run_dir, smoke)
        total = runs * len(builds)
        for i in range(runs):
            for j, build in enumerate(builds):
                n = i * len(builds) + j + 1
                announce(f"run {n}/{total}: build {build.label} ({build.name})")
                per_build = msgspec.structs.replace(build.spec, out_dir=run_dir / build.label)
                result = ab.measure(build, per_build)
                announce(f"  scorecard: {result.scorecard_path}")
                outcome.runs.append((build, result))
        return outcome
    finally:
        backend.stop()


def compare_builds(
    outcome: AbOutcome, thresholds: Sequence[Threshold]
) -> tuple[ComparisonReport, tuple[Path, ...]]:
    """B (the candidate) against A (the baseline), run for run; the JSON and the
    Markdown saved in the A/B's directory (``compare.json``, ``compare.md``, never over
    a file)."""
    sides: dict[str, list[Run]] = {"a": [], "b": []}
    for build, result in outcome.runs:
        sides[build.label].append(Run(str(result.scorecard_path), result.scorecard))
    report = comparison_report(sides["a"], sides["b"], thresholds)
    saved = tuple(
        write_new(unique_path(outcome.run_dir, "compare", ext), report.texts[key].encode())
        for ext, key in ((".json", "json"), (".md", "markdown"))
    )
    return report, saved
