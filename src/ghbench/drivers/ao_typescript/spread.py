"""One AO per project, all on one token: the matrix's T2 (spread) with ``--driver ao``.

How real AO polls several repositories: it does not, in one process. ``ao start P``
starts the lifecycle worker of project P alone (both builds:
``ensureLifecycleWorker(config, P)``), and a second ``ao start Q`` with the same HOME
attaches to the running AO without a worker; AO itself then tells the user to restart
it for Q. So N sessions spread over N/5 repositories, as the runbook means, are R AO
processes, one per repository, each in its own HOME (its own ``~/.agent-orchestrator``),
spending one budget: the backend's token (on the emulator, one user).

Each project keeps its own ``AoDriver`` (world, tmux server, ``batch-spawn``); all of
them trace to the one trace file. A session belongs to the project whose
``sessionPrefix`` its id starts with (ids are ``{prefix}-{n}``; the matrix's config
gives every project its own prefix).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ghbench.drivers.ao_typescript.dashboard import WebDashboard
from ghbench.drivers.ao_typescript.driver import SPAWN, AoDriver
from ghbench.drivers.base import (
    Dashboard,
    DashboardView,
    PerProjectSetup,
    Session,
    SpawnStorm,
    StopResult,
    TraceSink,
    TracingReport,
)
from ghbench.drivers.common.ao_cli import storm_note
from ghbench.errors import GhbenchError

__all__ = ["AoSpreadDriver"]


@dataclass
class AoSpreadDriver(PerProjectSetup):
    """Per-project drivers on one config; the first one's ``ao start`` is the one AO."""

    drivers: tuple[AoDriver, ...]
    name: str = "ao"
    per_project_processes: bool = True

    def __post_init__(self) -> None:
        if not self.drivers:
            raise ValueError("AoSpreadDriver needs at least one project")
        prefixes = [d.project.session_prefix for d in self.drivers]
        if len(set(prefixes)) != len(prefixes):
            raise ValueError(f"AoSpreadDriver's projects share a session prefix: {prefixes}")

    @property
    def project_drivers(self) -> tuple[AoDriver, ...]:
        return self.drivers

    @property
    def main(self) -> AoDriver:
        return self.drivers[0]

    @property
    def project_id(self) -> str:
        return self.main.project.id

    def driver_for(self, session_id: str) -> AoDriver:
        prefix = session_id.rsplit("-", 1)[0]
        for driver in self.drivers:
            if driver.project.session_prefix == prefix:
                return driver
        known = ", ".join(d.project.session_prefix for d in self.drivers)
        raise GhbenchError(f"session {session_id} belongs to no project (prefixes: {known})")

    def _by_project(self, sessions: Sequence[Session]) -> dict[str, list[Session]]:
        groups: dict[str, list[Session]] = {d.project.id: [] for d in self.drivers}
        for s in sessions:
            groups[self.driver_for(s.session_id).project.id].append(s)
        return groups

    # -- one AO per project --------------------------------------------------

    def check_tools(self) -> None:
        self.main.check_tools()

    def version(self) -> tuple[str | None, str | None]:
        return self.main.version()

    def start(self, sink: TraceSink | None, env: Mapping[str, str]) -> None:
        started: list[AoDriver] = []
        try:
            for driver in self.drivers:
                driver.start(sink, env)
                started.append(driver)
        except BaseException:
            for driver in started:
                driver.stop(5.0)
            raise

    def stop(self, deadline: float) -> StopResult:
        results = [driver.stop(deadline) for driver in self.drivers]
        codes = [r.returncode for r in results if r.returncode not in (None, 0)]
        return StopResult(
            codes[0] if codes else results[0].returncode,
            killed=any(r.killed for r in results),
        )

    def kill(self) -> None:
        for driver in self.drivers:
            driver.kill()

    def alive(self) -> bool:
        return all(driver.alive() for driver in self.drivers)

    def exit_code(self) -> int | None:
        """The code of the first AO that exited (the others run on)."""
        for driver in self.drivers:
            if not driver.alive():
                return driver.exit_code()
        return None

    def dashboard_url(self) -> str:
        return self.main.dashboard_url()

    def close(self) -> None:
        for driver in self.drivers:
            driver.close()

    # -- per project ---------------------------------------------------------

    # (setup's steps: PerProjectSetup)

    def check_sessions(self, sessions: Sequence[Session]) -> list[str]:
        groups = self._by_project(sessions)
        return [p for d in self.drivers for p in d.check_sessions(groups[d.project.id])]

    def prepare_measure(self, sessions: Sequence[Session]) -> None:
        groups = self._by_project(sessions)
        for driver in self.drivers:
            if groups[driver.project.id]:  # a project without sessions has no metadata yet
                driver.prepare_measure(groups[driver.project.id])

    def finish_measure(self) -> TracingReport:
        return sum((driver.finish_measure() for driver in self.drivers), TracingReport())

    # -- the matrix's scenarios ----------------------------------------------

    def spawn_storm(self, counts: Mapping[str, int]) -> SpawnStorm:
        """``batch-spawn`` into each project's running AO its share of the sessions."""
        ids = [sid for d in self.drivers for sid in d.spawn_in_window(counts[d.project.repo])]
        return SpawnStorm((), storm_note(ids, SPAWN), restart=False)

    def open_dashboard(self, view: DashboardView) -> Dashboard:
        """The first AO's dashboard (it shows every project); every AO on loopback."""

        def listeners() -> list[tuple[str, int]]:
            return [found for d in self.drivers for found in d.require_loopback()]

        return WebDashboard(self.main.dashboard_url(), view, listeners)
