"""Where AO 0.10's daemon runs: a private HOME and data directory, ghbench's own clones,
the GitHub front it calls through, and a tmux server of its own for its agents.

AO 0.10 is a Go daemon (``ao daemon``) that keeps every project and session in
``$AO_DATA_DIR`` (SQLite, worktrees) and its run file under ``$HOME/.ao``; it calls
``https://api.github.com`` itself, and its agents (started in tmux) run gh and git.
ghbench never runs it in the user's HOME, data directory, checkout or tmux server.
Under ``root`` (``OUT/state/ao-daemon/<key>``; the projects a daemon runs together share
one) are:

- ``home/``: its HOME, with a ``.gitconfig`` that only includes the user's global one
  (agents commit as the user);
- ``data/``: ``AO_DATA_DIR`` (the daemon's database, worktrees and skills);
- ``checkout/<project id>/<basename>``: a clone of each project's checkout whose
  ``origin`` stays the user's (``ao project add`` registers the clone);
- ``front/``: the GitHub front's per-run CA; ``logs/``: the daemon's logs;
- ``bin/``: first on the daemon's PATH (its agents inherit it): the agent model's
  ``claude`` when a run launches it (``ghbench.drivers.agent_launcher``).

The daemon and its agents reach GitHub only through the front (``HTTPS_PROXY`` and the
front's CA in ``SSL_CERT_FILE``), so gh keeps its default host and git its github.com
remotes. The agents get their environment from the private tmux server, which ghbench
starts before the daemon (tmux sessions take the server's environment, and AO adds only
``AO_*`` and ``PATH``): their own token (on the emulator a second token of the same
user, so the ledger tells their spend from the daemon's) and a git credential helper
that reads it. The daemon gets ``AO_GITHUB_TOKEN``. No token is written to a file.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.ao_world import clone_keeping_origin
from ghbench.drivers.placeholders import Tmux
from ghbench.drivers.project import Project
from ghbench.emulator.client_env import (
    GITHUB_REMOTE_PREFIXES,
    credential_entries,
    git_config_environment,
)
from ghbench.procs import guard, unguard

__all__ = ["DaemonTokens", "DaemonWorld", "user_shell"]

_GITHUB = "https://github.com/"
# Inherited variables that would send the daemon, gh, git or tmux elsewhere, or make
# the daemon think it runs inside an AO session.
_NOT_INHERITED = frozenset(
    {
        "TMUX",
        "TMUX_PANE",
        "TMUX_TMPDIR",
        "GH_HOST",
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "GH_ENTERPRISE_TOKEN",
        "GITHUB_ENTERPRISE_TOKEN",
        "GH_CONFIG_DIR",
        "GITHUB_API_URL",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "GIT_SSL_CAINFO",
        "CURL_CA_BUNDLE",
        "REQUESTS_CA_BUNDLE",
        "NODE_EXTRA_CA_CERTS",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_COUNT",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_RUNTIME_DIR",
    }
)


def _inherited(base: Mapping[str, str]) -> dict[str, str]:
    return {
        k: v
        for k, v in base.items()
        if k not in _NOT_INHERITED
        and not k.startswith(("AO_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))
    }


@dataclass(frozen=True)
class DaemonTokens:
    """The daemon's token and its agents' (the same on GitHub: one budget, one token)."""

    daemon: str = field(repr=False)
    agents: str = field(repr=False)


@dataclass
class DaemonWorld:
    """``root`` holds everything the daemon gets for ``projects`` (the user's)."""

    root: Path
    projects: tuple[Project, ...]
    # GitHub's ssh and git:// remotes rewritten to https (emulate: git reaches the
    # emulator only through the front; on GitHub a user's ssh remote stays ssh)
    rewrite_remotes: bool = False
    _private: Path | None = field(default=None, repr=False)
    _tmux: Tmux | None = field(default=None, repr=False)
    _server_pid: int | None = field(default=None, repr=False)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def front_state(self) -> Path:
        return self.root / "front"

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def run_file(self) -> Path:
        return self.home / ".ao" / "running.json"

    def checkout(self, project: Project) -> Path:
        return self.root / "checkout" / project.id / project.path.name

    def prepare(self, user_gitconfig: Path | None) -> None:
        """The directories, the HOME's git config, and each project's clone (once)."""
        for directory in (self.home, self.data, self.logs, self.front_state, self.home / "tmp"):
            directory.mkdir(parents=True, exist_ok=True)
        lines = ["# ghbench: AO's HOME; the user's own global config is only included\n"]
        if user_gitconfig is not None and user_gitconfig.is_file():
            lines.append(f"[include]\n\tpath = {json.dumps(str(user_gitconfig))}\n")
        replace_atomic(self.home / ".gitconfig", "".join(lines).encode())
        for project in self.projects:
            if not (self.checkout(project) / ".git").exists():
                clone_keeping_origin(project, self.checkout(project))

    # -- environments -----------------------------------------------------------

    def _base(self, base: Mapping[str, str], route: Mapping[str, str]) -> dict[str, str]:
        home = self.home
        env = _inherited(base)
        env.update(
            HOME=str(home),
            TMPDIR=str(home / "tmp"),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_CACHE_HOME=str(home / ".cache"),
            XDG_DATA_HOME=str(home / ".local" / "share"),
            XDG_STATE_HOME=str(home / ".local" / "state"),
            GH_CONFIG_DIR=str(home / ".config" / "gh"),
            GH_NO_UPDATE_NOTIFIER="1",
            GH_PROMPT_DISABLED="1",
            AO_DATA_DIR=str(self.data),
            AO_TELEMETRY_REMOTE="off",
        )
        if self._private is not None:
            env["TMUX_TMPDIR"] = str(self._private)
        if self.bin.is_dir():  # what ghbench gives the agents comes before the user's
            env["PATH"] = os.pathsep.join([str(self.bin), env.get("PATH") or os.defpath])
        env.update(route)
        return env

    def daemon_env(
        self, base: Mapping[str, str], route: Mapping[str, str], tokens: DaemonTokens, port: int
    ) -> dict[str, str]:
        """The daemon's environment: the world, the front's ``route``, its token, its port."""
        env = self._base(base, route)
        env.update(AO_PORT=str(port), AO_GITHUB_TOKEN=tokens.daemon)
        return env

    def cli_env(self, base: Mapping[str, str], port: int) -> dict[str, str]:
        """For ``ao`` subcommands (they talk to the daemon on ``port``, never to GitHub)."""
        env = self._base(base, {})
        env["AO_PORT"] = str(port)
        return env

    def agents_env(
        self, base: Mapping[str, str], route: Mapping[str, str], tokens: DaemonTokens
    ) -> dict[str, str]:
        """What every agent gets (the tmux server's environment): the front's ``route``,
        the agents' token for gh, and a git credential helper for github.com that reads
        it (the list reset first, so no helper of the user's is asked)."""
        env = self._base(base, route)
        env["GH_TOKEN"] = tokens.agents
        entries = credential_entries(_GITHUB, "GH_TOKEN")
        if self.rewrite_remotes:
            entries = [
                *((f"url.{_GITHUB}.insteadOf", p) for p in GITHUB_REMOTE_PREFIXES[1:]),
                *entries,
            ]
        env.update(git_config_environment(entries, env))
        return env

    # -- the agents' tmux server -------------------------------------------------

    def tmux(self) -> Tmux:
        if self._tmux is None:
            raise RuntimeError("DaemonWorld.open_tmux() first")
        return self._tmux

    def open_tmux(self, agents_env: Mapping[str, str], shell: str) -> Tmux:
        """Start the private tmux server with the agents' environment (once)."""
        if self._tmux is not None:
            return self._tmux
        # tmux's socket path must stay short: /tmp, not under the output directory
        self._private = Path(tempfile.mkdtemp(prefix="ghbench-aod-", dir="/tmp"))
        try:
            tmux = Tmux({**agents_env, "TMUX_TMPDIR": str(self._private)})
            tmux.start_server(shell=shell)
            # tmux daemonizes: its server is in no group of ours, so it is named to the
            # lifeline, which stops it (and every agent on it) if ghbench dies
            self._server_pid = tmux.server_pid()
            if self._server_pid is not None:
                guard(self._server_pid)
            self._tmux = tmux
        except BaseException:
            self.close_tmux()
            raise
        return tmux

    def close_tmux(self) -> None:
        """Kill the private tmux server (every agent and placeholder on it)."""
        if self._tmux is not None:
            self._tmux.kill_server()
            self._tmux = None
        if self._server_pid is not None:
            unguard(self._server_pid)
            self._server_pid = None
        if self._private is not None:
            shutil.rmtree(self._private, ignore_errors=True)
            self._private = None


def user_shell(env: Mapping[str, str]) -> str:
    """The shell new tmux panes run when AO gives no command (AO always gives one)."""
    return env.get("SHELL") or "/bin/sh"
