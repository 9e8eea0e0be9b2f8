"""The real-time cell backend (``--backend emulator|github``).

Rate-limit hygiene reads ``/rate_limit`` through the harness's counted control client,
so cells wait for a fitting reset window or are refused (``ghbench.matrix.runner``).
Each cell then runs the runbook's per-cell procedure on the harness
(``ghbench.matrix.realtime_cell``): per-topology repos and setup, one orchestrator over
them, a measurement window with the scenario's trigger (``ghbench.matrix.triggers``),
the ``/rate_limit`` brackets and the scorecard; the runner summarizes and analyzes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.clock import Clock
from ghbench.github.backend import Backend, make_backend
from ghbench.github.names import backend_name
from ghbench.harness.flags import RunFlags
from ghbench.matrix.cells import Cell
from ghbench.matrix.realtime_cell import RealtimeOptions, run_realtime_cell
from ghbench.matrix.runner import CellArtifacts
from ghbench.ratelimit import Bucket

__all__ = ["RealtimeBackend"]


def _quiet(line: str) -> None:
    return None


@dataclass
class RealtimeBackend:
    name: str  # emulator | github
    driver: str  # ao | workload
    state_dir: Path  # the emulator's state: OUT/state/emulator
    clock: Clock
    env: Mapping[str, str]
    work_dir: Path | None = None  # setups and driver state; default OUT/realtime
    flags: RunFlags | None = None  # driver flags (transport, profile, tick, ao)
    duration_scale: float = 1.0
    repos: tuple[str, ...] = ()
    seed: int = 0
    poll_interval: float | None = None  # setup's PR polling; default 1 s emulator, 30 s GitHub
    # the emulator's faults once setup is done (capacity --verify: the model's latency)
    window_faults: Mapping[str, object] | None = None
    log: Callable[[str], None] = _quiet
    _github: Backend | None = field(default=None, repr=False)

    def _backend(self) -> Backend:
        if self._github is None:
            self._github = make_backend(
                backend_name(self.name),
                env=self.env,
                clock=self.clock,
                state_dir=self.state_dir,
            )
            self._github.start()
        return self._github

    def close(self) -> None:
        if self._github is not None:
            self._github.stop()
            self._github = None

    def rate_limit(self) -> Mapping[str, Bucket] | None:
        with self._backend().control_client() as control:
            resources: Mapping[str, Bucket] = control.rate_limit().resources
            return resources

    def run_cell(self, cell: Cell, cell_dir: Path) -> CellArtifacts:
        flags = self.flags or RunFlags(driver=self.driver)
        poll = self.poll_interval
        if poll is None:
            poll = 1.0 if self.name == "emulator" else 30.0
        options = RealtimeOptions(
            flags=flags,
            work_dir=self.work_dir or self.state_dir.parent.parent / "realtime",
            duration_scale=self.duration_scale,
            repos=self.repos,
            seed=self.seed,
            poll_interval=poll,
            window_faults=self.window_faults,
        )
        return run_realtime_cell(
            cell,
            cell_dir,
            backend=self._backend(),
            clock=self.clock,
            env=self.env,
            options=options,
            log=self.log,
        )
