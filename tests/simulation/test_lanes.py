"""A simulated matrix in two lanes (every other cell in a forked child) gives what one
lane gives, and leaves no process behind, whatever ends it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.clock import VirtualClock
from ghbench.errors import GhbenchError
from ghbench.matrix.capacity import series_search, series_searches, store_series
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


def _square(n: int) -> int:
    return n * n


def _refuse(n: int) -> int:
    raise ValueError(f"no answer for {n}")


@pytest.mark.parametrize("lanes", [1, 2])
def test_jobs_after_the_cells_come_back_in_order_whichever_lane_ran_them(
    tmp_path: Path, lanes: int
) -> None:
    """The jobs a runner shares (a matrix's capacity searches) run once the cells are
    done, on both lanes when there are two: their results in order, each its own."""
    runner = SimulatedCells(lanes=lanes)
    results = runner.share([partial(_square, n) for n in range(9)])
    try:
        assert runner.ahead([_spec(tmp_path, "S2", 1)])
        runner.run_cell(_spec(tmp_path, "S2", 1))
        assert results() == [n * n for n in range(9)]
    finally:
        runner.close()


def test_a_job_that_fails_fails_the_results_whichever_lane_ran_it(tmp_path: Path) -> None:
    runner = SimulatedCells(lanes=2)
    results = runner.share([partial(_refuse, n) for n in range(4)])
    try:
        runner.ahead([])
        with pytest.raises((GhbenchError, ValueError), match="no answer for"):
            results()
    finally:
        runner.close()


@pytest.mark.slow
def test_series_searches_on_two_lanes_are_capacitys_own(tmp_path: Path) -> None:
    """A matrix's capacity searches, shared between two lanes, answer what ``ghbench
    capacity``'s search answers for the series in one process (the same engine); kept in
    ``capacity/``, they are not searched again unless a setting changes."""
    plan = RunSpec(backend="simulated", profile="ao-0.12.6", seed=5)
    cells = [Cell("S2", "T1", 1), Cell("S6", "T2", 5), Cell("S2", "T1", 5)]
    searches = series_searches(tmp_path, plan, cells)
    assert [(s.cell.scenario, s.cell.topology) for s in searches] == [("S6", "T2"), ("S2", "T1")]
    runner = SimulatedCells(lanes=2)
    results = runner.share([partial(series_search, s) for s in searches])
    try:
        runner.ahead([])
        shared = results()
    finally:
        runner.close()
    assert shared == [series_search(s) for s in searches]
    for spec, result in zip(searches, shared, strict=True):
        store_series(tmp_path, spec, result)
    assert series_searches(tmp_path, plan, cells) == []
    other = msgspec.structs.replace(plan, profile="ao-0.10.3")
    assert len(series_searches(tmp_path, other, cells)) == 2


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
