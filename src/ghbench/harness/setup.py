"""``setup``: create the scenario that ``measure`` observes (the spec's 11-step flow).

Differences from the original harness (AO reference §6), on purpose:

- sessions are mapped to issues through the orchestrator's own session list, never
  by a numeric suffix (session ids are sequential, not issue numbers);
- only worktrees whose agent is dead, and that no other setup artifact in the
  output directory still uses, are cleaned;
- a timeout writes a partial artifact with ``ready: false``, never ``ready: true``;
- an existing artifact is reused only if every worktree exists *and* every PR is open.

PR readiness is one listing of the repo's open PRs per poll (one call per 100 PRs)
rather than one query per session; every such call is a counted control call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ghbench.artifacts.models import Session, SetupArtifact
from ghbench.clock import Clock
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.errors import (
    ArtifactError,
    GhbenchError,
    Interrupted,
    UsageError,
    interrupt_signal,
    signal_label,
)
from ghbench.github.backend import Backend, explained
from ghbench.github.benchmark_client import BenchmarkClient, OpenPullRequest
from ghbench.harness.factory import find_run_project, start_backend
from ghbench.harness.progress import EVERY_S, Progress
from ghbench.harness.setup_artifact import new_setup, read_setup, setup_path, write_setup
from ghbench.runspec.spec import RunSpec
from ghbench.signals import uninterruptible

__all__ = ["STOP_GRACE_S", "SetupOutcome", "run_setup", "setup_on", "setup_run", "validate_setup"]

STOP_GRACE_S = 10.0  # the orchestrator's shutdown after SIGTERM, before SIGKILL


@dataclass(frozen=True)
class SetupOutcome:
    path: Path
    setup: SetupArtifact
    reused: bool
    control_calls: int
    cleaned: tuple[Path, ...] = ()

    def lines(self) -> list[str]:
        """What ``ghbench setup`` prints: the state, a line per session, where it went."""
        rec = self.setup
        state = "reused" if self.reused else ("ready" if rec.ready else "NOT ready (timed out)")
        return [
            f"Setup {rec.scenario_id}: {state}, {len(rec.sessions)}/{rec.session_count}"
            f" sessions with open PRs in {rec.repo}",
            *(
                f"  {s.session_id:<12} issue #{s.issue:<5} {s.branch:<24} PR #{s.pr_number}"
                for s in rec.sessions
            ),
            f"  control calls: {self.control_calls}",
            f"  artifact: {self.path}",
        ]

    def raise_for_ready(self) -> None:
        """A setup whose sessions did not all open a PR is an error, its artifact kept."""
        rec = self.setup
        if not rec.ready:
            raise GhbenchError(
                f"only {len(rec.sessions)} of {rec.session_count} sessions opened a PR before"
                f" the timeout; partial artifact {self.path} (ready: false); raise --timeout"
                " or check the agents, then re-run setup"
            )


def setup_run(
    spec: RunSpec,
    *,
    clock: Clock,
    progress: Callable[[], Progress],
    hold: Callable[[Path], None],
) -> SetupOutcome:
    """``ghbench setup``: the project ``spec`` names found, ``hold`` given ``spec.out_dir``
    before anything is written there, then ``setup_on``."""
    project = find_run_project(spec)
    hold(spec.out_dir)
    return setup_on(spec, project, clock=clock, progress=progress)


def setup_on(
    spec: RunSpec, project: Project, *, clock: Clock, progress: Callable[[], Progress]
) -> SetupOutcome:
    """``run_setup`` on the backend and driver ``spec`` names, started for it
    (``start_backend``); its progress closes and the backend stops at the end, whatever
    happens."""
    backend, driver = start_backend(spec, project, clock)
    bar = progress()
    try:
        return run_setup(spec, project, driver=driver, backend=backend, clock=clock, progress=bar)
    finally:
        bar.close()
        backend.stop()


def validate_setup(setup: SetupArtifact, driver: Driver, client: BenchmarkClient) -> list[str]:
    """Every reason the setup cannot be measured: worktrees gone, PRs not open."""
    problems = list(driver.check_sessions(setup.sessions))
    open_prs = {pr.number for pr in client.open_pull_requests(setup.repo).values()}
    for s in setup.sessions:
        if s.pr_number not in open_prs:
            problems.append(f"{s.session_id}: PR #{s.pr_number} is not open")
    return problems


def _artifact_worktrees(out_dir: Path, exclude: Path) -> set[Path]:
    """Worktrees other setup artifacts in ``out_dir`` still rely on."""
    keep: set[Path] = set()
    for path in out_dir.glob("setup-*.json"):
        if path == exclude:
            continue
        try:
            keep.update(s.worktree for s in read_setup(path).sessions)
        except GhbenchError:
            continue
    return keep


def _map_by_issue(found: Sequence[Session], issues: Sequence[int]) -> dict[int, Session]:
    by_issue: dict[int, Session] = {}
    for info in found:
        if info.issue is not None and info.issue in issues and info.issue not in by_issue:
            by_issue[info.issue] = info
    return by_issue


@dataclass
class _Run:
    """One setup run's collaborators."""

    spec: RunSpec
    project: Project
    driver: Driver
    backend: Backend
    client: BenchmarkClient
    clock: Clock
    progress: Progress
    stop_grace: float


def _wait_for_prs(run: _Run, sessions: dict[int, Session]) -> dict[int, OpenPullRequest]:
    started = run.clock.now()
    timeout, interval = run.spec.setup_timeout.seconds, run.spec.poll_interval.seconds
    ready: dict[int, OpenPullRequest] = {}
    while True:
        open_prs = run.client.open_pull_requests(run.project.repo)
        for issue, info in sessions.items():
            if issue not in ready and info.branch and info.branch in open_prs:
                ready[issue] = open_prs[info.branch]
        elapsed = run.clock.now() - started
        run.progress.sessions_ready(len(ready), len(sessions), elapsed, timeout)
        if len(ready) == len(sessions) or elapsed + interval > timeout:
            return ready
        # a long poll interval (GitHub's 30 s) is waited out in slices that each say so
        due = run.clock.now() + interval
        while (left := due - run.clock.now()) > 0:
            run.clock.sleep(min(left, EVERY_S))
            if due - run.clock.now() > 0:
                now = run.clock.now() - started
                run.progress.sessions_ready(len(ready), len(sessions), now, timeout)


def run_setup(
    spec: RunSpec,
    project: Project,
    *,
    driver: Driver,
    backend: Backend,
    clock: Clock,
    progress: Progress,
    stop_grace: float = STOP_GRACE_S,
) -> SetupOutcome:
    """Set up ``spec``'s sessions, one per ``spec.issues``, in ``project``; the
    ``backend`` must already be started and the driver's tools checked."""
    issues, sessions = spec.issues, spec.cell.sessions
    if len(issues) != sessions:
        raise UsageError(
            f"--issues lists {len(issues)} issues but --sessions is {sessions};"
            " give exactly one issue per session"
        )
    path = setup_path(spec.out_dir, project.id, spec.cell.scenario_id)
    client = backend.benchmark_client()
    run = _Run(spec, project, driver, backend, client, clock, progress, stop_grace)
    try:
        with explained(backend):
            if path.exists():
                old = _read_or_none(path)
                if old is not None and old.ready and old.repo == project.repo:
                    problems = validate_setup(old, driver, client)
                    if not problems:
                        progress.note("Setup already exists, reusing.")
                        return SetupOutcome(path, old, reused=True, control_calls=client.calls)
                    progress.note(f"setup {path.name} is stale ({problems[0]}); running fresh")
                else:
                    progress.note(f"setup {path.name} is partial or unreadable; running fresh")
                path.unlink()
            backend.ensure_repo(project.repo, issues, client)
            cleaned = driver.clean_stale(_artifact_worktrees(spec.out_dir, path))
            for p in cleaned:
                progress.note(f"removed stale worktree {p}")
            setup = _spawn_and_wait(run, issues)
            write_setup(setup, path)
            return SetupOutcome(
                path, setup, reused=False, control_calls=client.calls, cleaned=tuple(cleaned)
            )
    finally:
        client.close()
        driver.close()


def _read_or_none(path: Path) -> SetupArtifact | None:
    try:
        return read_setup(path)
    except ArtifactError:
        return None


def _spawn_and_wait(run: _Run, issues: Sequence[int]) -> SetupArtifact:
    driver, grace = run.driver, run.stop_grace
    run.progress.note(f"starting the {driver.name} orchestrator (no tracing)")
    driver.start(None, run.backend.orchestrator_env())
    try:
        if not driver.alive():
            raise GhbenchError(
                f"the {driver.name} orchestrator exited at start (code {driver.exit_code()});"
                " check its log and configuration"
            )
        run.progress.note(f"spawning {len(issues)} sessions")
        driver.spawn(issues)
        by_issue = _map_by_issue(driver.discover_sessions(), issues)
        for n in issues:
            if n not in by_issue:
                run.progress.note(f"issue #{n}: no session was spawned for it")
        ready = _wait_for_prs(run, by_issue)
        driver.stop_agents()
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP as StopSignal
        signum = interrupt_signal(exc)
        with uninterruptible(defer=False):  # a second signal is ignored while stopping
            driver.stop(grace)
        raise Interrupted(
            f"setup interrupted ({signal_label(signum)}); no artifact written", signum
        ) from None
    except BaseException:
        with uninterruptible():
            driver.stop(grace)
        raise
    with uninterruptible():
        driver.stop(grace)
    sessions = [
        Session(
            session_id=by_issue[n].session_id,
            issue=n,
            branch=ready[n].branch,
            worktree_path=by_issue[n].worktree_path or str(Path()),
            pr_number=ready[n].number,
            pr_url=ready[n].url,
        )
        for n in issues
        if n in ready
    ]
    return new_setup(
        run.spec.cell,
        project=run.project.id,
        repo=run.project.repo,
        sessions=sessions,
        created_at=run.clock.now(),
        version=driver.version(),
        ready=len(sessions) == len(issues),
    )
