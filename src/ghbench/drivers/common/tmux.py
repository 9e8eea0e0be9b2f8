"""tmux for the AO drivers: a private server, and placeholder agents on it.

AO starts each agent in a tmux session and passes it only ``AO_*`` variables and
``PATH``; everything else an agent sees comes from the tmux server's global environment,
which is the environment of whichever client started the server. So each AO world gets
a tmux server of its own (``PrivateTmux``: ``TMUX_TMPDIR`` in a short private directory),
started by ghbench, before anything else touches it, with the agents' environment, and
killed when the setup or window ends (or by the lifeline, if ghbench dies first).

Placeholder agents: tmux sessions that make AO treat a session as alive.
AO's claude-code plugin checks that the session's tmux session holds a process
named ``claude``. A placeholder is ``tmux new-session -d -s NAME -c WORKTREE`` running
``exec -a claude sleep 86400``: no agent, no tokens spent, but alive to AO
(AO reference §6, §9). Every tmux call addresses a session by exact name
(``-t =NAME``), so a prefix never matches another session, and ghbench removes
only the placeholders it started.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.errors import GhbenchError, ToolMissingError
from ghbench.procs import guard, unguard

__all__ = ["PLACEHOLDER_COMMAND", "Placeholders", "PrivateTmux", "Tmux", "user_shell"]

# bash explicitly: tmux runs commands with $SHELL or /bin/sh, and dash has no `exec -a`
PLACEHOLDER_COMMAND = "bash -c 'exec -a claude sleep 86400'"


@dataclass(frozen=True)
class Tmux:
    """tmux with a given environment (``TMUX_TMPDIR`` picks the server)."""

    env: Mapping[str, str]

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        tmux = shutil.which("tmux", path=self.env.get("PATH"))
        if tmux is None:
            raise ToolMissingError("tmux is not installed; install it (apt-get install tmux)")
        env = {k: v for k, v in self.env.items() if k != "TMUX"}
        return subprocess.run(
            [tmux, *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )

    def start_server(self, shell: str | None = None) -> None:
        """Start this env's server now, so its global environment is ``env``; it stays up
        with no session (``exit-empty off``) until ``kill_server``.

        ``shell``: run it, not a login shell, in new panes. A login shell rereads the
        system profile, which resets ``PATH``; a pane then keeps the ``PATH`` of the
        client that created it (an orchestrator's, which is the user's plus ghbench's).
        """
        args = ["start-server", ";", "set-option", "-g", "exit-empty", "off"]
        if shell is not None:
            args += [";", "set-option", "-g", "default-command", shlex.quote(shell)]
        proc = self._run(*args)
        if proc.returncode != 0:
            raise GhbenchError(f"tmux could not start a server: {proc.stderr.strip()}")

    def server_pid(self) -> int | None:
        """The running server's pid (it leads its own session and process group)."""
        proc = self._run("display-message", "-p", "#{pid}")
        text = proc.stdout.strip()
        return int(text) if proc.returncode == 0 and text.isdigit() else None

    def kill_server(self) -> None:
        """Kill this env's server and every session on it (nothing if none runs)."""
        self._run("kill-server")

    def has_session(self, name: str) -> bool:
        return self._run("has-session", "-t", f"={name}").returncode == 0

    def kill_session(self, name: str) -> bool:
        """Kill exactly ``name``; False when there was no such session."""
        return self._run("kill-session", "-t", f"={name}").returncode == 0

    def new_session(self, name: str, cwd: Path, command: str) -> None:
        proc = self._run("new-session", "-d", "-s", name, "-c", str(cwd), command)
        if proc.returncode != 0:
            raise GhbenchError(
                f"tmux could not start session {name}: {proc.stderr.strip() or proc.returncode}"
            )

    def respawn(self, name: str, command: str) -> bool:
        """Replace what runs in ``name``'s pane with ``command`` (the old process is
        killed), the session never gone meanwhile; False when there is no such session."""
        return self._run("respawn-pane", "-k", "-t", f"={name}:", command).returncode == 0

    def pane_pids(self, name: str) -> list[int]:
        proc = self._run("list-panes", "-t", f"={name}", "-F", "#{pane_pid}")
        if proc.returncode != 0:
            return []
        return [int(x) for x in proc.stdout.split() if x.isdigit()]


@dataclass
class Placeholders:
    """The placeholders this run started, removed by exact name in ``remove_all``."""

    tmux: Tmux
    started: list[str] = field(default_factory=list)

    def ensure(self, name: str, cwd: Path) -> None:
        """Replace whatever session has this exact name with a placeholder."""
        self.tmux.kill_session(name)
        self.tmux.new_session(name, cwd, PLACEHOLDER_COMMAND)
        self.started.append(name)

    def remove_all(self) -> list[str]:
        removed = [name for name in self.started if self.tmux.kill_session(name)]
        self.started.clear()
        return removed

    def names(self) -> Sequence[str]:
        return tuple(self.started)


@dataclass
class PrivateTmux:
    """A tmux server of ghbench's own in a private directory under /tmp (its socket path
    must stay short: not under the output directory), whose name starts with ``prefix``.

    ``directory()`` makes the directory (a driver may keep its own files there), ``start``
    the server with the environment every session on it gets, ``close`` kills the server
    (every session on it) and removes the directory; a later use makes new ones.
    """

    prefix: str
    _dir: Path | None = field(default=None, repr=False)
    _tmux: Tmux | None = field(default=None, repr=False)
    _server_pid: int | None = field(default=None, repr=False)

    @property
    def path(self) -> Path | None:
        """The directory, once made (``TMUX_TMPDIR`` for whoever uses this server)."""
        return self._dir

    def directory(self) -> Path:
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix=self.prefix, dir="/tmp"))
        return self._dir

    def tmux(self) -> Tmux:
        if self._tmux is None:
            raise RuntimeError("PrivateTmux.start() first")
        return self._tmux

    def start(self, env: Mapping[str, str], shell: str) -> Tmux:
        """Start the server (once) with ``env``; new panes run ``shell`` (see
        ``Tmux.start_server``)."""
        if self._tmux is not None:
            return self._tmux
        try:
            tmux = Tmux({**env, "TMUX_TMPDIR": str(self.directory())})
            tmux.start_server(shell=shell)
            # tmux daemonizes: its server is in no group of ours, so it is named to the
            # lifeline, which stops it (and every agent on it) if ghbench dies
            self._server_pid = tmux.server_pid()
            if self._server_pid is not None:
                guard(self._server_pid)
            self._tmux = tmux
        except BaseException:
            self.close()
            raise
        return tmux

    def close(self) -> None:
        if self._tmux is not None:
            self._tmux.kill_server()
            self._tmux = None
        if self._server_pid is not None:
            unguard(self._server_pid)
            self._server_pid = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


def user_shell(env: Mapping[str, str]) -> str:
    """The shell new tmux panes run: the user's, not a login shell (see
    ``Tmux.start_server``)."""
    return env.get("SHELL") or "/bin/sh"
