"""The real-time cell backend (``--backend emulator|github``).

Rate-limit hygiene is real: ``rate_limit`` reads ``/rate_limit`` through the harness's
counted control client, so cells wait for a fitting reset window or are refused.

Running a cell in real time needs, per the runbook's per-cell procedure, hooks the
harness does not offer yet: a multi-repo (T2) project, and the scenario triggers
(S1 stop/clear caches/start, S3 batch-spawn at t0, S4 posting review comments, S5
kill and restart mid-run, S6 a headless dashboard reader). Until they exist,
``run_cell`` fails each cell with that reason; the matrix records the failure and
moves on, and ``ghbench measure`` covers the quiet-steady (S2-T1) cells by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.clock import Clock
from ghbench.errors import GhbenchError
from ghbench.matrix.cells import Cell
from ghbench.matrix.hygiene import BucketLike
from ghbench.matrix.runner import CellArtifacts

__all__ = ["RealtimeBackend"]


@dataclass
class RealtimeBackend:
    name: str  # emulator | github
    driver: str  # ao | workload
    state_dir: Path
    clock: Clock
    env: Mapping[str, str]
    _github: Any = field(default=None, repr=False)

    def _backend(self) -> Any:
        if self._github is None:
            from ghbench.github.backend import make_backend

            self._github = make_backend(
                self.name,  # type: ignore[arg-type]
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

    def rate_limit(self) -> Mapping[str, BucketLike] | None:
        with self._backend().control_client() as control:
            resources: Mapping[str, BucketLike] = control.rate_limit().resources
            return resources

    def run_cell(self, cell: Cell, cell_dir: Path) -> CellArtifacts:
        raise GhbenchError(
            f"{cell.id}: real-time cells need scenario triggers ({cell.info.trigger}) and"
            " multi-repo projects that the harness does not provide yet; run the simulated"
            " matrix (no --backend) or `ghbench setup`/`measure` for S2-T1 cells"
        )
