"""The one interface the flows drive an orchestrator through.

``setup`` calls, in order: ``clean_stale``, ``start(None, env)`` (no tracing),
``spawn``, ``discover_sessions``, ``stop_agents``, ``stop``, ``close``. ``measure``
calls: ``check_sessions``, ``prepare_measure``, ``start(sink, env)``, ``alive``
(polled), ``stop``, ``finish_measure``, ``close``. Whoever builds a driver checks its
tools once (``check_tools``) before anything starts.

The matrix's scenarios reach the orchestrator through the same interface: a restart
(S1, S5: ``stop`` or ``kill``, then ``start``), a spawn storm inside the window
(``spawn_storm``, S3) and a dashboard reader (``open_dashboard``, S6).

``env`` holds only the variables to add for this run (the backend's ``GH_HOST``,
token and proxies): the route to the GitHub the run measures. A driver layers them
over its own base environment and never writes them anywhere. A window's calls go
to a ``TraceSink``; how they get there is the driver's business: an orchestrator that
traces its own gh calls is told the path, one that does not can be put behind a
proxy that writes the rows.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ghbench.artifacts.models import Session
from ghbench.procs import ManagedProcess, StopResult
from ghbench.trace.files import agent_trace_path
from ghbench.trace.writer import TraceLoss

__all__ = [
    "Dashboard",
    "DashboardView",
    "Driver",
    "OwnsProcess",
    "PerProjectSetup",
    "Session",
    "SpawnStorm",
    "StopResult",
    "TraceSink",
    "TracingReport",
]


@dataclass(frozen=True)
class TraceSink:
    """Where a window's rows go, in AO's schema: the orchestrator's calls in ``path``,
    its agents' in ``agents`` beside it (what the scorecard splits them by)."""

    path: Path

    @property
    def agents(self) -> Path:
        return agent_trace_path(self.path)


@dataclass(frozen=True)
class TracingReport:
    """A driver's word, at a window's end, on how its calls were traced: notes for the
    window (a tracer's problems), and the rows its tracers could not write, which the
    scorecard counts and which make the run incomplete."""

    notes: tuple[str, ...] = ()
    losses: tuple[TraceLoss, ...] = ()

    def __add__(self, other: TracingReport) -> TracingReport:
        return TracingReport(self.notes + other.notes, self.losses + other.losses)


@dataclass(frozen=True)
class SpawnStorm:
    """Sessions spawned inside a window (the matrix's S3), and what the cell notes."""

    # (repo, session) of each session the orchestrator must be told about, with its PR
    sessions: tuple[tuple[str, Session], ...]
    note: str
    # the orchestrator learns of them only when it starts again (the model reads its
    # sessions at start; AO's poller finds new ones itself)
    restart: bool


@dataclass(frozen=True)
class DashboardView:
    """What a window's dashboard reader reads, how often, and where its rows and log go."""

    sessions: tuple[Session, ...]
    sink: TraceSink
    env: Mapping[str, str]  # the user's environment (which browser, if any)
    refresh_s: float
    click_s: float
    log_path: Path  # the reader's own log (a browser's)


class Dashboard(Protocol):
    """A dashboard reader for a window: ``start`` at its start, ``close`` at its end."""

    # whether what it reads can call GitHub (a web dashboard's server enriches on read;
    # AO's daemon's desktop app reads only what the daemon stored)
    calls_github: bool

    def start(self) -> None: ...

    def close(self, *, at_window_end: bool) -> list[str]:
        """Stop reading; the notes for the cell, in order. GhbenchError when the reader
        failed. ``at_window_end``: the orchestrator still runs, so what it exposes can be
        checked; otherwise the window was cut short."""
        ...


class Driver(Protocol):
    """An orchestrator the flows can start, stop and spawn sessions in."""

    name: str  # what a run records: ao | workload
    # one orchestrator process per project (AO's CLI polls only the project it starts
    # for): one of them may poll nothing while the others run, which a spread checks
    per_project_processes: bool

    @property
    def project_id(self) -> str:
        """The project a window's scorecard names."""
        ...

    def check_tools(self) -> None:
        """Raise ToolMissingError naming the missing program and how to install it."""
        ...

    def version(self) -> tuple[str | None, str | None]:
        """(git sha, branch) of what is being measured, when known."""
        ...

    def start(self, sink: TraceSink | None, env: Mapping[str, str]) -> None:
        """Start the orchestrator; with a sink, every GitHub call of the window is traced
        there."""
        ...

    def stop(self, deadline: float) -> StopResult:
        """SIGTERM, wait up to ``deadline`` seconds, then SIGKILL."""
        ...

    def kill(self) -> None:
        """Crash the orchestrator: SIGKILL its process group, no SIGTERM first (S5)."""
        ...

    def alive(self) -> bool: ...

    def exit_code(self) -> int | None:
        """The orchestrator's exit code once it has exited, else None."""
        ...

    def spawn(self, issues: Sequence[int]) -> None:
        """Spawn one session per issue (AO's batch-spawn)."""
        ...

    def discover_sessions(self) -> list[Session]:
        """The sessions spawned by this driver's last ``spawn``, with issue and branch."""
        ...

    def stop_agents(self) -> None:
        """Stop the agents of the spawned sessions (they have opened their PRs)."""
        ...

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        """Remove worktrees whose agent is dead, except those in ``keep``; return them."""
        ...

    def check_sessions(self, sessions: Sequence[Session]) -> list[str]:
        """One problem per session that cannot be measured (e.g. worktree gone)."""
        ...

    def prepare_measure(self, sessions: Sequence[Session]) -> None:
        """Make the sessions look alive and PR-open to the orchestrator."""
        ...

    def finish_measure(self) -> TracingReport:
        """Undo ``prepare_measure``'s helpers (placeholders), by exact name; how the
        window's calls were traced since the orchestrator last started: the notes, and
        the rows its tracers lost."""
        ...

    def spawn_storm(self, counts: Mapping[str, int]) -> SpawnStorm:
        """Spawn ``counts[repo]`` sessions (issues #1..k) in each repo while the
        orchestrator runs (S3)."""
        ...

    def open_dashboard(self, view: DashboardView) -> Dashboard:
        """A reader of the orchestrator's dashboard for the window (S6)."""
        ...

    def close(self) -> None:
        """Release what the driver set up for the run (a private tmux server); the
        flows call it when a setup or a measurement ends, however it ends."""
        ...


STOP_DRAIN_S = 5.0  # after the orchestrator exited: how long its calls in flight may finish


class OwnsProcess:
    """``stop``/``kill``/``alive``/``exit_code`` for a driver whose orchestrator is one child.

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
        if self._proc is not None:
            self._proc.kill()

    def exit_code(self) -> int | None:
        return None if self._proc is None else self._proc.returncode


class PerProjectSetup:
    """Setup's steps (``spawn``, ``discover_sessions``, ``stop_agents``, ``clean_stale``)
    for a driver over several projects: each project's own driver takes them, in order.

    The driver names those drivers in ``project_drivers``.
    """

    @property
    def project_drivers(self) -> Sequence[Driver]:
        raise NotImplementedError

    def spawn(self, issues: Sequence[int]) -> None:
        """Spawn ``issues`` in every project (each repo has its own issues #1..k)."""
        for driver in self.project_drivers:
            driver.spawn(issues)

    def discover_sessions(self) -> list[Session]:
        return [info for d in self.project_drivers for info in d.discover_sessions()]

    def stop_agents(self) -> None:
        for driver in self.project_drivers:
            driver.stop_agents()

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        return [path for d in self.project_drivers for path in d.clean_stale(keep)]
