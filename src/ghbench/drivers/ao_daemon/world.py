"""Where AO's daemon runs: a private HOME and data directory, ghbench's own clones, the
GitHub front it calls through, and a tmux server of its own for its agents.

AO's daemon (``ao daemon``, 0.10 and later) keeps every project and session in
``$AO_DATA_DIR`` (SQLite, worktrees) and its run file under ``$HOME/.ao``; it calls
``https://api.github.com`` itself, and its agents (started in tmux) run gh and git.
ghbench never runs it in the user's HOME, data directory, checkout or tmux server.
Under ``root`` (``OUT/state/ao-daemon/<key>``; the projects a daemon runs together share
one) are:

- ``home/``: its HOME, with a ``.gitconfig`` that only includes the user's global one
  (agents commit as the user);
- ``data/``: ``AO_DATA_DIR`` of AO 0.10 (the daemon's database, worktrees and skills);
  ``data-0.12/`` that of AO 0.12, and so on: each line keeps its own database
  (``data_for``), and ``sessions.line`` names the line whose database holds the sessions
  ghbench spawned;
- ``checkout/<project id>/<basename>``: a clone of each project's checkout whose
  ``origin`` stays the user's (``ao project add`` registers the clone);
- ``front/``: the GitHub front's per-run CA; ``logs/``: the daemon's logs;
- ``bin/``: first on the daemon's PATH (its agents inherit it): the agent model's
  ``claude`` when a run launches it (``ghbench.drivers.common.agent_launcher``);
- ``ao-bin/ao``: the daemon, when the user's is named otherwise: it must run as a file
  named ``ao`` (``ghbench.drivers.ao_daemon.versions``).

The daemon and its agents reach GitHub only through the front (``HTTPS_PROXY`` and the
front's CA in ``SSL_CERT_FILE``), so gh keeps its default host and git its github.com
remotes. The agents get their environment from the private tmux server, which ghbench
starts before the daemon (tmux sessions take the server's environment, and AO adds only
``AO_*`` and ``PATH``): their own token (on the emulator a second token of the same
user, so the ledger tells their spend from the daemon's) and a git credential helper
that reads it. The daemon gets ``AO_GITHUB_TOKEN``. No token is written to a file.

A setup made by one line is measured by a newer one (``ghbench ab`` of 0.10.3 against
0.12.6) on a copy of the setup's database, refreshed before each start when the older
line has run since: the newer line migrates its copy, never the original, which the
older line could no longer read. An older line cannot read a newer line's database and
is refused.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.ao_daemon.versions import DAEMON_VERSIONS
from ghbench.drivers.common.checkouts import clone_keeping_origin, write_home_gitconfig
from ghbench.drivers.common.environment import inherited, private_home
from ghbench.drivers.common.layout import Below
from ghbench.drivers.common.tmux import PrivateTmux, Tmux
from ghbench.drivers.project import Project
from ghbench.emulator.client_env import (
    GITHUB_REMOTE_PREFIXES,
    credential_entries,
    git_config_environment,
)
from ghbench.errors import GhbenchError

__all__ = ["DaemonTokens", "DaemonWorld"]

_GITHUB = "https://github.com/"
# Besides what every world scrubs: the CA variables (the front sets its own) and AO's
# own variables (the daemon must not think it runs inside an AO session).
_CA_VARS = (
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "GIT_SSL_CAINFO",
    "CURL_CA_BUNDLE",
    "REQUESTS_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
)
_DATABASE = "ao.db"  # in AO_DATA_DIR
_LINES = [v.line for v in DAEMON_VERSIONS]


def _changed_at(database: Path) -> int:
    """When a database last changed: its file's or its write-ahead log's mtime."""
    wal = database.with_name(database.name + "-wal")
    return max(p.stat().st_mtime_ns for p in (database, wal) if p.exists())


@dataclass(frozen=True)
class DaemonTokens:
    """The daemon's token and its agents' (the same on GitHub: one budget, one token)."""

    daemon: str = field(repr=False)
    agents: str = field(repr=False)


@dataclass
class DaemonWorld:
    """``root`` holds everything the daemon of ``line`` gets for ``projects`` (the user's)."""

    root: Path
    projects: tuple[Project, ...]
    line: str = _LINES[0]  # the daemon's release line (``versions.DaemonVersion.line``)
    # GitHub's ssh and git:// remotes rewritten to https (emulate: git reaches the
    # emulator only through the front; on GitHub a user's ssh remote stays ssh)
    rewrite_remotes: bool = False
    _tmux: PrivateTmux = field(default_factory=lambda: PrivateTmux("ghbench-aod-"), repr=False)

    home = Below("home")
    logs = Below("logs")
    front_state = Below("front")
    bin = Below("bin")
    # the sessions ghbench spawned (``common.sessions.SessionRegistry``)
    registry = Below("sessions.json")
    # which line's database holds them (``owner``)
    _owner_file = Below("sessions.line")

    def data_for(self, line: str) -> Path:
        """``AO_DATA_DIR`` of a line (the first line's is plain ``data``)."""
        return self.root / ("data" if line == _LINES[0] else f"data-{line}")

    @property
    def data(self) -> Path:
        return self.data_for(self.line)

    def checkout(self, project: Project) -> Path:
        return self.root / "checkout" / project.id / project.path.name

    def prepare(self, user_gitconfig: Path | None) -> None:
        """The directories, the HOME's git config, and each project's clone (once)."""
        for directory in (self.home, self.data, self.logs, self.front_state, self.home / "tmp"):
            directory.mkdir(parents=True, exist_ok=True)
        write_home_gitconfig(self.home, user_gitconfig)
        for project in self.projects:
            if not (self.checkout(project) / ".git").exists():
                clone_keeping_origin(project, self.checkout(project))

    # -- the daemon's executable and database -----------------------------------

    def daemon_executable(self, source: Path) -> Path:
        """``source`` as a file named ``ao``: itself when so named (a symlink's target:
        the daemon knows itself by the file it runs from), else a copy in ``ao-bin`` (a
        hard link when it can be), replaced when ``source`` changes."""
        source = source.resolve()
        if source.name == "ao":
            return source
        dest = self.root / "ao-bin" / "ao"
        info = source.stat()
        with contextlib.suppress(OSError):
            have = dest.stat()
            if (have.st_size, have.st_mtime_ns) == (info.st_size, info.st_mtime_ns):
                return dest
        dest.parent.mkdir(parents=True, exist_ok=True)
        partial = dest.with_name("ao.partial")
        partial.unlink(missing_ok=True)
        try:
            os.link(source, partial)
        except OSError:
            shutil.copy2(source, partial)
        partial.chmod(0o755)
        partial.replace(dest)
        return dest

    def owner(self) -> str | None:
        """The line whose database holds the sessions ghbench spawned, if any."""
        try:
            return self._owner_file.read_text().strip() or None
        except FileNotFoundError:
            return None

    def claim_sessions(self) -> None:
        """This line's database now holds the sessions (it spawned them)."""
        if self.owner() != self.line:
            replace_atomic(self._owner_file, f"{self.line}\n".encode())

    def unreadable(self) -> str | None:
        """Why this line cannot run on the sessions' database (a newer line's), if so."""
        owner = self.owner()
        if owner is None or owner == self.line:
            return None
        if owner in _LINES and _LINES.index(owner) < _LINES.index(self.line):
            return None
        return (
            f"{self.root}: its sessions were spawned by AO {owner}, whose database AO"
            f" {self.line} cannot read; run setup with AO {self.line} in another --out"
        )

    def sync_data(self) -> None:
        """Before the daemon starts: a line that did not spawn the sessions gets a copy
        of the database that holds them, when that one changed since its last copy."""
        owner = self.owner()
        if owner is None or owner == self.line:
            return
        refused = self.unreadable()
        if refused is not None:
            raise GhbenchError(refused)
        source = self.data_for(owner) / _DATABASE
        dest = self.data / _DATABASE
        if not source.is_file():
            raise GhbenchError(f"{source} is gone: run setup again")
        if dest.is_file() and _changed_at(dest) >= _changed_at(source):
            return
        partial = dest.with_name(_DATABASE + ".partial")
        partial.unlink(missing_ok=True)
        with (
            contextlib.closing(sqlite3.connect(source)) as src,
            contextlib.closing(sqlite3.connect(partial)) as copy,
        ):
            src.backup(copy)
        for stale in ("-wal", "-shm"):
            dest.with_name(_DATABASE + stale).unlink(missing_ok=True)
        partial.replace(dest)

    # -- environments -----------------------------------------------------------

    def _base(self, base: Mapping[str, str], route: Mapping[str, str]) -> dict[str, str]:
        env = inherited(base, also=_CA_VARS, prefixes=("AO_",))
        env.update(private_home(self.home, self.home / "tmp", self.home / ".config" / "gh"))
        env.update(AO_DATA_DIR=str(self.data), AO_TELEMETRY_REMOTE="off")
        if self._tmux.path is not None:
            env["TMUX_TMPDIR"] = str(self._tmux.path)
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
        return self._tmux.tmux()

    def open_tmux(self, agents_env: Mapping[str, str], shell: str) -> Tmux:
        """Start the private tmux server with the agents' environment (once)."""
        return self._tmux.start(agents_env, shell)

    def close_tmux(self) -> None:
        """Kill the private tmux server (every agent and placeholder on it)."""
        self._tmux.close()
