"""ghbench.drivers.workload.kind: the workload model's row of the driver table: which
runs it takes, one model per project or one model polling a spread's projects, and a
matrix cell's projects."""

from __future__ import annotations

from pathlib import Path

from ghbench.clock import VirtualClock
from ghbench.drivers.kind import DriverContext
from ghbench.drivers.workload.driver import WorkloadDriver, WorkloadFleet
from ghbench.drivers.workload.kind import WORKLOAD
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import RunSpec


def test_it_takes_workload_runs_and_calls_gh_only_over_gh() -> None:
    assert WORKLOAD.runs(RunSpec(driver="workload"), {})
    assert not WORKLOAD.runs(RunSpec(driver="ao"), {})
    assert WORKLOAD.uses_gh(RunSpec(driver="workload", transport="gh"))
    assert not WORKLOAD.uses_gh(RunSpec(driver="workload", transport="http"))


def test_a_cells_projects_each_have_their_prefix(tmp_path: Path) -> None:
    repos = ("ghbench-matrix/t2-10-r1", "ghbench-matrix/t2-10-r2")
    projects = WORKLOAD.cell_projects(Cell("S2", "T2", 10), repos, tmp_path, True, False)
    assert [(p.id, p.repo, p.session_prefix) for p in projects] == [
        ("ghbench-matrix-t2-10-r1", repos[0], "r1"),
        ("ghbench-matrix-t2-10-r2", repos[1], "r2"),
    ]
    assert projects[0].path == tmp_path / "checkouts" / "ghbench-matrix-t2-10-r1"
    assert not (tmp_path / "checkouts").exists()  # the model needs no checkout


def test_one_model_per_project_or_one_polling_the_spread(tmp_path: Path) -> None:
    spec = RunSpec(driver="workload", backend="emulator", out_dir=tmp_path)
    ctx = DriverContext(
        spec, EmulatorBackend(state_dir=tmp_path / "e", clock=VirtualClock()), tmp_path, {}
    )
    repos = ("ghbench-matrix/t2-10-r1", "ghbench-matrix/t2-10-r2")
    projects = WORKLOAD.cell_projects(Cell("S2", "T2", 10), repos, tmp_path, True, False)
    one = WORKLOAD.build(ctx, projects[:1])
    assert isinstance(one, WorkloadDriver)
    assert one.work_dir == tmp_path / "state" / "workload" / "ghbench-matrix-t2-10-r1"
    spread = WORKLOAD.build(ctx, projects)
    assert isinstance(spread, WorkloadFleet)
    assert [m.project_id for m in spread.members] == [
        "ghbench-matrix-t2-10-r1",
        "ghbench-matrix-t2-10-r2",
    ]
    assert spread.project_id == "ghbench-matrix-t2-10-spread"  # its state: the first's id, -spread
    assert spread.model.polled == tuple(projects)
