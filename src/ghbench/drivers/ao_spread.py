"""ONE AO over several projects of one config: the matrix's T2 with ``--driver ao``.

``ao start`` takes one project id, and a second ``ao start`` while one runs attaches to
it without starting a poller (AO reference §1); the poller's Guard 1 runs once per repo
(R repos per tick, §5). So a spread cell starts AO once, for the first project, on a
config that lists every spread repo, and that AO polls the sessions of all of them
*(inference: see ``ghbench.matrix.ao_cell``)*.

Everything per session stays per project: each project keeps its own ``AoDriver``
(its layout, its checkout's worktrees, its ``batch-spawn`` run from its directory), and
a session belongs to the project whose ``sessionPrefix`` its id starts with (ids are
``{prefix}-{n}``, §3; the matrix's config gives every project its own prefix).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ghbench.drivers.ao import AoDriver
from ghbench.drivers.base import BenchSession, SessionInfo, StopResult
from ghbench.errors import GhbenchError

__all__ = ["AoSpreadDriver"]


@dataclass
class AoSpreadDriver:
    """Per-project drivers on one config; the first one's ``ao start`` is the one AO."""

    drivers: tuple[AoDriver, ...]
    name: str = "ao"

    def __post_init__(self) -> None:
        if not self.drivers:
            raise ValueError("AoSpreadDriver needs at least one project")
        configs = {d.project.config_path for d in self.drivers}
        if len(configs) != 1 or None in configs:
            raise ValueError("AoSpreadDriver's projects must share one config file")
        prefixes = [d.project.session_prefix for d in self.drivers]
        if len(set(prefixes)) != len(prefixes):
            raise ValueError(f"AoSpreadDriver's projects share a session prefix: {prefixes}")

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

    def _by_project(self, sessions: Sequence[BenchSession]) -> dict[str, list[BenchSession]]:
        groups: dict[str, list[BenchSession]] = {d.project.id: [] for d in self.drivers}
        for s in sessions:
            groups[self.driver_for(s.session_id).project.id].append(s)
        return groups

    # -- the one process -----------------------------------------------------

    def check_tools(self) -> None:
        self.main.check_tools()

    def version(self) -> tuple[str | None, str | None]:
        return self.main.version()

    def start(self, trace_path: Path | None, env: Mapping[str, str]) -> None:
        self.main.start(trace_path, env)

    def stop(self, deadline: float) -> StopResult:
        return self.main.stop(deadline)

    def kill(self) -> None:
        self.main.kill()

    def alive(self) -> bool:
        return self.main.alive()

    def exit_code(self) -> int | None:
        return self.main.exit_code()

    def dashboard_url(self) -> str:
        return self.main.dashboard_url()

    # -- per project ---------------------------------------------------------

    def spawn(self, issues: Sequence[int]) -> None:
        """Spawn ``issues`` in every project (each repo has its own issues #1..k)."""
        for driver in self.drivers:
            driver.spawn(issues)

    def discover_sessions(self) -> list[SessionInfo]:
        return [info for d in self.drivers for info in d.discover_sessions()]

    def stop_agents(self) -> None:
        for driver in self.drivers:
            driver.stop_agents()

    def clean_stale(self, keep: Collection[Path]) -> list[Path]:
        return [path for d in self.drivers for path in d.clean_stale(keep)]

    def check_sessions(self, sessions: Sequence[BenchSession]) -> list[str]:
        groups = self._by_project(sessions)
        return [p for d in self.drivers for p in d.check_sessions(groups[d.project.id])]

    def prepare_measure(self, sessions: Sequence[BenchSession], repo: str) -> None:
        groups = self._by_project(sessions)
        for driver in self.drivers:
            if groups[driver.project.id]:  # a project without sessions has no metadata yet
                driver.prepare_measure(groups[driver.project.id], driver.project.repo)

    def finish_measure(self) -> None:
        for driver in self.drivers:
            driver.finish_measure()
