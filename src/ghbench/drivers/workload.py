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
- ``prepare_measure`` writes the model's config from the setup artifact's sessions.

Its sessions are recorded in ``{work_dir}/sessions.json``; worktrees live under
``{work_dir}/worktrees/{session id}``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.base import BenchSession, OwnsProcess, SessionInfo
from ghbench.drivers.env import orchestrator_env
from ghbench.errors import ToolMissingError
from ghbench.github.backend import Backend
from ghbench.gitinfo import git_head
from ghbench.procs import ManagedProcess, start_process
from ghbench.workload.config import WorkloadConfig, dump_workload_config, workload_config_from
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName
from ghbench.workload.setup_actions import create_session_prs, open_api_client

__all__ = ["SpreadWorkloadDriver", "WorkloadDriver", "WorkloadOptions"]


@dataclass(frozen=True)
class WorkloadOptions:
    """How the model runs: its profile, transport and any policy overrides."""

    profile: ProfileName = DEFAULT_PROFILE
    transport: str = "gh"  # gh (the real gh CLI) | http
    gh_path: str = "gh"
    policy: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0


@dataclass
class WorkloadDriver(OwnsProcess):
    """Drives ``ghbench workload run`` for one project."""

    project_id: str
    repo: str
    prefix: str
    work_dir: Path
    backend: Backend
    options: WorkloadOptions = field(default_factory=WorkloadOptions)
    base_env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    name: str = "workload"
    _proc: ManagedProcess | None = field(default=None, repr=False)
    _config: Path | None = field(default=None, repr=False)
    _spawned: list[str] = field(default_factory=list, repr=False)

    # -- paths and registry -------------------------------------------------

    @property
    def registry_path(self) -> Path:
        return self.work_dir / "sessions.json"

    @property
    def worktrees_dir(self) -> Path:
        return self.work_dir / "worktrees"

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.registry_path.read_text())
        except FileNotFoundError:
            return {}
        sessions = data.get("sessions", {}) if isinstance(data, dict) else {}
        return {str(k): dict(v) for k, v in sessions.items() if isinstance(v, dict)}

    def _save(self, sessions: Mapping[str, Mapping[str, Any]]) -> None:
        body = json.dumps({"sessions": sessions}, indent=2, sort_keys=True) + "\n"
        replace_atomic(self.registry_path, body.encode())

    def _next_ids(self, count: int, taken: Collection[str]) -> list[str]:
        used = {
            int(sid.rsplit("-", 1)[1])
            for sid in taken
            if sid.startswith(f"{self.prefix}-") and sid.rsplit("-", 1)[1].isdigit()
        }
        for path in self.worktrees_dir.glob(f"{self.prefix}-*"):
            tail = path.name.rsplit("-", 1)[1]
            if tail.isdigit():
                used.add(int(tail))
        out: list[str] = []
        n = 1
        while len(out) < count:
            if n not in used:
                out.append(f"{self.prefix}-{n}")
            n += 1
        return out

    # -- the Driver interface -----------------------------------------------

    def check_tools(self) -> None:
        if self.options.transport == "gh" and shutil.which(self.options.gh_path) is None:
            raise ToolMissingError(
                f"'{self.options.gh_path}' (the GitHub CLI) is not installed; install gh"
                " (apt-get install gh) or use --transport http"
            )

    def version(self) -> tuple[str | None, str | None]:
        return git_head(Path(__file__).resolve().parents[3])

    def _repos(self) -> list[str]:
        """The repos the model polls (Guard 1)."""
        return [self.repo]

    def _repo_of(self, session_id: str) -> str:
        return self.repo

    def workload_config(self, sessions: Sequence[BenchSession]) -> WorkloadConfig:
        """The model's config for ``sessions`` against this driver's backend."""
        specs = [
            {
                "id": s.session_id,
                "repo": self._repo_of(s.session_id),
                "issue": s.issue,
                "branch": s.branch,
                "pr": s.pr_number,
            }
            for s in sessions
        ]
        raw: dict[str, Any] = {
            "version": 1,
            "profile": self.options.profile,
            "transport": self.options.transport,
            "host": self.backend.gh_host,
            "api_url": self.backend.api_url.rstrip("/") + "/",
            "token_env": "GH_TOKEN",
            "gh_path": self.options.gh_path,
            "project": self.project_id,
            "seed": self.options.seed,
            "repos": self._repos(),
            "sessions": specs,
            "policy": dict(self.options.policy),
        }
        return workload_config_from(raw, source="workload config")

    def _write_config(self, sessions: Sequence[BenchSession]) -> Path:
        path = self.work_dir / "workload.yaml"
        replace_atomic(path, dump_workload_config(self.workload_config(sessions)))
        return path

    def start(self, trace_path: Path | None, env: Mapping[str, str]) -> None:
        if self._config is None:
            self._config = self._write_config([])
        extra = dict(env)
        extra.setdefault("GH_TOKEN", self.backend.token)
        child = orchestrator_env(self.base_env, extra, trace_path)
        if trace_path is None:
            # the model always writes rows somewhere; setup's go nowhere
            child["AO_GH_TRACE_FILE"] = os.devnull
        argv = [sys.executable, "-m", "ghbench", "workload", "run", "--config", str(self._config)]
        self._proc = start_process(
            argv,
            name="workload",
            env=child,
            cwd=self.work_dir,
            log_path=self.work_dir / "logs" / "workload.log",
        )

    def log_tail(self) -> str:
        return "" if self._proc is None else self._proc.log_tail()

    def spawn(self, issues: Sequence[int]) -> None:
        registry = self._load()
        ids = self._next_ids(len(issues), registry)
        pairs = list(zip(ids, issues, strict=True))
        with open_api_client(self.backend.api_url, self.backend.token) as client:
            if self.backend.name == "emulator":
                # the agent's push of its first commit, through the emulator's control
                # API; on GitHub the setup actions commit through the contents API
                for _, issue in pairs:
                    branch = f"feat/issue-{issue}"
                    if client.get(f"repos/{self.repo}/git/ref/heads/{branch}").status_code == 404:
                        self.backend.push_branch(self.repo, branch, f"Work on #{issue}")
            specs = create_session_prs(client, self.repo, pairs)
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
        self._save(registry)
        self._spawned = [spec.id for spec in specs]

    def discover_sessions(self) -> list[SessionInfo]:
        registry = self._load()
        out = []
        for sid in self._spawned:
            entry = registry.get(sid, {})
            issue = entry.get("issue")
            out.append(
                SessionInfo(
                    session_id=sid,
                    issue=int(issue) if issue is not None else None,
                    branch=entry.get("branch"),
                    worktree_path=Path(entry["worktree"]) if entry.get("worktree") else None,
                )
            )
        return out

    def stop_agents(self) -> None:
        # The model's "agents" finished when spawn returned; mark them done.
        registry = self._load()
        for sid in self._spawned:
            if sid in registry:
                registry[sid]["status"] = "stopped"
        self._save(registry)

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        kept = {Path(p).resolve() for p in keep}
        registry = self._load()
        removed: list[Path] = []
        if self.worktrees_dir.is_dir():
            for path in sorted(self.worktrees_dir.iterdir()):
                if path.resolve() in kept or not path.is_dir():
                    continue
                shutil.rmtree(path)
                registry.pop(path.name, None)
                removed.append(path)
        if removed:
            self._save(registry)
        return removed

    def check_sessions(self, sessions: Sequence[BenchSession]) -> list[str]:
        return [
            f"{s.session_id}: worktree {s.worktree_path} is missing"
            for s in sessions
            if not s.worktree_path.is_dir()
        ]

    def prepare_measure(self, sessions: Sequence[BenchSession], repo: str) -> None:
        self.repo = repo
        self._config = self._write_config(sessions)

    def finish_measure(self) -> None:
        return None

    def close(self) -> None:
        return None  # the model is one process; stop() has stopped it


@dataclass
class SpreadWorkloadDriver(WorkloadDriver):
    """The workload model over several repos (T2): each session polls its own repo."""

    session_repos: Mapping[str, str] = field(default_factory=dict)
    all_repos: tuple[str, ...] = ()

    def _repos(self) -> list[str]:
        return list(self.all_repos or (self.repo,))

    def _repo_of(self, session_id: str) -> str:
        return self.session_repos.get(session_id, self.repo)
