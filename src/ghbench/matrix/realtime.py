"""The real-time cell runner (``--backend emulator|github``).

Rate-limit hygiene reads ``/rate_limit`` through the harness's counted control client,
so cells wait for a fitting reset window or are refused (``ghbench.matrix.runner``).
Each cell then runs the runbook's per-cell procedure on the harness
(``ghbench.matrix.realtime_cell``); the runner summarizes and analyzes. One GitHub
serves every cell: started with the first, stopped by ``close``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.clock import Clock
from ghbench.github.backend import Backend, make_backend
from ghbench.matrix.cell_setup import CellPlace
from ghbench.matrix.realtime_cell import run_realtime_cell
from ghbench.matrix.runner import CellResult
from ghbench.ratelimit import Bucket
from ghbench.runspec.spec import RunSpec

__all__ = ["RealtimeCells"]


def _quiet(line: str) -> None:
    return None


@dataclass
class RealtimeCells:
    """Cells in real time on the GitHub their spec names."""

    spec: RunSpec  # the plan's: which GitHub
    state_dir: Path  # the emulator's state: OUT/state/emulator
    work_dir: Path  # setups and driver state the cells share: OUT/realtime
    clock: Clock
    env: Mapping[str, str]
    # the emulator's faults once setup is done (capacity --verify: the model's latency)
    window_faults: Mapping[str, object] | None = None
    log: Callable[[str], None] = _quiet
    _github: Backend | None = field(default=None, repr=False)

    def _backend(self) -> Backend:
        if self._github is None:
            self._github = make_backend(
                self.spec.github, env=self.env, clock=self.clock, state_dir=self.state_dir
            )
            self._github.start()
        return self._github

    def close(self) -> None:
        if self._github is not None:
            self._github.stop()
            self._github = None

    def ahead(self, specs: Sequence[RunSpec]) -> bool:
        """Each cell as it comes: its hygiene first."""
        return False

    def share(self, jobs: Sequence[Callable[[], Any]]) -> Callable[[], list[Any]]:
        """The jobs, here, one after another once the cells are done."""
        return lambda: [job() for job in jobs]

    def rate_limit(self) -> Mapping[str, Bucket] | None:
        with self._backend().benchmark_client() as client:
            resources: Mapping[str, Bucket] = client.rate_limit().resources
            return resources

    def run_cell(self, spec: RunSpec) -> CellResult:
        place = CellPlace(self._backend(), self.clock, self.env, self.work_dir, self.log)
        return run_realtime_cell(spec, place, window_faults=self.window_faults)
