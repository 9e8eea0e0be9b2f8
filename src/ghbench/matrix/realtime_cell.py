"""One real-time matrix cell, following the runbook's per-cell procedure on the harness.

1. Repos for the topology: T1 one repo, T2 N/5 (at least 2). On the emulator they are
   ``ghbench-matrix/{t}-{n}-r{i}`` (created by setup); on GitHub the first repos of
   ``--repos``. S3 needs sessions that do not exist yet, so on the emulator it gets
   repos of its own, named with the run's timestamp.
2. Setup per repo (``ghbench.harness.setup.run_setup``): reused when every worktree
   exists and every PR is open, else run fresh. S3 only makes sure repos and issues exist.
3. One orchestrator over every repo: the driver the flags name; for T2 the workload
   model's config lists the sessions of all the spread repos (``SpreadWorkloadDriver``),
   and AO runs once on a config with one project per repo (``ghbench.matrix.ao_cell``,
   ``ghbench.drivers.ao_spread``); a T2 cell whose trace never names one of its repos
   fails, since it did not measure a spread.
4. The window (``ghbench.harness.measure.run_measure`` with the setup already validated):
   a fresh trace, warmup, the before ``/rate_limit``, the scenario's triggers
   (``ghbench.matrix.triggers``), the after snapshot, the stop and the scorecard.
   S6 reads the dashboard for the window (the workload model's reader, or AO's own
   dashboard read by ``ghbench.matrix.dashboard``) and notes the split of the window's
   calls into dashboard and lifecycle traffic.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ghbench.clock import Clock
from ghbench.drivers.ao import AoDriver
from ghbench.drivers.ao_spread import AoSpreadDriver
from ghbench.drivers.base import BenchSession, Driver
from ghbench.drivers.project import Project
from ghbench.drivers.workload import SpreadWorkloadDriver, WorkloadDriver
from ghbench.errors import GhbenchError
from ghbench.github.backend import Backend, EmulatorBackend
from ghbench.harness.factory import build_driver
from ghbench.harness.flags import RunFlags
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import LogProgress
from ghbench.harness.setup import SetupOptions, run_setup
from ghbench.harness.setup_record import SetupRecord
from ghbench.harness.window import MeasureOptions, WindowRecord
from ghbench.matrix.ao_cell import prepare_ao_cell, spawn_storm, unpolled_repos
from ghbench.matrix.cells import TOPOLOGIES, Cell
from ghbench.matrix.dashboard import AoDashboardReader, choose_reader, split_dashboard_traffic
from ghbench.matrix.hygiene import CellTiming, cell_timing
from ghbench.matrix.runner import CellArtifacts, cell_seed
from ghbench.matrix.topology import cell_repos, project_id, sessions_per_repo
from ghbench.matrix.triggers import (
    CellHooks,
    CrashableDriver,
    DashboardReader,
    comment_burst_plan,
    hard_kill,
    post_review_comments,
    scenario_triggers,
)
from ghbench.timefmt import duration_flag, format_duration
from ghbench.trace.reader import read_rows
from ghbench.workload.scenarios import SCENARIOS
from ghbench.workload.scenarios import TOPOLOGIES as SCENARIO_TOPOLOGIES

__all__ = [
    "EMULATOR_OWNER",
    "RealtimeCell",
    "RealtimeOptions",
    "require_calls",
    "run_realtime_cell",
]

EMULATOR_OWNER = "ghbench-matrix"
Log = Callable[[str], None]


@dataclass(frozen=True)
class RealtimeOptions:
    flags: RunFlags
    work_dir: Path  # setups and driver state shared by the cells: OUT/realtime
    duration_scale: float = 1.0  # smoke runs and tests shorten the runbook's durations
    repos: tuple[str, ...] = ()  # --repos, for --backend github
    seed: int = 0
    setup_timeout: float = 600.0
    poll_interval: float = 30.0
    stop_grace: float = 10.0
    # the emulator's injected faults for the measured run only: setup's calls are not
    # what is measured, and at a model's ~750 ms each they made setup the slow part
    window_faults: Mapping[str, object] | None = None


def _repos(cell: Cell, backend: Backend, options: RealtimeOptions, stamp: int) -> tuple[str, ...]:
    if backend.name != "emulator":
        return cell_repos(cell, options.repos)
    fresh = f"s3-{stamp}-" if cell.scenario == "S3" else ""
    base = f"{EMULATOR_OWNER}/{fresh}{cell.topology.lower()}-{cell.scale}"
    return tuple(f"{base}-r{i}" for i in range(1, cell.repo_count + 1))


def _project(repo: str, index: int, work_dir: Path) -> Project:
    pid = project_id(repo)
    return Project(
        id=pid,
        path=work_dir / "checkouts" / pid,
        repo=repo,
        default_branch="main",
        session_prefix=f"r{index}",
        config_path=None,
    )


def _run_timing(cell: Cell, options: RealtimeOptions) -> tuple[CellTiming, RealtimeOptions]:
    """The cell's warmup, window and poll interval by hygiene's rule (``cell_timing``, the
    one ``ghbench.matrix.runner.plan_timing`` estimates with), and the options to run it
    with: the workload model is told the scaled poll interval as its ``--tick``, so a
    shortened window still sees several polling cycles. AO polls at its own 30 s."""
    model = options.flags.driver == "workload"
    given = options.flags.tick if model else None
    timing = cell_timing(
        cell,
        duration_scale=options.duration_scale,
        tick_s=None if given is None else duration_flag("--tick", given, allow_zero=False),
        scaled_poll=model,
    )
    if given is None and timing.tick_s is not None:
        flags = dataclasses.replace(options.flags, tick=f"{timing.tick_s:g}s")
        options = dataclasses.replace(options, flags=flags)
    return timing, options


def _scenario_id(cell: Cell) -> str:
    """The spec's ``{scenario}.{topology}.{sessions}``, named as ``measure`` and ``simulate``
    name them (S2 on T1 is ``quiet-steady.single-repo.N``), so ``compare`` pairs them."""
    return f"{SCENARIOS[cell.scenario].name}.{SCENARIO_TOPOLOGIES[cell.topology]}.{cell.scale}"


def _issues(count: int) -> list[int]:
    return list(range(1, count + 1))


def _check_scenario(cell: Cell, flags: RunFlags, env: Mapping[str, str]) -> None:
    """Refuse early what would fail later: a ``$GHBENCH_CHROMIUM`` that names no program."""
    if cell.scenario == "S6" and flags.driver == "ao":
        choose_reader(env)


def _trace_rows(path: Path) -> list[dict[str, Any]]:
    """The trace's rows (``read_rows``), as mappings; none when it holds none: the checks
    report what the trace lacks."""
    return [msgspec.to_builtins(row) for row in read_rows(path, empty_ok=True)]


class RealtimeCell:
    """One cell while it runs: its repos' projects and setups, the measuring driver (the
    ``Driver`` the window measures), the scenario's trigger actions and the notes."""

    def __init__(
        self,
        cell: Cell,
        *,
        backend: Backend,
        clock: Clock,
        env: Mapping[str, str],
        options: RealtimeOptions,
        log: Log,
        projects: Sequence[Project],
        counts: Mapping[str, int],
    ) -> None:
        self.cell, self.backend, self.clock, self.env = cell, backend, clock, env
        self.options, self.log = options, log
        self.projects, self.counts = list(projects), dict(counts)
        self.setup_drivers: list[Driver] = []
        self.sessions: list[BenchSession] = []
        self.session_repos: dict[str, str] = {}
        self.notes: list[str] = []
        self.reader: DashboardReader | AoDashboardReader | None = None
        self._driver: CrashableDriver | None = None

    @property
    def scale(self) -> float:
        return self.options.duration_scale

    @property
    def ao(self) -> bool:
        return self.options.flags.driver == "ao"

    @property
    def driver(self) -> CrashableDriver:
        """The measuring driver (set by ``start_measuring``)."""
        assert self._driver is not None, "the measuring driver is chosen after setup"
        return self._driver

    def progress(self) -> LogProgress:
        return LogProgress(self.log, self.cell.id)

    def _build_driver(self, project: Project) -> Driver:
        opts = self.options
        return build_driver(opts.flags, project, self.backend, opts.work_dir, self.env)

    # -- setup and the measuring driver ---------------------------------------------

    def setup_all(self) -> None:
        """Setup per repo (reused when valid); S3 only seeds repos and issues."""
        opts = self.options
        for project in self.projects:
            driver = self._build_driver(project)
            self.setup_drivers.append(driver)
            issues = _issues(self.counts[project.repo])
            if self.cell.scenario == "S3":
                with self.backend.control_client() as control:
                    self.backend.ensure_repo(project.repo, issues, control)
                continue
            outcome = run_setup(
                project,
                issues,
                sessions=len(issues),
                driver=driver,
                backend=self.backend,
                clock=self.clock,
                options=SetupOptions(
                    out_dir=opts.work_dir,
                    poll_interval=opts.poll_interval,
                    timeout=opts.setup_timeout,
                    stop_grace=opts.stop_grace,
                ),
                progress=self.progress(),
            )
            if not outcome.record.ready:
                raise GhbenchError(
                    f"setup for {project.repo} timed out with {len(outcome.record.sessions)}"
                    f" of {len(issues)} PRs open ({outcome.path})"
                )
            self.sessions.extend(outcome.record.sessions)
            self.session_repos.update({s.session_id: project.repo for s in outcome.record.sessions})

    def _ao_driver(self, project: Project) -> AoDriver:
        driver = self._build_driver(project)
        assert isinstance(driver, AoDriver)
        driver.dashboard = self.cell.scenario == "S6"
        return driver

    def choose_measuring_driver(self) -> CrashableDriver:
        """AO over every project (``AoSpreadDriver`` for T2), or the workload model, over
        several repos with ``SpreadWorkloadDriver``."""
        first = self.projects[0]
        driver: CrashableDriver
        if self.ao:
            drivers = tuple(self._ao_driver(p) for p in self.projects)
            driver = drivers[0] if len(drivers) == 1 else AoSpreadDriver(drivers)
        elif len(self.projects) == 1:
            only = self._build_driver(first)
            assert isinstance(only, WorkloadDriver)
            driver = only
        else:
            combined = dataclasses.replace(first, id=f"{first.id.rsplit('-r', 1)[0]}-spread")
            base = self._build_driver(combined)
            assert isinstance(base, WorkloadDriver)
            driver = SpreadWorkloadDriver(
                project_id=base.project_id,
                repo=first.repo,
                prefix=base.prefix,
                work_dir=base.work_dir,
                backend=self.backend,
                options=base.options,
                base_env=base.base_env,
                session_repos=self.session_repos,
                all_repos=tuple(p.repo for p in self.projects),
            )
        self._driver = driver
        return driver

    def measured_project_id(self) -> str:
        if len(self.projects) == 1:
            return self.projects[0].id
        driver = self.driver
        assert isinstance(driver, AoSpreadDriver | WorkloadDriver)
        return driver.project_id

    def _ao_drivers(self) -> tuple[AoDriver, ...]:
        driver = self.driver
        if isinstance(driver, AoSpreadDriver):
            return driver.drivers
        assert isinstance(driver, AoDriver)
        return (driver,)

    # -- trigger actions ------------------------------------------------------------

    def hooks(self) -> CellHooks:
        return CellHooks(
            restart=self.restart,
            spawn_all=self.spawn_all,
            comment_burst=self.comment_burst,
            start_dashboard=self.start_dashboard,
            stop_dashboard=self.stop_dashboard,
        )

    def restart(self, trace: Path, hard: bool) -> None:
        driver = self.driver
        if hard:
            hard_kill(driver)
        else:
            driver.stop(self.options.stop_grace)
        driver.finish_measure()
        driver.prepare_measure(tuple(self.sessions), self.projects[0].repo)
        driver.start(trace, self.backend.orchestrator_env())

    def spawn_all(self, rec: WindowRecord) -> None:
        """S3 at t0: the agents' branches and PRs for every session, then the orchestrator
        sees them (AO: ``batch-spawn`` into the running orchestrator; the workload model
        restarts on a config that lists them)."""
        if self.ao:
            spawned = spawn_storm(self.projects, self._ao_drivers(), self.counts)
            self.notes.append(
                f"S3: {len(spawned)} sessions spawned at t0 by 'ao batch-spawn'"
                f" ({', '.join(spawned)})"
            )
            return
        with self.backend.control_client() as control:
            for project, driver in zip(self.projects, self.setup_drivers, strict=True):
                driver.spawn(_issues(self.counts[project.repo]))
                open_prs = control.open_pull_requests(project.repo)
                for info in driver.discover_sessions():
                    pr = open_prs.get(info.branch or "")
                    if pr is None or info.worktree_path is None:
                        raise GhbenchError(f"S3: session {info.session_id} opened no PR")
                    self.sessions.append(
                        BenchSession(
                            info.session_id,
                            info.issue,
                            pr.branch,
                            info.worktree_path,
                            pr.number,
                            pr.url,
                        )
                    )
                    self.session_repos[info.session_id] = project.repo
        self.notes.append(f"S3: {len(self.sessions)} sessions spawned at t0")
        self.restart(rec.trace_path, hard=False)

    def comment_burst(self, rec: WindowRecord) -> None:
        rng = random.Random(cell_seed(self.options.seed, self.cell))
        prs = [(self.session_repos[s.session_id], s.pr_number) for s in self.sessions]
        plan = comment_burst_plan(prs, rng)
        added = post_review_comments(self.backend, plan)
        self.notes.append(f"S4: {added} review comments on {len(plan)} PRs at window start")

    def start_dashboard(self, rec: WindowRecord) -> None:
        refresh_s, click_s = max(1.0, 30.0 * self.scale), max(1.0, 10.0 * self.scale)
        driver = self.driver
        if isinstance(driver, AoDriver | AoSpreadDriver):
            self.reader = AoDashboardReader(
                driver.dashboard_url(),
                [s.session_id for s in self.sessions],
                choose_reader(self.env),
                log_path=self.options.work_dir / "dashboard" / f"chromium-{rec.stamp}.log",
                refresh_s=refresh_s,
                click_s=click_s,
            )
        else:
            assert isinstance(driver, WorkloadDriver)
            self.reader = DashboardReader(
                driver.work_dir / "workload.yaml",
                rec.trace_path,
                {**self.env, **self.backend.orchestrator_env()},
                refresh_s=refresh_s,
                click_s=click_s,
            )
        self.reader.start()

    def stop_dashboard(self, rec: WindowRecord | None = None) -> None:
        if rec is not None and self.ao and self.reader is not None:
            # the window's end, AO still running with its dashboard up: nothing it
            # listens on may be reachable from the network
            listeners = {f"{a}:{p}" for d in self._ao_drivers() for a, p in d.require_loopback()}
            shown = ", ".join(sorted(listeners)) or "nothing"
            self.notes.append(f"S6: AO listened on {shown} (loopback only)")
        reader, self.reader = self.reader, None
        if reader is None:
            return
        reader.stop()
        if reader.error is not None:
            raise GhbenchError(f"S6: the dashboard reader failed: {reader.error}")
        if isinstance(reader, AoDashboardReader):
            self.notes.extend(reader.notes())
            return
        self.notes.append(
            f"S6: the dashboard reader made {reader.calls} calls (component dashboard)"
        )

    # -- after the window ---------------------------------------------------------------

    def check_trace(self, repos: tuple[str, ...], trace: Path, record: WindowRecord) -> None:
        """T2 with AO: every spread repo polled; S6: the window's dashboard/lifecycle split."""
        spread_ao = len(repos) > 1 and self.ao
        if not spread_ao and self.cell.scenario != "S6":
            return
        rows = _trace_rows(trace)
        if spread_ao:
            missing = unpolled_repos(rows, repos)
            if missing:
                raise GhbenchError(
                    f"{self.cell.id}: AO's trace has no call for {', '.join(missing)}: the"
                    " AO of those repositories polled nothing, so the cell did not measure"
                    f" a spread; the trace is {trace}"
                )
        if self.cell.scenario == "S6" and record.start is not None and record.end is not None:
            # the scorecard's own window (harness.measure_outputs rounds it to milliseconds)
            start_ms, end_ms = round(record.start * 1000), round(record.end * 1000)
            split = split_dashboard_traffic(rows, start_ms, end_ms)
            self.notes.append(split.note())
            if split.dashboard == 0:
                self.notes.append(
                    "S6: no dashboard calls in the window's trace: the dashboard made none,"
                    " or the orchestrator does not trace them"
                )


def require_calls(
    cell: Cell, artifact: Mapping[str, Any], timing: CellTiming, *, model: bool, trace: Path
) -> None:
    """Fail a cell whose scorecard counts no call in its window."""
    if artifact.get("scorecard", {}).get("totalCalls"):
        return
    # a window no longer than the poll interval can fall between two polls: a cell of
    # zeros would read as a free scenario, not as one that was never seen
    raise GhbenchError(
        f"{cell.id}: the orchestrator made no GitHub call in the"
        f" {format_duration(timing.window_s)} window (it polls every"
        f" {format_duration(timing.poll_s)}), so the cell measured nothing; give a larger"
        f" --duration-scale{' or a shorter --tick' if model else ''} (the trace is {trace})"
    )


def run_realtime_cell(
    cell: Cell,
    cell_dir: Path,
    *,
    backend: Backend,
    clock: Clock,
    env: Mapping[str, str],
    options: RealtimeOptions,
    log: Log,
) -> CellArtifacts:
    """Set up, measure one window with the scenario's triggers, and return the artifacts."""
    _check_scenario(cell, options.flags, env)
    repos = _repos(cell, backend, options, int(clock.now()))
    counts = sessions_per_repo(cell.scale, repos)
    if options.flags.driver == "ao":
        ao = prepare_ao_cell(
            cell,
            repos,
            options.work_dir,
            backend_name=backend.name,
            dashboard=cell.scenario == "S6",
        )
        projects = list(ao.projects)
    else:
        projects = [_project(r, i, options.work_dir) for i, r in enumerate(repos, start=1)]
    timing, options = _run_timing(cell, options)
    warmup, duration = timing.warmup_s, timing.window_s
    c = RealtimeCell(
        cell,
        backend=backend,
        clock=clock,
        env=env,
        options=options,
        log=log,
        projects=projects,
        counts=counts,
    )
    c.setup_all()
    if options.window_faults is not None:
        if not isinstance(backend, EmulatorBackend):
            raise GhbenchError(f"{cell.id}: injected faults need the emulator backend")
        backend.set_faults(options.window_faults)
    driver = c.choose_measuring_driver()
    setup = SetupRecord(
        scenario_id=_scenario_id(cell),
        project=c.measured_project_id(),
        repo=repos[0],
        session_count=cell.scale,
        ready=True,
        sessions=tuple(c.sessions),
        created_at=clock.now(),
        extra={"repos": list(repos), "cell": cell.id, "topology": TOPOLOGIES[cell.topology][0]},
    )
    measure_options = MeasureOptions(
        out_dir=cell_dir,
        warmup=warmup,
        duration=duration,
        warmup_text=format_duration(warmup),
        duration_text=format_duration(duration),
        stop_grace=options.stop_grace,
        plot=False,
        supplemental=False,
        triggers=scenario_triggers(cell.scenario, duration, c.hooks()),
    )
    try:
        result = run_measure(
            projects[0],
            sessions=cell.scale,
            driver=driver,
            backend=backend,
            clock=clock,
            options=measure_options,
            progress=c.progress(),
            setup=setup,
        )
    finally:
        # S3's agents, spawned in the window, outlive a bench-era AO's stop (it just
        # exits): the measurement's end closed the drivers, whose tmux servers held them
        c.stop_dashboard()
    result.raise_for_outcome()
    if result.record.incomplete_reason:
        raise GhbenchError(f"{cell.id}: {result.record.incomplete_reason}")
    c.check_trace(repos, result.trace_path, result.record)
    artifact = msgspec.json.decode(result.scorecard_path.read_bytes())
    require_calls(cell, artifact, timing, model=not c.ao, trace=result.trace_path)
    if options.duration_scale != 1.0:
        c.notes.insert(
            0,
            f"durations scaled by {options.duration_scale:g}: warmup {format_duration(warmup)},"
            f" window {format_duration(duration)}",
        )
    c.notes.extend(result.record.events)
    return CellArtifacts(
        trace_path=result.trace_path,
        scorecard_path=result.scorecard_path,
        scorecard_artifact=artifact,
        repos=repos,
        seed=cell_seed(options.seed, cell),
        notes=tuple(c.notes),
        durations=(warmup, duration),
    )
