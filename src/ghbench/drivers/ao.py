"""The AO driver: drives a real agent-orchestrator CLI through its documented commands.

The CLI is ``node <checkout>/packages/cli/dist/index.js`` (``--ao CHECKOUT``), an ``ao``
executable (``--ao PATH``), or ``ao`` on ``PATH``. Commands used: ``start P
--no-dashboard`` (foreground poller; SIGTERM stops it; without ``--no-dashboard`` when
the driver runs AO's dashboard, for the matrix's S6), ``batch-spawn``, ``session ls
--json`` (no GitHub calls). ``ao status`` is never run: it makes four gh calls per
session and would pollute the trace. Commands run in the project's directory, so an AO
config with several projects resolves ``batch-spawn`` to this one (AO matches the
working directory to a project's path).

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

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.drivers.ao_layout import Layout, detect_layout
from ghbench.drivers.base import BenchSession, OwnsProcess, SessionInfo
from ghbench.drivers.env import orchestrator_env
from ghbench.drivers.placeholders import Placeholders, Tmux
from ghbench.drivers.project import Project
from ghbench.errors import GhbenchError, ToolMissingError
from ghbench.gitinfo import git_head
from ghbench.procs import ManagedProcess, start_process

__all__ = ["AoCommand", "AoDriver", "resolve_ao_command"]

CLI_ENTRY = Path("packages") / "cli" / "dist" / "index.js"
_ISSUE_NUMBER = re.compile(r"(\d+)\D*$")


@dataclass(frozen=True)
class AoCommand:
    """How to run AO; resolved lazily so ``--help`` never fails on a missing AO."""

    spec: str | None
    env_path: str | None = None

    @property
    def checkout(self) -> Path | None:
        if self.spec and Path(self.spec).expanduser().is_dir():
            return Path(self.spec).expanduser().resolve()
        return None

    def argv(self) -> list[str]:
        checkout = self.checkout
        if checkout is not None:
            entry = checkout / CLI_ENTRY
            if not entry.is_file():
                raise ToolMissingError(
                    f"{entry} does not exist; build AO first (pnpm install && pnpm build in"
                    f" {checkout})"
                )
            node = shutil.which("node", path=self.env_path)
            if node is None:
                raise ToolMissingError("node is not installed; install Node.js 20 or newer")
            return [node, str(entry)]
        if self.spec:
            path = Path(self.spec).expanduser()
            if path.is_file() and os.access(path, os.X_OK):
                return [str(path.resolve())]
            found = shutil.which(self.spec, path=self.env_path)
            if found:
                return [found]
            raise ToolMissingError(
                f"--ao {self.spec}: not an AO checkout or an executable; pass the checkout"
                " directory or the ao executable"
            )
        found = shutil.which("ao", path=self.env_path)
        if found is None:
            raise ToolMissingError(
                "AO's CLI was not found: pass --ao <checkout dir or ao executable>,"
                " set GHBENCH_AO, or put ao on PATH"
            )
        return [found]


def resolve_ao_command(flag: str | None, env: Mapping[str, str]) -> AoCommand:
    return AoCommand(spec=flag or env.get("GHBENCH_AO") or None, env_path=env.get("PATH"))


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
    """Drives one AO project."""

    project: Project
    command: AoCommand
    layout: str = "auto"
    base_env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    log_dir: Path = Path("ghbench-out/state/ao")
    startup_timeout: float = 30.0
    spawn_timeout: float = 120.0
    dashboard: bool = False  # start AO's dashboard too (S6); its port is in the config
    name: str = "ao"
    _proc: ManagedProcess | None = field(default=None, repr=False)
    _extra_env: dict[str, str] = field(default_factory=dict, repr=False)
    _before_spawn: set[str] = field(default_factory=set, repr=False)
    _spawned: list[str] = field(default_factory=list, repr=False)
    _placeholders: Placeholders | None = field(default=None, repr=False)
    _starts: int = 0

    # -- helpers -------------------------------------------------------------

    @property
    def home(self) -> Path:
        return Path(self.base_env.get("HOME") or Path.home())

    @property
    def cwd(self) -> Path:
        cfg = self.project.config_path
        if cfg is None or self.project.path.is_dir():
            return self.project.path
        return cfg.parent

    @property
    def running_path(self) -> Path:
        return self.home / ".agent-orchestrator" / "running.json"

    def _env(self, trace_path: Path | None) -> dict[str, str]:
        env = orchestrator_env(self.base_env, self._extra_env, trace_path)
        env["AO_NO_UPDATE_NOTIFIER"] = "1"
        if self.project.config_path is not None:
            env["AO_CONFIG_PATH"] = str(self.project.config_path)
        if self.dashboard:
            # AO opens its dashboard in the default browser once it is up: a second
            # reader whose page loads the cell would not count. BROWSER is what
            # xdg-open runs outside a desktop session.
            env["BROWSER"] = "true"
            # loopback only, where AO honours it (AO reference §9: HEAD's dashboard
            # listened on every interface)
            env["HOST"] = "127.0.0.1"
        return env

    def _tmux(self) -> Tmux:
        return Tmux(self._env(None))

    def _ao(self, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        argv = [*self.command.argv(), *args]
        try:
            return subprocess.run(
                argv,
                env=self._env(None),
                cwd=self.cwd,
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            raise GhbenchError(f"'ao {args[0]}' did not finish within {timeout:g} s") from None

    def _git(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "-C", str(cwd or self.project.path), *args],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )

    def _layout(self) -> Layout | None:
        return detect_layout(
            self.layout,
            home=self.home,
            project_id=self.project.id,
            config_path=self.project.config_path,
            project_path=self.project.path,
        )

    def _required_layout(self) -> Layout:
        layout = self._layout()
        if layout is None:
            raise GhbenchError(
                f"no AO session metadata under {self.home / '.agent-orchestrator'} for project"
                f" {self.project.id}; run setup first or pass --ao-layout json|kv"
            )
        return layout

    def _session_list(self) -> list[dict[str, Any]]:
        proc = self._ao("session", "ls", "--json", "--include-terminated")
        if proc.returncode != 0:
            raise GhbenchError(f"'ao session ls --json' failed: {proc.stderr.strip()[:200]}")
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

    def start(self, trace_path: Path | None, env: Mapping[str, str]) -> None:
        self._extra_env = dict(env)
        self._starts += 1
        argv = [*self.command.argv(), "start", self.project.id]
        if not self.dashboard:
            argv.append("--no-dashboard")
        self._proc = start_process(
            argv,
            name="ao",
            env=self._env(trace_path),
            cwd=self.cwd,
            log_path=self.log_dir / f"ao-start-{os.getpid()}-{self._starts}.log",
        )
        self._wait_registered()

    def _wait_registered(self) -> None:
        """Wait until AO lists itself in running.json; fail clearly if it exits instead."""
        assert self._proc is not None
        running = self.running_path
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            code = self._proc.returncode
            if code is not None:
                tail = " ".join(self._proc.log_tail(3).split())[:300]
                if code == 0:
                    raise GhbenchError(
                        "'ao start' exited at once: another AO is running for this HOME"
                        " (it attached to it); stop that one with 'ao stop' and retry"
                    )
                raise GhbenchError(f"'ao start' exited with code {code}: {tail}")
            try:
                if json.loads(running.read_text()).get("pid") == self._proc.pid:
                    return
            except (FileNotFoundError, ValueError, AttributeError):
                pass
            time.sleep(0.1)

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

    def spawn(self, issues: Sequence[int]) -> None:
        self._before_spawn = {str(r.get("id")) for r in self._session_list()}
        proc = self._ao(
            "batch-spawn", *map(str, issues), timeout=self.spawn_timeout + 30 * len(issues)
        )
        if proc.returncode != 0:
            detail = " ".join((proc.stderr or proc.stdout).split())[:300]
            raise GhbenchError(f"'ao batch-spawn' failed (code {proc.returncode}): {detail}")

    def discover_sessions(self) -> list[SessionInfo]:
        out: list[SessionInfo] = []
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
            out.append(SessionInfo(sid, _issue_number(row.get("issueId")), branch, path))
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

    def _worktrees(self) -> list[tuple[Path, str | None]]:
        proc = self._git("worktree", "list", "--porcelain")
        if proc.returncode != 0:
            return []
        out: list[tuple[Path, str | None]] = []
        path: Path | None = None
        branch: str | None = None
        for line in [*proc.stdout.splitlines(), ""]:
            if line.startswith("worktree "):
                path, branch = Path(line[len("worktree ") :]), None
            elif line.startswith("branch "):
                branch = line[len("branch ") :].removeprefix("refs/heads/")
            elif not line and path is not None:
                out.append((path, branch))
                path = None
        return out[1:]  # the first is the main checkout

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        kept = {Path(p).resolve() for p in keep}
        session_dir = re.compile(rf"^{re.escape(self.project.session_prefix)}-\d+$")
        layout, tmux = self._layout(), self._tmux()
        removed: list[Path] = []
        for path, _ in self._worktrees():
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

    def check_sessions(self, sessions: Sequence[BenchSession]) -> list[str]:
        problems = []
        for s in sessions:
            if s.worktree_path.is_dir() or self._branch_exists(s.branch):
                continue
            problems.append(
                f"{s.session_id}: worktree {s.worktree_path} and branch {s.branch} are both gone"
            )
        return problems

    def prepare_measure(self, sessions: Sequence[BenchSession], repo: str) -> None:
        self._placeholders = Placeholders(self._tmux())
        if not sessions:  # the matrix's S3 spawns them inside the window
            return
        layout = self._required_layout()
        self._git("worktree", "prune")
        for s in sessions:
            if not s.worktree_path.is_dir():
                s.worktree_path.parent.mkdir(parents=True, exist_ok=True)
                proc = self._git("worktree", "add", str(s.worktree_path), s.branch)
                if proc.returncode != 0:
                    raise GhbenchError(
                        f"{s.session_id}: cannot restore worktree {s.worktree_path}:"
                        f" {proc.stderr.strip()[:200]}"
                    )
            layout.mark_pr_open(
                {
                    "id": s.session_id,
                    "worktree": str(s.worktree_path),
                    "branch": s.branch,
                    "pr": s.pr_url,
                    "project": self.project.id,
                }
            )
            self._placeholders.ensure(layout.tmux_name(s.session_id), s.worktree_path)

    def finish_measure(self) -> None:
        if self._placeholders is not None:
            self._placeholders.remove_all()
            self._placeholders = None
