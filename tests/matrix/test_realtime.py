"""Real-time cells: the scenario trigger table, the run's timing against hygiene's, and
whole cells through the real CLI.

The end-to-end tests run ``ghbench matrix run --backend emulator --driver workload`` as
a subprocess: the emulator over a real socket, the workload orchestrator as a process
calling the real gh, durations shortened with ``--duration-scale``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from ghbench.artifacts.models import Scorecard, ScorecardArtifact
from ghbench.drivers.registry import check_cell
from ghbench.errors import GhbenchError, UsageError
from ghbench.matrix.checks import require_calls
from ghbench.matrix.hygiene import CellTiming, run_timing, spec_timing
from ghbench.matrix.runner import cell_spec
from ghbench.matrix.runs import MatrixRun, load_runs
from ghbench.matrix.state import MatrixPlan
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec


def test_s6_with_ao_refuses_a_missing_ghbench_chromium_before_setup(tmp_path: Path) -> None:
    """S6 with --driver ao runs with or without Chromium (tests/realao/test_matrix.py);
    only a browser named in $GHBENCH_CHROMIUM that is not installed is refused, at once."""
    env = {"PATH": str(tmp_path), "GHBENCH_CHROMIUM": "no-such-browser"}
    ao, model = RunSpec(driver="ao"), RunSpec(driver="workload")
    with pytest.raises(UsageError, match="GHBENCH_CHROMIUM=no-such-browser: no such program"):
        check_cell(ao, Cell("S6", "T1", 5), env)
    check_cell(ao, Cell("S6", "T1", 5), {"PATH": str(tmp_path)})
    check_cell(model, Cell("S6", "T1", 5), env)
    check_cell(ao, Cell("S4", "T1", 5), env)


@pytest.mark.parametrize("driver", ["workload", "ao"])
@pytest.mark.parametrize(
    ("scale", "tick"), [(1.0, None), (0.01, None), (0.1, None), (0.1, 7.0), (1.0, 2.5)]
)
def test_a_cell_runs_for_as_long_as_hygiene_estimated(
    tmp_path: Path, driver: str, scale: float, tick: float | None
) -> None:
    """The cell's own spec (``cell_spec``, what its runner gets) times its run and tells
    the model its poll interval as hygiene's estimate counted them, from the same plan."""
    ticks = None if tick is None else Duration(tick, f"{tick:g}s")
    run_spec = RunSpec(backend="emulator", driver=driver, duration_scale=scale, tick=ticks)  # type: ignore[arg-type]
    plan = MatrixPlan(matrix_run="m1", scales=[5], cells=[], spec=run_spec)
    spec = plan.run
    for cell in (Cell("S2", "T1", 5), Cell("S3", "T2", 10), Cell("S5", "T1", 1)):
        timing = run_timing(spec, cell)
        run = cell_spec(spec, cell, timing, tmp_path)
        assert spec_timing(run) == timing
        assert (run.warmup.seconds, run.duration.seconds) == (timing.warmup_s, timing.window_s)
        if driver == "ao":  # AO polls at its own 30 s whatever the scale
            assert timing.tick_s is None and timing.poll_s == 30.0
            continue
        # the model is told the interval the estimate counted cycles at
        assert (None if run.tick is None else run.tick.seconds) == timing.tick_s
        assert timing.poll_s == (30.0 if timing.tick_s is None else timing.tick_s)


def _matrix_run(out: Path, cell: str, scales: str, *flags: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "matrix", "run", "--cells", cell, "--scales", scales]
    argv += ["--backend", "emulator", "--driver", "workload", "--duration-scale", "0.01"]
    argv += ["--out", str(out), *flags]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("model", "hint"), [(True, " or a shorter --tick"), (False, "")])
def test_a_window_that_sees_no_call_fails_the_cell(model: bool, hint: str) -> None:
    """A window that fell between two polls measured nothing: the cell fails and says
    why, rather than record a scenario that costs 0."""
    cell = Cell("S3", "T1", 1)
    timing = CellTiming(warmup_s=0.0, window_s=30.0, poll_s=30.0, tick_s=None)
    trace = Path("t.jsonl")

    def card(calls: int) -> ScorecardArtifact:
        return ScorecardArtifact(
            scenario_id="s",
            measured_at="2026-01-01T00:00:00Z",
            scorecard=Scorecard(total_calls=calls),
        )

    with pytest.raises(GhbenchError) as err:
        require_calls(cell, card(0), timing, tick=model, trace=trace)
    assert str(err.value) == (
        "S3-T1-1: the orchestrator made no GitHub call in the 30s window (it polls every"
        f" 30s), so the cell measured nothing; give a larger --duration-scale{hint}"
        " (the trace is t.jsonl)"
    )
    require_calls(cell, card(1), timing, tick=model, trace=trace)


def _measured(
    out: Path, cell: str, scales: str, *flags: str
) -> tuple[MatrixRun, list[dict[str, object]]]:
    """Run one cell with the workload model; its one run, successful, and its trace rows."""
    proc = _matrix_run(out, cell, scales, *flags)
    assert proc.returncode == 0, proc.stderr
    (run,) = load_runs(out)
    assert run.status == "ok" and run.backend == "emulator" and run.driver == "workload", run.reason
    assert run.trace is not None
    lines = (out / run.trace).read_text().splitlines()
    return run, [json.loads(line) for line in lines if line.strip()]


@pytest.mark.slow
@pytest.mark.gh
def test_review_burst_cell_end_to_end(tmp_path: Path) -> None:
    # AO main reads review comments behind an ETag (AO 0.10 sees a burst only as a change
    # of its PRs: tests/workload/test_observer.py)
    run, rows = _measured(tmp_path, "S4-T1-2", "2", "--profile", "ao-main-60e8c881")
    assert run.repos == ["ghbench-matrix/t1-2-r1"]
    assert run.duration_s == pytest.approx(6.0) and run.warmup_s == pytest.approx(1.2)
    burst = [n for n in run.notes if n.startswith("S4: ")]
    assert burst and int(burst[0].split()[1]) >= 5
    snapshots = run.rate_limit_snapshots
    assert snapshots is not None and snapshots.before and snapshots.after
    assert rows and run.summary_text and run.analysis_text
    assert any("/comments" in str(r.get("endpoint")) for r in rows)  # the reaction path
    baseline = (tmp_path / "baseline.md").read_text()
    assert "### S4-T1-2: Review backlog burst, concentrated, 2 sessions" in baseline
    assert "**ghbench summarize output:**" in baseline and "S4: " in baseline


@pytest.mark.slow
@pytest.mark.gh
def test_spread_cell_uses_every_repo(tmp_path: Path) -> None:
    run, rows = _measured(tmp_path, "S2-T2-4", "4")
    assert run.repos == ["ghbench-matrix/t2-4-r1", "ghbench-matrix/t2-4-r2"]
    polled = {repo for repo in run.repos for r in rows if repo in json.dumps(r)}
    assert polled == set(run.repos)
    assert (
        "ghbench-matrix/t2-4-r1, ghbench-matrix/t2-4-r2" in (tmp_path / "baseline.md").read_text()
    )


@pytest.mark.slow
@pytest.mark.gh
def test_dashboard_cell_with_the_workload_model_reads_on_the_cadence(tmp_path: Path) -> None:
    # AO main's dashboard reads GitHub (AO 0.10's desktop app reads its daemon)
    run, trace = _measured(tmp_path, "S6-T1-2", "2", "--profile", "ao-main-60e8c881")
    rows = [r for r in trace if r.get("component") == "dashboard"]
    assert f"S6: the dashboard reader made {len(rows)} calls (component dashboard)" in run.notes
    # the first refresh titles every session, then the clicks open their PRs round-robin
    args = [[str(a) for a in cast(list[object], r["args"])] for r in rows]
    assert [a[:3] for a in args[:2]] == [["issue", "view", "1"], ["issue", "view", "2"]]
    assert args[2][:2] == ["pr", "view"]
    prs = [a[2] for a in args if a[:2] == ["pr", "view"]]
    assert len(prs) >= 2 and len(set(prs)) == 2
    assert prs == [prs[i % 2] for i in range(len(prs))]
    split = [n for n in run.notes if n.startswith("S6: in the window")]
    assert len(split) == 1 and "dashboard calls (" in split[0]
