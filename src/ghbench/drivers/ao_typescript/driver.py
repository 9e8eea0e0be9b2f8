"""The AO driver: drives a real agent-orchestrator CLI through its documented commands.

The CLI is ``node <checkout>/packages/cli/dist/index.js`` (``--ao CHECKOUT``), an ``ao``
executable (``--ao PATH``), or ``ao`` on ``PATH``. Commands used: ``start P
--no-dashboard`` (foreground poller; without ``--no-dashboard`` when the driver runs
AO's dashboard, for the matrix's S6), ``batch-spawn``, ``session ls --json`` (no GitHub
calls). ``ao status`` is never run: it makes four gh calls per session and would
pollute the trace.

Where AO runs (``world``, ``runtime``): never in the user's checkout, config,
HOME, gh login or tmux server. Each project gets a private world under
``OUT/state/ao/<project>`` (a HOME, a clone of the checkout, a derived config) and, for
the run, a private tmux server started with the environment that routes gh and git to
the run's GitHub. On the emulator, the clone's default branch is pushed there first, so
the emulator's repository holds the user's code, as GitHub does.

No agent runs unless setup spawns it: before every ``ao start`` the project's
orchestrator session is written as live, with a placeholder in its tmux session, so AO
reuses it instead of launching an orchestrator agent (which would run ``ao status``).

Stopping: SIGTERM to AO's own pid first, so its shutdown runs (current AO marks its
sessions killed and writes ``last-stop.json``), then a short grace for gh calls in
flight, then the process group. A group SIGTERM at once would kill those calls mid-way
and leave failure rows in the trace.

Keeping sessions measurable (AO reference §9):

- after setup, agents are gone; ``prepare_measure`` restores, before every
  measurement, each session's metadata (``status: pr_open`` and its PR URL, in the
  layout AO uses), its worktree if AO removed it, and a placeholder agent in a
  tmux session of the right name; ``finish_measure`` removes the placeholders by
  exact name;
- stopping a current AO marks every session killed and removes their worktrees.
  ghbench does not fight that: the stop is the end of a window, and the next
  ``measure`` restores metadata, worktrees (``git worktree add`` from the session's
  branch, which the stop leaves in place) and placeholders again. A session whose
  worktree and branch are both gone cannot be restored and fails validation.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.drivers.ao_typescript.dashboard import WebDashboard
from ghbench.drivers.ao_typescript.layout import Layout, detect_layout
from ghbench.drivers.ao_typescript.runtime import AoRouting, AoRuntime
from ghbench.drivers.ao_typescript.world import AoWorld
from ghbench.drivers.base import (
    Dashboard,
    DashboardView,
    OwnsProcess,
    Session,
    SpawnStorm,
    TraceSink,
    TracingReport,
)
from ghbench.drivers.common import checkouts
from ghbench.drivers.common.agent_launcher import install_agent
from ghbench.drivers.common.ao_cli import AoCommand, ao_error_line, run_ao, storm_note
from ghbench.drivers.common.tmux import Placeholders, Tmux
from ghbench.drivers.project import Project
from ghbench.errors import GhbenchError, ToolMissingError
from ghbench.gitinfo import git_head, run_git
from ghbench.procs import ManagedProcess, start_process
from ghbench.proctable import group_listeners
from ghbench.workload.agents.profiles import AgentProfileName

__all__ = ["AoDriver"]

SPAWN = "ao batch-spawn"  # how the sessions are spawned, as an S3 cell notes it
ORCHESTRATOR_WORKSPACE = ".ghbench-orchestrator"  # under AO's HOME; AO may delete it
_ISSUE_NUMBER = re.compile(r"(\d+)\D*$")


def _issue_number(value: Any) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        m = _ISSUE_NUMBER.search(value)
        if m:
            return int(m.group(1))
    return None


@dataclass
class AoDriver(OwnsProcess):
    """Drives one AO project in a private world (see the module's docstring).

    ``project`` is the user's; ``world`` is where AO runs it; ``routing`` says, once
    the backend runs, where gh and git go. ``agent_traces``: a directory for the
    agents' traces of setup (measure puts them beside the orchestrator's trace).
    ``agent_model``: a profile of ghbench's agent model that AO launches as its
    sessions' ``claude`` (``ghbench.drivers.common.agent_launcher``); None: whatever
    ``claude`` the user's PATH has.
    """

    project: Project
    command: AoCommand
    world: AoWorld
    routing: Callable[[], AoRouting]
    layout: str = "auto"
    base_env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    agent_traces: Path | None = None
    publish_default_branch: bool = False  # push it to the run's GitHub (the emulator)
    startup_timeout: float = 30.0
    spawn_timeout: float = 120.0
    dashboard: bool = False  # start AO's dashboard too (S6); its port is in the config
    agent_model: AgentProfileName | None = None
    agent_speed: float = 1.0  # the agent model's sessions this many times faster
    name: str = "ao"
    per_project_processes: bool = True  # ``ao start P`` polls project P alone
    _proc: ManagedProcess | None = field(default=None, repr=False)
    _runtime: AoRuntime | None = field(default=None, repr=False)
    _extra_env: dict[str, str] = field(default_factory=dict, repr=False)
    _before_spawn: set[str] = field(default_factory=set, repr=False)
    _spawned: list[str] = field(default_factory=list, repr=False)
    _placeholders: Placeholders | None = field(default=None, repr=False)
    _starts: int = 0

    @property
    def project_id(self) -> str:
        return self.project.id

    # -- the private world ---------------------------------------------------

    @property
    def bench(self) -> Project:
        """The project as AO runs it: ghbench's clone and derived config."""
        return self.world.bench_project

    @property
    def home(self) -> Path:
        return self.world.home

    @property
    def running_path(self) -> Path:
        return self.home / ".agent-orchestrator" / "running.json"

    def _open(self) -> AoRuntime:
        """The world, the runtime and its tmux server, made once per driver."""
        if self._runtime is None:
            self.world.prepare(checkouts.user_gitconfig(self.base_env))
            runtime = AoRuntime(self.world, self.base_env, self.routing())
            runtime.open()
            self._runtime = runtime
            if self.agent_model is not None:
                install_agent(runtime.bin_dir, self.agent_model, sys.executable, self.agent_speed)
            if self.publish_default_branch:
                checkouts.publish_default_branch(self.project, self.bench.path, self._env())
        return self._runtime

    def close(self) -> None:
        """Kill the private tmux server (placeholders, agents) and its directory; a
        later use opens a new one."""
        self._placeholders = None  # they lived on that server
        if self._runtime is not None:
            self._runtime.close()
            self._runtime = None

    def _env(self, trace_path: Path | None = None, wrapper: Path | None = None) -> dict[str, str]:
        env = self._open().env(trace_path, wrapper_trace=wrapper)
        env.update(self._extra_env)
        if self.dashboard:
            # AO opens its dashboard in the default browser once it is up: a second
            # reader whose page loads the cell would not count. BROWSER is what
            # xdg-open runs outside a desktop session.
            env["BROWSER"] = "true"
        return env

    def _tmux(self) -> Tmux:
        return self._open().tmux()

    def _ao(self, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        return run_ao(self.command, args, env=self._env(), cwd=self.bench.path, timeout=timeout)

    def _git(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return run_git("-C", str(cwd or self.bench.path), *args)

    def _layout(self) -> Layout | None:
        return detect_layout(
            self.layout,
            home=self.home,
            project_id=self.bench.id,
            config_path=self.bench.config_path,
            project_path=self.bench.path,
            checkout=self.command.checkout,
        )

    def _required_layout(self) -> Layout:
        layout = self._layout()
        if layout is None:
            raise GhbenchError(
                f"cannot tell which AO storage layout {self.command.spec or 'ao'} uses and"
                f" none is under {self.home / '.agent-orchestrator'}; pass --ao-layout json"
                " (AO since its storage redesign) or kv (older AO)"
            )
        return layout

    def _session_list(self) -> list[dict[str, Any]]:
        proc = self._ao("session", "ls", "--json", "--include-terminated")
        try:
            doc = json.loads(proc.stdout)
        except ValueError:
            raise GhbenchError("'ao session ls --json' did not print JSON") from None
        rows = doc.get("data", []) if isinstance(doc, dict) else doc
        return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []

    def _ours(self, row: Mapping[str, Any]) -> bool:
        project = row.get("projectId") or row.get("projectName")
        sid = str(row.get("id", ""))
        return (
            project in (None, self.project.id)
            and row.get("role") != "orchestrator"
            and "orchestrator" not in sid
        )

    def _ensure_orchestrator(self) -> None:
        """The orchestrator session as AO will find it: live, with a placeholder agent."""
        layout = self._required_layout()
        workspace = self.home / ORCHESTRATOR_WORKSPACE
        workspace.mkdir(parents=True, exist_ok=True)
        tmux_name = layout.mark_orchestrator_live(
            self.bench.session_prefix, workspace, self.bench.default_branch
        )
        if self._placeholders is None:
            self._placeholders = Placeholders(self._tmux())
        self._placeholders.ensure(tmux_name, workspace)

    # -- the Driver interface ------------------------------------------------

    def check_tools(self) -> None:
        self.command.argv()
        for tool, hint in (
            ("tmux", "apt-get install tmux"),
            ("git", "apt-get install git"),
            ("gh", "apt-get install gh"),
        ):
            if shutil.which(tool, path=self.base_env.get("PATH")) is None:
                raise ToolMissingError(f"{tool} is not installed; install it ({hint})")

    def version(self) -> tuple[str | None, str | None]:
        checkout = self.command.checkout
        return git_head(checkout) if checkout is not None else (None, None)

    def start(self, sink: TraceSink | None, env: Mapping[str, str]) -> None:
        runtime = self._open()
        self._extra_env = {k: v for k, v in env.items() if k not in runtime.routing.env}
        self._starts += 1
        self._ensure_orchestrator()
        agents = self._agent_trace(sink)
        runtime.trace_agents(agents)
        wrapper = None
        if agents is not None:
            wrapper = agents.with_name(agents.name.replace("gh-trace-agents-", "ao-agent-wrapper-"))
        argv = [*self.command.argv(), "start", self.bench.id]
        if not self.dashboard:
            argv.append("--no-dashboard")
        self._proc = start_process(
            argv,
            name="ao",
            env=self._env(None if sink is None else sink.path, wrapper),
            cwd=self.bench.path,
            log_path=self.world.logs / f"ao-start-{os.getpid()}-{self._starts}.log",
        )
        self._wait_registered()

    def _agent_trace(self, sink: TraceSink | None) -> Path | None:
        if sink is not None:
            return sink.agents
        if self.agent_traces is None:
            return None
        self.agent_traces.mkdir(parents=True, exist_ok=True)
        stamp = int(time.time())
        return self.agent_traces / f"gh-trace-agents-setup-{self.project.id}-{stamp}.jsonl"

    def _wait_registered(self) -> None:
        """Wait until AO lists itself in running.json; fail clearly if it exits instead."""
        assert self._proc is not None
        running = self.running_path
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            code = self._proc.returncode
            if code is not None:
                said = ao_error_line(self._proc.log_tail(40))
                if code == 0:
                    raise GhbenchError(
                        "'ao start' exited at once: another AO is running for this HOME"
                        f" ({self.home}; it attached to it); stop that one and retry"
                    )
                raise GhbenchError(f"'ao start' exited with code {code}: {said}")
            try:
                if json.loads(running.read_text()).get("pid") == self._proc.pid:
                    return
            except (FileNotFoundError, ValueError, AttributeError):
                pass
            time.sleep(0.1)
        raise GhbenchError(
            f"'ao start' did not register within {self.startup_timeout:g} s"
            f" (no {running}); see {self._proc.log_path}"
        )

    def dashboard_url(self) -> str:
        """The running AO's dashboard on loopback: the port AO registered in running.json.

        AO moves to the next free port when the configured one is taken, and records
        the one it bound.
        """
        try:
            port = json.loads(self.running_path.read_text()).get("port")
        except (OSError, ValueError, AttributeError):
            port = None
        if not isinstance(port, int):
            raise GhbenchError(
                f"AO registered no dashboard port in {self.running_path}; is its dashboard on?"
            )
        return f"http://127.0.0.1:{port}"

    def listeners(self) -> list[tuple[str, int]]:
        """Where AO's process group (AO, its dashboard's servers) listens for TCP."""
        return [] if self._proc is None else group_listeners(self._proc.pid)

    def require_loopback(self) -> list[tuple[str, int]]:
        """AO's listeners, all on loopback; otherwise an error naming the others."""
        found = self.listeners()
        exposed = [f"{a}:{p}" for a, p in found if not ipaddress.ip_address(a).is_loopback]
        if exposed:
            raise GhbenchError(
                f"AO listens beyond loopback ({', '.join(exposed)}): its dashboard would be"
                " reachable from the network; ghbench refuses to measure with it exposed"
            )
        return found

    def spawn(self, issues: Sequence[int]) -> None:
        self._before_spawn = {str(r.get("id")) for r in self._session_list()}
        self._ao("batch-spawn", *map(str, issues), timeout=self.spawn_timeout + 30 * len(issues))

    def discover_sessions(self) -> list[Session]:
        out: list[Session] = []
        for row in self._session_list():
            sid = str(row.get("id", ""))
            if not sid or sid in self._before_spawn or not self._ours(row):
                continue
            worktree = row.get("workspacePath") or row.get("worktree")
            path = Path(worktree) if isinstance(worktree, str) and worktree else None
            branch = row.get("branch") if isinstance(row.get("branch"), str) else None
            if branch is None and path is not None and path.is_dir():
                proc = self._git("branch", "--show-current", cwd=path)
                branch = proc.stdout.strip() or None
            out.append(
                Session(
                    session_id=sid,
                    issue=_issue_number(row.get("issueId")),
                    branch=branch,
                    worktree_path=None if path is None else str(path),
                )
            )
        self._spawned = [s.session_id for s in out]
        return out

    def _tmux_name(self, layout: Layout | None, sid: str) -> str:
        meta = layout.read(sid) if layout is not None else None
        if meta and isinstance(meta.get("tmuxName"), str) and meta["tmuxName"]:
            return str(meta["tmuxName"])
        return layout.tmux_name(sid) if layout is not None else sid

    def stop_agents(self) -> None:
        layout, tmux = self._layout(), self._tmux()
        for sid in self._spawned:
            tmux.kill_session(self._tmux_name(layout, sid))

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        self._open()
        kept = {Path(p).resolve() for p in keep}
        session_dir = re.compile(rf"^{re.escape(self.bench.session_prefix)}-\d+$")
        layout, tmux = self._layout(), self._tmux()
        removed: list[Path] = []
        for path, _ in checkouts.worktrees(self.bench.path):
            if not session_dir.match(path.name) or path.resolve() in kept:
                continue
            if tmux.has_session(self._tmux_name(layout, path.name)):
                continue  # its agent is alive
            if self._git("worktree", "remove", "--force", str(path)).returncode == 0:
                removed.append(path)
        self._git("worktree", "prune")
        return removed

    def _branch_exists(self, branch: str) -> bool:
        return self._git("rev-parse", "--verify", "--quiet", f"refs/heads/{branch}").returncode == 0

    def check_sessions(self, sessions: Sequence[Session]) -> list[str]:
        self._open()
        problems = []
        for s in sessions:
            if s.worktree.is_dir() or self._branch_exists(s.head):
                continue
            problems.append(
                f"{s.session_id}: worktree {s.worktree} and branch {s.head} are both gone"
            )
        return problems

    def prepare_measure(self, sessions: Sequence[Session]) -> None:
        if self._placeholders is None:
            self._placeholders = Placeholders(self._tmux())
        if not sessions:  # the matrix's S3 spawns them inside the window
            return
        layout = self._required_layout()
        self._git("worktree", "prune")
        for s in sessions:
            worktree = s.worktree
            if not worktree.is_dir():
                worktree.parent.mkdir(parents=True, exist_ok=True)
                proc = self._git("worktree", "add", str(worktree), s.head)
                if proc.returncode != 0:
                    raise GhbenchError(
                        f"{s.session_id}: cannot restore worktree {worktree}:"
                        f" {proc.stderr.strip()[:200]}"
                    )
            layout.mark_pr_open(
                {
                    "id": s.session_id,
                    "worktree": str(worktree),
                    "branch": s.head,
                    "pr": s.pr_url or "",
                    "project": self.project.id,
                }
            )
            self._placeholders.ensure(layout.tmux_name(s.session_id), worktree)

    def finish_measure(self) -> TracingReport:
        if self._placeholders is not None:
            self._placeholders.remove_all()
            self._placeholders = None
        # AO traces its own calls and counts no row it fails to write (the window
        # watches the trace's disk instead)
        return TracingReport()

    # -- the matrix's scenarios ----------------------------------------------

    def spawn_in_window(self, wanted: int) -> list[str]:
        """S3 at t0: ``batch-spawn`` issues #1..``wanted`` into the running AO, from this
        project's directory (so AO picks this project).

        The new sessions are read back from ``ao session ls`` (no GitHub call): their ids
        are returned, and the driver remembers them, so its ``stop_agents`` stops them
        after the window. Fewer sessions than asked fail the cell: the window would not
        measure its scale.
        """
        self.spawn(list(range(1, wanted + 1)))
        found = [info.session_id for info in self.discover_sessions()]
        if len(found) != wanted:
            raise GhbenchError(
                f"S3: 'ao batch-spawn' in {self.project.id} started {len(found)} of {wanted}"
                " sessions, so the window would not measure the cell's scale"
            )
        return found

    def spawn_storm(self, counts: Mapping[str, int]) -> SpawnStorm:
        # AO's poller finds the new sessions itself; no restart, nothing to tell it
        return SpawnStorm(
            (), storm_note(self.spawn_in_window(counts[self.project.repo]), SPAWN), False
        )

    def open_dashboard(self, view: DashboardView) -> Dashboard:
        return WebDashboard(self.dashboard_url(), view, self.require_loopback)
