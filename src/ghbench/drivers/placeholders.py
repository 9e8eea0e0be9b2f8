"""Placeholder agents: tmux sessions that make AO's poller treat a session as alive.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.errors import GhbenchError, ToolMissingError

__all__ = ["PLACEHOLDER_COMMAND", "Placeholders", "Tmux"]

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
