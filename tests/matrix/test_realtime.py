"""Real-time cells: the scenario trigger table, and whole cells through the real CLI.

The end-to-end tests run ``ghbench matrix run --backend emulator --driver workload`` as
a subprocess: the emulator over a real socket, the workload orchestrator as a process
calling the real gh, durations shortened with ``--duration-scale``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.errors import UsageError
from ghbench.harness.factory import RunFlags
from ghbench.matrix.cells import Cell
from ghbench.matrix.realtime_cell import _check_scenario
from ghbench.matrix.record import load_runs
from ghbench.matrix.triggers import CellHooks, comment_burst_plan, scenario_triggers


def _noop(*_: object) -> None:
    return None


def _hooks() -> CellHooks:
    return CellHooks(
        restart=_noop,
        spawn_all=_noop,
        comment_burst=_noop,
        start_dashboard=_noop,
        stop_dashboard=_noop,
    )


def test_trigger_offsets_follow_the_runbook() -> None:
    at = {s: [t.at_s for t in scenario_triggers(s, 600.0, _hooks())] for s in ("S1", "S2", "S5")}
    assert at == {"S1": [0.0], "S2": [], "S5": [300.0]}
    s6 = scenario_triggers("S6", 600.0, _hooks())
    assert [t.at_s for t in s6] == [0.0, 600.0]


def test_comment_burst_is_5_to_10_comments_on_half_the_prs() -> None:
    prs = [("o/a", n) for n in range(1, 8)] + [("o/b", n) for n in range(1, 4)]
    plan = comment_burst_plan(prs, random.Random(3))
    assert len(plan) == 5
    assert all(5 <= count <= 10 for _, _, count in plan)
    assert len({(r, n) for r, n, _ in plan}) == 5
    assert plan == comment_burst_plan(prs, random.Random(3))
    assert comment_burst_plan([("o/a", 1)], random.Random(0))[0][:2] == ("o/a", 1)


def test_s6_with_ao_refuses_a_missing_ghbench_chromium_before_setup(tmp_path: Path) -> None:
    """S6 with --driver ao runs with or without Chromium (tests/matrix/test_ao_cells.py);
    only a browser named in $GHBENCH_CHROMIUM that is not installed is refused, at once."""
    env = {"PATH": str(tmp_path), "GHBENCH_CHROMIUM": "no-such-browser"}
    with pytest.raises(UsageError, match="GHBENCH_CHROMIUM=no-such-browser: no such program"):
        _check_scenario(Cell("S6", "T1", 5), RunFlags(driver="ao"), env)
    _check_scenario(Cell("S6", "T1", 5), RunFlags(driver="ao"), {"PATH": str(tmp_path)})
    _check_scenario(Cell("S6", "T1", 5), RunFlags(driver="workload"), env)
    _check_scenario(Cell("S4", "T1", 5), RunFlags(driver="ao"), env)


def _matrix_run(out: Path, cell: str, scales: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "matrix", "run", "--cells", cell, "--scales", scales]
    argv += ["--backend", "emulator", "--driver", "workload", "--duration-scale", "0.01"]
    argv += ["--out", str(out)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def _trace_rows(out: Path, trace: str) -> list[dict[str, object]]:
    lines = (out / trace).read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.slow
@pytest.mark.gh
def test_review_burst_cell_end_to_end(tmp_path: Path) -> None:
    proc = _matrix_run(tmp_path, "S4-T1-2", "2")
    assert proc.returncode == 0, proc.stderr
    (run,) = load_runs(tmp_path)
    assert run.status == "ok" and run.backend == "emulator" and run.driver == "workload"
    assert run.repos == ["ghbench-matrix/t1-2-r1"]
    assert run.duration_s == pytest.approx(6.0) and run.warmup_s == pytest.approx(1.2)
    burst = [n for n in run.notes if n.startswith("S4: ")]
    assert burst and int(burst[0].split()[1]) >= 5
    snapshots = run.rate_limit_snapshots or {}
    assert snapshots.get("before") and snapshots.get("after")
    assert run.trace is not None
    rows = _trace_rows(tmp_path, run.trace)
    assert rows and run.summary_text and run.analysis_text
    assert any("/comments" in str(r.get("endpoint")) for r in rows)  # the reaction path
    baseline = (tmp_path / "baseline.md").read_text()
    assert "### S4-T1-2: Review backlog burst, concentrated, 2 sessions" in baseline
    assert "**ghbench summarize output:**" in baseline and "S4: " in baseline


@pytest.mark.slow
@pytest.mark.gh
def test_spread_cell_uses_every_repo(tmp_path: Path) -> None:
    proc = _matrix_run(tmp_path, "S2-T2-4", "4")
    assert proc.returncode == 0, proc.stderr
    (run,) = load_runs(tmp_path)
    assert run.status == "ok"
    assert run.repos == ["ghbench-matrix/t2-4-r1", "ghbench-matrix/t2-4-r2"]
    assert run.trace is not None
    rows = _trace_rows(tmp_path, run.trace)
    polled = {repo for repo in run.repos for r in rows if repo in json.dumps(r)}
    assert polled == set(run.repos)
    assert (
        "ghbench-matrix/t2-4-r1, ghbench-matrix/t2-4-r2" in (tmp_path / "baseline.md").read_text()
    )
