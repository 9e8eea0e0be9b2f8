"""The workload driver: the built-in AO model (``ghbench workload run``) as the orchestrator.

It follows AO's flow with the model in AO's place:

- ``start`` runs ``ghbench workload run --config FILE`` as a real process in its own
  process group, tracing to ``AO_GH_TRACE_FILE`` when measuring. During ``setup`` the
  model polls only the repo (it has no sessions yet) and traces to nowhere.
- ``spawn`` does what AO's agents would: a ``feat/issue-N`` branch with a commit and an
  open PR per session, through the API (``ghbench.workload.setup_actions``; on the
  emulator the commit is a push through its control API, on GitHub a contents-API
  commit), plus a worktree directory. Session ids are ``{prefix}-{n}`` with ``n`` the
  next free integer, as in AO.
- ``prepare_measure`` writes the model's config: the run's spec (profile, policy,
  transport, seed, attribution) with the sessions and the backend's address
  (``workload_config``).

Its sessions are recorded in ``{work_dir}/sessions.json``; worktrees live under
``{work_dir}/worktrees/{session id}``. ``WorkloadFleet`` is the model over several
projects (the matrix's T2): one process polls them all.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ghbench.artifacts.io import replace_atomic
from ghbench.credentials import without_tokens
from ghbench.drivers.base import (
    Dashboard,
    DashboardView,
    OwnsProcess,
    PerProjectSetup,
    Session,
    SpawnStorm,
    StopResult,
    TraceSink,
    TracingReport,
)
from ghbench.drivers.common.environment import TRACE_VARS
from ghbench.drivers.common.layout import Below
from ghbench.drivers.common.sessions import SessionRegistry
from ghbench.drivers.project import Project
from ghbench.drivers.workload.dashboard import ModelDashboard
from ghbench.errors import GhbenchError, ToolMissingError
from ghbench.github.backend import Backend
from ghbench.gitinfo import git_head
from ghbench.procs import ManagedProcess, start_process
from ghbench.runspec.spec import RunSpec
from ghbench.trace.losses import LossPipe
from ghbench.workload.config import (
    SessionSpec,
    TraceSettings,
    WorkloadConfig,
    dump_workload_config,
)
from ghbench.workload.setup_actions import create_session_prs, open_api_client

__all__ = ["WorkloadDriver", "WorkloadFleet"]

GH_PATH = "gh"  # the gh the model runs (its transport gh)


def _storm_note(count: int) -> str:
    return f"S3: {count} sessions spawned at t0"


def orchestrator_env(
    base: Mapping[str, str], extra: Mapping[str, str], trace_path: Path | None
) -> dict[str, str]:
    """``base`` + ``extra``, with the trace variable set to ``trace_path`` or removed."""
    env = {k: v for k, v in base.items() if k not in TRACE_VARS}
    env.update(extra)
    if trace_path is not None:
        env["AO_GH_TRACE_FILE"] = str(trace_path)
    return env


@dataclass
class WorkloadDriver(OwnsProcess):
    """Drives ``ghbench workload run`` for one project; ``polled``: the projects the
    model polls when it stands for several (a fleet's), else its own."""

    project: Project
    work_dir: Path
    backend: Backend
    spec: RunSpec
    base_env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    polled: tuple[Project, ...] = ()
    name: str = "workload"
    per_project_processes: bool = False
    _proc: ManagedProcess | None = field(default=None, repr=False)
    _config: Path | None = field(default=None, repr=False)
    _spawned: list[str] = field(default_factory=list, repr=False)
    # the rows each traced start could not write, told by the model over a pipe
    _losses: list[LossPipe] = field(default_factory=list, repr=False)

    @property
    def project_id(self) -> str:
        return self.project.id

    # -- paths and registry -------------------------------------------------

    registry_path = Below("sessions.json", base="work_dir")
    worktrees_dir = Below("worktrees", base="work_dir")
    config_path = Below("workload.yaml", base="work_dir")

    @property
    def session_registry(self) -> SessionRegistry:
        return SessionRegistry(self.registry_path)

    def _next_ids(self, count: int, taken: Collection[str]) -> list[str]:
        prefix = self.project.session_prefix
        used = {
            int(sid.rsplit("-", 1)[1])
            for sid in taken
            if sid.startswith(f"{prefix}-") and sid.rsplit("-", 1)[1].isdigit()
        }
        for path in self.worktrees_dir.glob(f"{prefix}-*"):
            tail = path.name.rsplit("-", 1)[1]
            if tail.isdigit():
                used.add(int(tail))
        out: list[str] = []
        n = 1
        while len(out) < count:
            if n not in used:
                out.append(f"{prefix}-{n}")
            n += 1
        return out

    # -- the model's config ---------------------------------------------------

    def _repo_of(self, session_id: str) -> str:
        """A session's repo: its project's, known by the session id's prefix."""
        prefix = session_id.rsplit("-", 1)[0]
        for project in self.polled:
            if project.session_prefix == prefix:
                return project.repo
        return self.project.repo

    def workload_config(self, sessions: Sequence[Session]) -> WorkloadConfig:
        """The model's config: the run's spec, ``sessions``, this driver's backend."""
        spec = self.spec
        return WorkloadConfig(
            profile=spec.profile,
            transport=spec.transport,
            host=self.backend.gh_host,
            api_url=self.backend.api_url.rstrip("/") + "/",
            token_env="GH_TOKEN",
            gh_path=GH_PATH,
            project=self.project.id,
            seed=spec.seed,
            repos=tuple(p.repo for p in self.polled or (self.project,)),
            sessions=tuple(
                SessionSpec(
                    id=s.session_id,
                    repo=self._repo_of(s.session_id),
                    issue=s.issue,
                    branch=s.branch,
                    pr=s.pr_number,
                )
                for s in sessions
            ),
            trace=TraceSettings(session_ids=spec.session_ids),
            policy=spec.model_policy(),
        )

    def _write_config(self, sessions: Sequence[Session]) -> Path:
        replace_atomic(self.config_path, dump_workload_config(self.workload_config(sessions)))
        return self.config_path

    # -- the Driver interface -----------------------------------------------

    def check_tools(self) -> None:
        if self.spec.transport == "gh" and shutil.which(GH_PATH) is None:
            raise ToolMissingError(
                f"'{GH_PATH}' (the GitHub CLI) is not installed; install gh"
                " (apt-get install gh) or use --transport http"
            )

    def version(self) -> tuple[str | None, str | None]:
        # the checkout ghbench runs from (src/ghbench/drivers/workload/driver.py)
        return git_head(Path(__file__).resolve().parents[4])

    def start(self, sink: TraceSink | None, env: Mapping[str, str]) -> None:
        if self._config is None:
            self._config = self._write_config([])
        extra = dict(env)
        extra.setdefault("GH_TOKEN", self.backend.token)
        # the backend's token is the one the model spends; the user's others stay out
        base = without_tokens(self.base_env)
        child = orchestrator_env(base, extra, None if sink is None else sink.path)
        losses: LossPipe | None = None
        if sink is None:
            # the model always writes rows somewhere; setup's go nowhere
            child["AO_GH_TRACE_FILE"] = os.devnull
        else:
            losses = LossPipe()
            self._losses.append(losses)
            child.update(losses.child_env())
        argv = [sys.executable, "-m", "ghbench", "workload", "run", "--config", str(self._config)]
        try:
            self._proc = start_process(
                argv,
                name="workload",
                env=child,
                cwd=self.work_dir,
                log_path=self.work_dir / "logs" / "workload.log",
                pass_fds=() if losses is None else (losses.child_fd,),
            )
        finally:
            if losses is not None:
                losses.child_started()

    def log_tail(self) -> str:
        return "" if self._proc is None else self._proc.log_tail()

    def spawn(self, issues: Sequence[int]) -> None:
        repo = self.project.repo
        registry = self.session_registry.load()
        ids = self._next_ids(len(issues), registry)
        pairs = list(zip(ids, issues, strict=True))
        with open_api_client(self.backend.api_url, self.backend.token) as client:
            if self.backend.seeds_repos:
                # the agent's push of its first commit, through the emulator's control
                # API; on GitHub the setup actions commit through the contents API
                for _, issue in pairs:
                    branch = f"feat/issue-{issue}"
                    if client.get(f"repos/{repo}/git/ref/heads/{branch}").status_code == 404:
                        self.backend.push_branch(repo, branch, f"Work on #{issue}")
            specs = create_session_prs(client, repo, pairs)
        for spec in specs:
            worktree = self.worktrees_dir / spec.id
            worktree.mkdir(parents=True, exist_ok=True)
            (worktree / ".ghbench-session").write_text(f"{spec.id}\n")
            registry[spec.id] = {
                "issue": spec.issue,
                "branch": spec.branch_name,
                "worktree": str(worktree),
                "status": "working",
            }
        self.session_registry.save(registry)
        self._spawned = [spec.id for spec in specs]

    def discover_sessions(self) -> list[Session]:
        registry = self.session_registry.load()
        out = []
        for sid in self._spawned:
            entry = registry.get(sid, {})
            issue = entry.get("issue")
            out.append(
                Session(
                    session_id=sid,
                    issue=int(issue) if issue is not None else None,
                    branch=entry.get("branch"),
                    worktree_path=entry.get("worktree") or None,
                )
            )
        return out

    def stop_agents(self) -> None:
        # The model's "agents" finished when spawn returned; mark them done.
        registry = self.session_registry.load()
        for sid in self._spawned:
            if sid in registry:
                registry[sid]["status"] = "stopped"
        self.session_registry.save(registry)

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        kept = {Path(p).resolve() for p in keep}
        registry = self.session_registry.load()
        removed: list[Path] = []
        if self.worktrees_dir.is_dir():
            for path in sorted(self.worktrees_dir.iterdir()):
                if path.resolve() in kept or not path.is_dir():
                    continue
                shutil.rmtree(path)
                registry.pop(path.name, None)
                removed.append(path)
        if removed:
            self.session_registry.save(registry)
        return removed

    def check_sessions(self, sessions: Sequence[Session]) -> list[str]:
        return [
            f"{s.session_id}: worktree {s.worktree} is missing"
            for s in sessions
            if not s.worktree.is_dir()
        ]

    def prepare_measure(self, sessions: Sequence[Session]) -> None:
        self._config = self._write_config(sessions)

    def finish_measure(self) -> TracingReport:
        """The rows the model could not write since the last call (it has stopped)."""
        pipes, self._losses = self._losses, []
        return TracingReport(losses=tuple(loss for p in pipes for loss in p.losses()))

    def spawned_with_prs(self, count: int) -> list[tuple[str, Session]]:
        """Spawn issues #1..count (each agent opens its PR at once) and read their PRs back."""
        repo = self.project.repo
        self.spawn(list(range(1, count + 1)))
        with self.backend.benchmark_client() as client:
            open_prs = client.open_pull_requests(repo)
        out = []
        for info in self.discover_sessions():
            pr = open_prs.get(info.branch or "")
            if pr is None or info.worktree_path is None:
                raise GhbenchError(f"S3: session {info.session_id} opened no PR")
            with_pr = msgspec.structs.replace(
                info, branch=pr.branch, pr_number=pr.number, pr_url=pr.url
            )
            out.append((repo, with_pr))
        return out

    def spawn_storm(self, counts: Mapping[str, int]) -> SpawnStorm:
        sessions = self.spawned_with_prs(counts[self.project.repo])
        return SpawnStorm(tuple(sessions), _storm_note(len(sessions)), restart=True)

    def open_dashboard(self, view: DashboardView) -> Dashboard:
        env = {**view.env, **self.backend.orchestrator_env()}
        return ModelDashboard(self.config_path, view, env)

    def close(self) -> None:
        return None  # the model is one process; stop() has stopped it


@dataclass
class WorkloadFleet(PerProjectSetup):
    """The model over several projects (T2): one process (``model``) polls every
    project's repo, and each project spawns its own sessions (``members``, ids by their
    prefix), as its own setup did."""

    members: tuple[WorkloadDriver, ...]
    model: WorkloadDriver
    name: str = "workload"
    per_project_processes: bool = False

    @property
    def project_id(self) -> str:
        return self.model.project_id

    # -- the one process ----------------------------------------------------

    def check_tools(self) -> None:
        self.model.check_tools()

    def version(self) -> tuple[str | None, str | None]:
        return self.model.version()

    def start(self, sink: TraceSink | None, env: Mapping[str, str]) -> None:
        self.model.start(sink, env)

    def stop(self, deadline: float) -> StopResult:
        return self.model.stop(deadline)

    def kill(self) -> None:
        self.model.kill()

    def alive(self) -> bool:
        return self.model.alive()

    def exit_code(self) -> int | None:
        return self.model.exit_code()

    def prepare_measure(self, sessions: Sequence[Session]) -> None:
        self.model.prepare_measure(sessions)

    def finish_measure(self) -> TracingReport:
        return self.model.finish_measure()

    def check_sessions(self, sessions: Sequence[Session]) -> list[str]:
        return self.model.check_sessions(sessions)

    def open_dashboard(self, view: DashboardView) -> Dashboard:
        return self.model.open_dashboard(view)

    def close(self) -> None:
        self.model.close()

    # -- per project (setup's steps: PerProjectSetup) --------------------------

    @property
    def project_drivers(self) -> tuple[WorkloadDriver, ...]:
        return self.members

    def spawn_storm(self, counts: Mapping[str, int]) -> SpawnStorm:
        sessions = [
            pair for m in self.members for pair in m.spawned_with_prs(counts[m.project.repo])
        ]
        return SpawnStorm(tuple(sessions), _storm_note(len(sessions)), restart=True)
