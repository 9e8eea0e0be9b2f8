"""The one interface the harness drives an orchestrator through.

``setup`` calls, in order: ``check_tools``, ``clean_stale``, ``start(None, env)``
(no tracing), ``spawn``, ``discover_sessions``, ``stop_agents``, ``stop``, ``close``.
``measure`` calls: ``check_tools``, ``check_sessions``, ``prepare_measure``,
``start(trace_path, env)``, ``alive`` (polled), ``stop``, ``finish_measure``, ``close``.

``env`` holds only the variables to add for this run (the backend's ``GH_HOST``,
token and proxies); a driver layers them over its own base environment and never
writes them anywhere.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ghbench.procs import ManagedProcess, StopResult

__all__ = ["BenchSession", "Driver", "OwnsProcess", "SessionInfo", "StopResult"]


@dataclass(frozen=True)
class SessionInfo:
    """A session as the orchestrator reports it right after spawning."""

    session_id: str
    issue: int | None
    branch: str | None
    worktree_path: Path | None


@dataclass(frozen=True)
class BenchSession:
    """A session of a setup artifact: what ``measure`` keeps alive and observes."""

    session_id: str
    issue: int | None
    branch: str
    worktree_path: Path
    pr_number: int
    pr_url: str


class Driver(Protocol):
    """An orchestrator the harness can start, stop and spawn sessions in."""

    name: str

    def check_tools(self) -> None:
        """Raise ToolMissingError naming the missing program and how to install it."""
        ...

    def version(self) -> tuple[str | None, str | None]:
        """(git sha, branch) of what is being measured, when known."""
        ...

    def start(self, trace_path: Path | None, env: Mapping[str, str]) -> None:
        """Start the orchestrator; with a trace path, it traces every gh call there."""
        ...

    def stop(self, deadline: float) -> StopResult:
        """SIGTERM, wait up to ``deadline`` seconds, then SIGKILL."""
        ...

    def alive(self) -> bool: ...

    def exit_code(self) -> int | None:
        """The orchestrator's exit code once it has exited, else None."""
        ...

    def spawn(self, issues: Sequence[int]) -> None:
        """Spawn one session per issue (AO's batch-spawn)."""
        ...

    def discover_sessions(self) -> list[SessionInfo]:
        """The sessions spawned by this driver's last ``spawn``, with issue and branch."""
        ...

    def stop_agents(self) -> None:
        """Stop the agents of the spawned sessions (they have opened their PRs)."""
        ...

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        """Remove worktrees whose agent is dead, except those in ``keep``; return them."""
        ...

    def check_sessions(self, sessions: Sequence[BenchSession]) -> list[str]:
        """One problem per session that cannot be measured (e.g. worktree gone)."""
        ...

    def prepare_measure(self, sessions: Sequence[BenchSession], repo: str) -> None:
        """Make the sessions look alive and PR-open to the orchestrator."""
        ...

    def finish_measure(self) -> None:
        """Undo ``prepare_measure``'s helpers (placeholders), by exact name."""
        ...

    def close(self) -> None:
        """Release what the driver set up for the run (a private tmux server); the
        flows call it when a setup or a measurement ends, however it ends."""
        ...


STOP_DRAIN_S = 5.0  # after the orchestrator exited: how long its calls in flight may finish


class OwnsProcess:
    """``stop``/``alive``/``exit_code`` for a driver whose orchestrator is one child.

    The driver declares the field ``_proc: ManagedProcess | None`` (None until started).
    """

    _proc: ManagedProcess | None

    def stop(self, deadline: float) -> StopResult:
        """SIGTERM the orchestrator itself, ``deadline`` seconds for its shutdown, a short
        drain for its calls in flight, then the group (SIGTERM, then SIGKILL).

        Not the group first: a gh child forked a moment before, not yet in a session of
        its own, would take the SIGTERM and leave a failed row that ghbench caused.
        """
        if self._proc is None:
            return StopResult(None, killed=False)
        return self._proc.stop(deadline, drain=STOP_DRAIN_S)

    def alive(self) -> bool:
        return self._proc is not None and self._proc.alive()

    def kill(self) -> None:
        """Crash the orchestrator: SIGKILL its whole process group, no SIGTERM first."""
        if self._proc is not None:
            self._proc.kill()

    def exit_code(self) -> int | None:
        return None if self._proc is None else self._proc.returncode
