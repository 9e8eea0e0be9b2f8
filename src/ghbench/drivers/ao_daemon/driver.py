"""The driver for AO's Go daemon (``ao daemon``): 0.10, npm's last release, and 0.12,
the desktop line its users run today; what differs between them is a row of
``ghbench.drivers.ao_daemon.versions``.

The daemon calls ``https://api.github.com`` itself (no gh) and writes no trace, so its
calls are traced at the network: the driver starts a GitHub front (``ghbench.front``)
and puts the daemon and its agents behind it (``HTTPS_PROXY`` and the front's CA), and
the front writes one row per exchange. The daemon's rows go to the window's trace; the
rows of its agents' gh and git (a session in their environment, ``AO_SESSION_ID``) go
to the agents' trace beside it, as the scorecard splits them. Where it all runs:
``ghbench.drivers.ao_daemon.world``.

Commands used: ``ao daemon`` (the backend, headless, in the foreground), ``ao project
add`` (a clone of each checkout, keeping its origin), ``ao spawn --issue N`` (one
session each; the agent opens the PR), ``ao session kill`` (sessions a setup no longer
keeps). The daemon's own API on loopback (``/readyz``, ``/api/v1/sessions``) says when
it is ready and which sessions, branches and PRs it has; none of it calls GitHub.

Keeping sessions measurable. The daemon adopts a session whose tmux session is alive
when it starts, and relaunches the agent of one whose tmux session is gone (0.12 resumes
it, ``claude --resume``); while it runs, a session whose tmux session disappears is
terminated. So a session's tmux session never goes away while the daemon runs: after
setup an agent is replaced in its pane by a placeholder (``tmux respawn-pane``), and
before every start every session ghbench spawned (its registry, ``sessions.json``) gets
a placeholder of that name. The daemon then watches PRs whose agents are idle, as a
user's daemon does.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.drivers.ao_daemon.api import DaemonApi, DaemonDashboard
from ghbench.drivers.ao_daemon.versions import DaemonBuild
from ghbench.drivers.ao_daemon.world import DaemonTokens, DaemonWorld
from ghbench.drivers.base import (
    Dashboard,
    DashboardView,
    OwnsProcess,
    Session,
    SpawnStorm,
    StopResult,
    TraceSink,
    TracingReport,
)
from ghbench.drivers.common.agent_launcher import AGENT_EXECUTABLE, install_agent
from ghbench.drivers.common.ao_cli import AoCommand, ao_error_line, run_ao, storm_note
from ghbench.drivers.common.checkouts import publish_default_branch, user_gitconfig, worktrees
from ghbench.drivers.common.environment import free_loopback_port
from ghbench.drivers.common.sessions import SessionRegistry
from ghbench.drivers.common.tmux import PLACEHOLDER_COMMAND, Placeholders, user_shell
from ghbench.drivers.project import Project
from ghbench.errors import GhbenchError, ToolMissingError
from ghbench.front import Front, FrontCounts, FrontSettings, start_front
from ghbench.github.backend import Backend
from ghbench.procs import ManagedProcess, start_process
from ghbench.workload.agents.profiles import AgentProfileName

__all__ = ["AoDaemonDriver", "front_notes"]

SESSION_ENV = ("AO_SESSION_ID",)  # how an agent's process names its session
AGENT_HARNESS = "claude-code"  # AO's claude-code plugin runs `claude`


def front_notes(counts: FrontCounts) -> TracingReport:
    """What a window's notes say about the front (problems only: a quiet front is fine),
    and the rows it could not write."""
    notes = list(counts.warnings)
    if not counts.reached:
        notes.append(
            "no client reached the GitHub front during the window: the daemon made no"
            " GitHub call through it (check its log, and the warnings above)"
        )
    return TracingReport(tuple(notes), tuple(counts.losses))


@dataclass
class AoDaemonDriver(OwnsProcess):
    """AO's daemon (``build``) over ``projects`` (one for setup and measure, a cell's
    several for the matrix: one daemon watches every project it has)."""

    projects: tuple[Project, ...]
    build: DaemonBuild
    world: DaemonWorld
    backend: Backend
    base_env: Mapping[str, str]
    name: str = "ao"
    per_project_processes: bool = False  # one daemon watches every project
    startup_timeout: float = 60.0
    spawn_timeout: float = 120.0
    # a profile of ghbench's agent model that the daemon launches as each session's
    # ``claude`` (S3, S4 with --agents), its sessions ``agent_speed`` times faster
    agent_model: AgentProfileName | None = None
    agent_speed: float = 1.0
    _proc: ManagedProcess | None = field(default=None, repr=False)
    _front: Front | None = field(default=None, repr=False)
    _api: DaemonApi | None = field(default=None, repr=False)
    _placeholders: Placeholders | None = field(default=None, repr=False)
    _executable: Path | None = field(default=None, repr=False)
    _before_spawn: set[str] = field(default_factory=set, repr=False)
    _spawned: list[str] = field(default_factory=list, repr=False)
    _doomed: set[str] = field(default_factory=set, repr=False)  # killed at the next start
    _trace: Path | None = field(default=None, repr=False)
    _starts: int = 0

    @property
    def project_id(self) -> str:
        first = self.projects[0]
        return first.id if len(self.projects) == 1 else f"{first.id.rsplit('-r', 1)[0]}-spread"

    @property
    def registry(self) -> SessionRegistry:
        return SessionRegistry(self.world.registry)

    # -- the world, the front, the agents' tmux server --------------------------

    def _tokens(self) -> DaemonTokens:
        return DaemonTokens(daemon=self.backend.token, agents=self.backend.agent_token)

    def _command(self) -> AoCommand:
        """The daemon's executable, as a file named ``ao`` (``_open`` makes it)."""
        assert self._executable is not None, "the world is opened first"
        return AoCommand(str(self._executable))

    def _open(self) -> Front:
        """The world, the front and the agents' tmux server, made once per driver."""
        if self._front is not None:
            return self._front
        self.world.prepare(user_gitconfig(self.base_env))
        self._executable = self.world.daemon_executable(self.build.executable)
        if self.agent_model is not None:
            self.world.bin.mkdir(exist_ok=True)
            install_agent(self.world.bin, self.agent_model, sys.executable, self.agent_speed)
        else:  # an earlier run's model agent is ghbench's: the user's claude runs now
            (self.world.bin / AGENT_EXECUTABLE).unlink(missing_ok=True)
        route = self.backend.front_route()
        front = start_front(
            FrontSettings(
                mode=route.mode,
                state_dir=str(self.world.front_state),
                upstream=route.upstream,
                session_from=SESSION_ENV,
                component="ao",
            ),
            env=self.base_env,
        )
        self._front = front
        try:
            agents = self.world.agents_env(self.base_env, self._route(front), self._tokens())
            tmux = self.world.open_tmux(agents, user_shell(self.base_env))
            self._placeholders = Placeholders(tmux)
            if self.backend.seeds_repos:
                for project in self.projects:
                    publish_default_branch(project, self.world.checkout(project), agents)
        except BaseException:
            self.close()
            raise
        return front

    def _route(self, front: Front) -> dict[str, str]:
        return front.client_env(self.base_env)

    def close(self) -> None:
        """Kill the agents' tmux server, stop the front; a later use opens them again."""
        self._placeholders = None
        self.world.close_tmux()
        if self._front is not None:
            front, self._front = self._front, None
            front.stop()

    # -- the daemon --------------------------------------------------------------

    def check_tools(self) -> None:
        for tool, hint in (("tmux", "apt-get install tmux"), ("git", "apt-get install git")):
            if shutil.which(tool, path=self.base_env.get("PATH")) is None:
                raise ToolMissingError(f"{tool} is not installed; install it ({hint})")

    def version(self) -> tuple[str | None, str | None]:
        """AO's commit and tag for a build ghbench knows; a build it does not has no
        checkout to read them from."""
        known = self.build.known
        return (known.commit, known.tag) if known is not None else (None, None)

    def _ao(self, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        """An ``ao`` subcommand against the running daemon; its own words on failure."""
        assert self._api is not None, "the daemon runs first"
        env = self.world.cli_env(self.base_env, self._api.port)
        return run_ao(self._command(), args, env=env, cwd=self.world.home, timeout=timeout)

    def start(self, sink: TraceSink | None, env: Mapping[str, str]) -> None:
        """Start the daemon behind the front, tracing the window to ``sink``. ``env`` (the
        backend's gh routing) is not used: the front is the daemon's only route."""
        front = self._open()
        self.world.sync_data()
        self._trace = None if sink is None else sink.path
        front.switch_trace(self._trace, None if sink is None else sink.agents)
        self._keep_sessions_alive()
        port = free_loopback_port()
        self._starts += 1
        daemon_env = self.world.daemon_env(self.base_env, self._route(front), self._tokens(), port)
        self._proc = start_process(
            [*self._command().argv(), "daemon"],
            name="ao",
            env=daemon_env,
            cwd=self.world.home,
            log_path=self.world.logs / f"ao-daemon-{self._starts}.log",
        )
        self._api = DaemonApi(port)
        self._wait_ready()
        self._register_projects()
        self._kill_doomed()

    def _wait_ready(self) -> None:
        assert self._proc is not None and self._api is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            code = self._proc.returncode
            if code is not None:
                said = ao_error_line(self._proc.log_tail(40))
                raise GhbenchError(f"'ao daemon' exited with code {code}: {said}")
            if self._api.ready():
                return
            time.sleep(0.1)
        raise GhbenchError(
            f"'ao daemon' was not ready within {self.startup_timeout:g} s; see"
            f" {self._proc.log_path}"
        )

    def _register_projects(self) -> None:
        assert self._api is not None
        known = self._api.project_ids()
        for project in self.projects:
            if project.id not in known:
                clone = self.world.checkout(project)
                self._ao(
                    "project", "add", "--path", str(clone), "--id", project.id,
                    "--worker-agent", AGENT_HARNESS,
                )  # fmt: skip

    def stop(self, deadline: float) -> StopResult:
        result = super().stop(deadline)
        self._api = None
        return result

    # -- sessions ----------------------------------------------------------------

    def _keep_sessions_alive(self) -> None:
        """A placeholder for every session ghbench spawned that has none running: the
        daemon adopts them at start instead of relaunching their agents."""
        assert self._placeholders is not None
        tmux = self._placeholders.tmux
        for sid, meta in self.registry.load().items():
            if tmux.has_session(sid):
                continue
            worktree = Path(str(meta.get("worktree") or self.world.home))
            self._placeholders.ensure(sid, worktree if worktree.is_dir() else self.world.home)

    def _kill_doomed(self) -> None:
        """Sessions a setup no longer keeps: killed through the daemon (it terminates
        them for good), then forgotten."""
        if not self._doomed:
            return
        registry = self.registry.load()
        for sid in sorted(self._doomed):
            self._ao("session", "kill", sid)
            registry.pop(sid, None)
        self.registry.save(registry)
        self._doomed.clear()

    def _spawn(self, project: Project, issues: Sequence[int]) -> None:
        """``ao spawn`` of one session per issue in ``project``; this line's database
        now holds ghbench's sessions."""
        self.world.claim_sessions()
        for issue in issues:
            args = self.build.version.spawn_args(project.id, issue, AGENT_HARNESS)
            self._ao(*args, timeout=self.spawn_timeout)

    def spawn(self, issues: Sequence[int]) -> None:
        assert self._api is not None, "the daemon runs first"
        if len(self.projects) != 1:
            raise GhbenchError("spawning needs one project; spawn in each project's driver")
        self._before_spawn = set(self._api.session_ids())
        self._spawn(self.projects[0], issues)

    def discover_sessions(self) -> list[Session]:
        assert self._api is not None, "the daemon runs first"
        registry = self.registry.load()
        found: list[Session] = []
        for row in self._api.sessions():
            if row.session_id in self._before_spawn or row.project not in self._project_ids():
                continue
            worktree = self._worktree(row.project, row.branch)
            found.append(
                Session(
                    session_id=row.session_id,
                    issue=row.issue,
                    branch=row.branch,
                    worktree_path=None if worktree is None else str(worktree),
                )
            )
            registry[row.session_id] = {
                "project": row.project,
                "issue": row.issue,
                "branch": row.branch,
                "worktree": None if worktree is None else str(worktree),
            }
        self.registry.save(registry)
        self._spawned = [s.session_id for s in found]
        return found

    def _project_ids(self) -> set[str]:
        return {p.id for p in self.projects}

    def _worktree(self, project_id: str, branch: str | None) -> Path | None:
        """The worktree the daemon made for ``branch`` in the project's clone."""
        project = next(p for p in self.projects if p.id == project_id)
        found = [path for path, b in worktrees(self.world.checkout(project)) if b == branch]
        return found[0] if branch is not None and found else None

    def stop_agents(self) -> None:
        """Each spawned agent replaced by a placeholder in its own pane: the session stays
        alive for the daemon (a vanished one it would terminate)."""
        assert self._placeholders is not None
        for sid in self._spawned:
            self._placeholders.tmux.respawn(sid, PLACEHOLDER_COMMAND)

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        """Sessions ghbench spawned whose worktree no setup keeps: killed through the
        daemon at its next start (and their worktrees with them)."""
        kept = {Path(p).resolve() for p in keep}
        stale = []
        for sid, meta in self.registry.load().items():
            worktree = meta.get("worktree")
            if meta.get("project") not in self._project_ids():
                continue
            if worktree and Path(str(worktree)).resolve() in kept:
                continue
            self._doomed.add(sid)
            stale.append(Path(str(worktree or sid)))
        return stale

    def check_sessions(self, sessions: Sequence[Session]) -> list[str]:
        refused = self.world.unreadable()
        if refused is not None:
            return [refused]
        registry = self.registry.load()
        problems = []
        for s in sessions:
            if s.session_id not in registry:
                problems.append(f"{s.session_id}: not a session of {self.world.root}")
            elif not Path(s.worktree).is_dir():
                problems.append(f"{s.session_id}: worktree {s.worktree} is gone")
        return problems

    def prepare_measure(self, sessions: Sequence[Session]) -> None:
        self._open()  # the placeholders are made at start, for every session it has

    def finish_measure(self) -> TracingReport:
        """End the window's trace; what the front saw that the window's notes should say."""
        if self._front is None or self._trace is None:
            return TracingReport()
        counts = self._front.switch_trace(None)
        self._trace = None
        return front_notes(counts)

    def spawn_storm(self, counts: Mapping[str, int]) -> SpawnStorm:
        """S3: ``ao spawn`` of every session into the running daemon, each project its
        share; the daemon finds their PRs itself."""
        assert self._api is not None, "the daemon runs first"
        spawned: list[str] = []
        for project in self.projects:
            wanted = counts[project.repo]
            before = set(self._api.session_ids())
            self._spawn(project, range(1, wanted + 1))
            new = [s for s in self._api.session_ids() if s not in before]
            if len(new) != wanted:
                raise GhbenchError(
                    f"S3: 'ao spawn' in {project.id} started {len(new)} of {wanted} sessions,"
                    " so the window would not measure the cell's scale"
                )
            spawned.extend(new)
        self._spawned = spawned
        return SpawnStorm((), storm_note(spawned, "ao spawn"), False)

    def open_dashboard(self, view: DashboardView) -> Dashboard:
        assert self._api is not None, "the daemon runs first"
        return DaemonDashboard(self._api, view, self.build.name)
