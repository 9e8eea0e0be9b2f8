"""A simulated matrix in two lanes (every other cell in a forked child) gives what one
lane gives, and leaves no process behind, whatever ends it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.clock import VirtualClock
from ghbench.matrix.runner import SimulatedCells, run_matrix
from ghbench.matrix.runs import load_runs
from ghbench.matrix.state import MatrixPlan, save_plan
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.simulation.lanes import SideLane

T0 = 1_776_416_700.0
CELLS = ["S2-T1-1", "S1-T1-5", "S3-T1-1", "S2-T2-5"]


def _matrix(out: Path, lanes: int) -> dict[str, Any]:
    spec = RunSpec(backend="simulated", driver="workload", seed=3)
    plan = MatrixPlan(matrix_run="m1", scales=[], cells=CELLS, spec=spec)
    save_plan(out, plan)
    runner = SimulatedCells(lanes=lanes)
    try:
        run_matrix(plan, runner, out, clock=VirtualClock(T0), operator="t", log=lambda _: None)
    finally:
        runner.close()
    runs = {r.cell: r for r in load_runs(out)}
    assert sorted(runs) == sorted(CELLS) and {r.status for r in runs.values()} == {"ok"}
    return {
        cell: (msgspec.to_builtins(r.scorecard), Path(out, r.trace or "").read_bytes())
        for cell, r in runs.items()
    }


@pytest.mark.slow
def test_two_lanes_give_what_one_gives(tmp_path: Path) -> None:
    assert _matrix(tmp_path / "one", 1) == _matrix(tmp_path / "two", 2)


def _spec(tmp_path: Path, cell: str, sessions: int) -> RunSpec:
    return RunSpec(
        backend="simulated",
        cell=Cell(cell, "T1", sessions),
        warmup=Duration.of(0.0),
        duration=Duration.of(3600.0 * 24),  # a day of virtual time: still running
        out_dir=tmp_path,
    )


def test_a_lane_stopped_early_leaves_no_process(tmp_path: Path) -> None:
    lane = SideLane([_spec(tmp_path, "S2", 50)])
    pid = lane._child.pid
    assert pid is not None and lane.has("S2-T1-50")
    lane.stop()
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


def _ours(marker: str) -> list[int]:
    """Processes whose command line names ``marker`` (a fork keeps its parent's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.slow
def test_sigterm_ends_the_matrix_and_its_second_lane(tmp_path: Path) -> None:
    out = tmp_path / "sigterm-matrix"
    cells = "S3-T1-50,S1-T1-50,S5-T1-50,S4-T1-50,S6-T1-50,S3-T2-50"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "matrix", "run", "--cells", cells, "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    for line in proc.stdout:  # the first cell has begun: the second lane runs its own
        if line.startswith("[1/6]"):
            break
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert _ours(str(out)) == []
