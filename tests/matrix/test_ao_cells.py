"""Real-time cells with ``--driver ao``: T2 over one AO, S6 reading AO's dashboard, and
S3's spawn into a running AO on its own.

``ghbench matrix run --backend emulator --driver ao`` runs as a subprocess against the
stand-in ``ao`` (tests/drivers/fake_ao/ao): the emulator over a real socket, the real
gh, real git checkouts and worktrees, a private tmux server, the stand-in's own HOME
and TMPDIR, durations shortened with ``--duration-scale``. The stand-in logs every
invocation, every poll and every dashboard page it served, so the tests check what
ghbench did against what "AO" saw. ``ao_env`` (tests/conftest.py) is the private
environment.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ghbench.drivers.ao import AoCommand, AoDriver
from ghbench.errors import GhbenchError
from ghbench.harness.setup_record import read_setup
from ghbench.matrix.ao_cell import prepare_ao_cell, spawn_storm
from ghbench.matrix.cells import Cell
from ghbench.matrix.dashboard import is_dashboard_row
from ghbench.matrix.record import RunRecord, load_runs
from ghbench.timefmt import parse_iso
from tools import require_tool

FAKE_AO = Path(__file__).parents[1] / "drivers" / "fake_ao" / "ao"

pytestmark = [
    pytest.mark.gh,
    pytest.mark.slow,
    pytest.mark.needs("tmux", "git"),
]


def _matrix_run(
    out: Path, cell: str, scale: str, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "matrix", "run", "--cells", cell, "--scales", scale]
    argv += ["--backend", "emulator", "--driver", "ao", "--ao", str(FAKE_AO)]
    argv += ["--duration-scale", "0.01", "--out", str(out)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=240, env=env, cwd=out)


def _log(env: dict[str, str], name: str) -> list[Any]:
    path = Path(env["HOME"]) / ".agent-orchestrator" / name
    return [json.loads(line) for line in path.read_text().splitlines()]


def _rows(out: Path, run: RunRecord) -> list[dict[str, Any]]:
    assert run.trace is not None
    lines = (out / run.trace).read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _run(out: Path, proc: subprocess.CompletedProcess[str]) -> RunRecord:
    assert proc.returncode == 0, proc.stderr
    (run,) = load_runs(out)
    assert run.status == "ok" and run.driver == "ao", run.reason
    return run


def test_spread_cell_runs_one_ao_over_every_repo(tmp_path: Path, ao_env: dict[str, str]) -> None:
    run = _run(tmp_path, _matrix_run(tmp_path, "S2-T2-4", "4", ao_env))
    repos = ["ghbench-matrix/t2-4-r1", "ghbench-matrix/t2-4-r2"]
    assert run.repos == repos
    projects = [r.replace("/", "-") for r in repos]

    # setup: one AO per project, batch-spawn from each project's directory; the window:
    # ONE more `ao start`, for the first project, on the config holding both
    starts = [c[1] for c in _log(ao_env, "fake-ao-calls.log") if c[:1] == ["start"]]
    assert starts == [projects[0], projects[1], projects[0]]
    (config,) = (tmp_path / "realtime" / "ao").glob("*/agent-orchestrator.yaml")
    listed = json.loads(config.read_text())["projects"]
    assert list(listed) == projects
    assert [p["sessionPrefix"] for p in listed.values()] == ["r1", "r2"]

    # the session <-> issue <-> PR mapping holds in every project
    by_project: dict[str, dict[str, tuple[int | None, str, int]]] = {}
    for project in projects:
        (path,) = (tmp_path / "realtime").glob(f"setup-{project}-*.json")
        record = read_setup(path)
        by_project[project] = {
            s.session_id: (s.issue, s.branch, s.pr_number) for s in record.sessions
        }
        for s in record.sessions:
            assert s.branch == f"feat/issue-{s.issue}"
            assert f"/{record.repo}/pull/{s.pr_number}" in s.pr_url
            assert s.worktree_path.parent.parent.name == project
    assert sorted(by_project[projects[0]]) == ["r1-1", "r1-2"]
    assert sorted(by_project[projects[1]]) == ["r2-1", "r2-2"]

    # every spread repo polled by the one poller, with each project's sessions alive
    polls = _log(ao_env, "fake-ao-polls.log")
    assert any(
        sorted(p["live"]) == ["r1-1", "r1-2", "r2-1", "r2-2"] and p["repos"] == repos for p in polls
    )
    rows = _rows(tmp_path, run)
    for repo, project in zip(repos, projects, strict=True):
        guards = [r for r in rows if r["operation"] == "gh.api.guard-pr-list"]
        assert any(r["endpoint"].startswith(f"repos/{repo}/pulls") for r in guards)
        viewed = {
            r["args"][2] for r in rows if r["operation"] == "gh.pr.view" and repo in r["args"]
        }
        assert viewed == {str(pr) for _, _, pr in by_project[project].values()}


def test_spread_cell_fails_when_ao_polls_only_the_started_project(
    tmp_path: Path, ao_env: dict[str, str]
) -> None:
    """An AO that scopes its poller to ``ao start``'s project measured no spread: the cell
    fails and says so, rather than recording one repo's numbers as T2."""
    env = {**ao_env, "FAKE_AO_POLL": "started"}
    proc = _matrix_run(tmp_path, "S2-T2-4", "4", env)
    assert proc.returncode == 1
    (run,) = load_runs(tmp_path)
    assert run.status == "failed" and run.reason is not None
    assert run.reason.startswith("S2-T2-4: AO's trace has no call for ghbench-matrix/t2-4-r2:")
    assert "did not measure a spread" in run.reason
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("reader", ["httpx", "chromium"])
def test_dashboard_cell_reads_aos_dashboard(
    tmp_path: Path, ao_env: dict[str, str], reader: str
) -> None:
    if reader == "chromium":
        require_tool("chromium")
    env = {**ao_env, "GHBENCH_CHROMIUM": "none" if reader == "httpx" else "chromium"}
    run = _run(tmp_path, _matrix_run(tmp_path, "S6-T1-2", "2", env))

    # the window started AO with its dashboard; setup did not
    starts = [c for c in _log(ao_env, "fake-ao-calls.log") if c[:1] == ["start"]]
    assert ["--no-dashboard" in c for c in starts] == [True, False]
    pages = _log(ao_env, "fake-ao-dashboard.log")
    served = [p["path"] for p in pages if p["status"] == 200]
    assert "/" in served and {"/sessions/r1-1", "/sessions/r1-2"} <= set(served)
    made = [call for p in pages for call in p["calls"]]
    assert sorted(set(made)) == ["gh.issue.view", "gh.pr.view"]

    # dashboard rows exist in the window and the split tells them from lifecycle rows
    assert run.scorecard_path is not None
    window = json.loads((tmp_path / run.scorecard_path).read_text())["window"]
    start, end = (round(parse_iso(window[k]) * 1000) for k in ("start", "end"))
    rows = _rows(tmp_path, run)
    in_window = [r for r in rows if start <= round(parse_iso(r["timestamp"]) * 1000) <= end]
    dashboard = [r for r in in_window if is_dashboard_row(r)]
    lifecycle = [r for r in in_window if not is_dashboard_row(r)]
    assert len(dashboard) == len(made) > 0  # every call the dashboard made, and only those
    assert {r["component"] for r in dashboard} == {"tracker-github", "scm-github"}
    assert all(r["args"][-1] == "state" for r in lifecycle if r["operation"] == "gh.pr.view")
    assert {"gh.api.guard-pr-list", "gh.pr.view"} <= {r["operation"] for r in lifecycle}
    split = [n for n in run.notes if n.startswith("S6: in the window")]
    assert split == [
        f"S6: in the window, {len(dashboard)} dashboard calls"
        f" ({made.count('gh.issue.view')} gh.issue.view, {made.count('gh.pr.view')}"
        f" gh.pr.view) and {len(lifecycle)} lifecycle calls"
    ]

    reader_note = next(n for n in run.notes if "AO's dashboard" in n)
    if reader == "httpx":
        assert reader_note.startswith("S6: GHBENCH_CHROMIUM=none; AO's dashboard pages were")
        assert "/favicon.ico" not in [p["path"] for p in pages]
    else:
        assert "by clicking a link" in reader_note and "Chrome/" in reader_note
        assert "(0 by clicking" not in reader_note
        assert "/favicon.ico" in [p["path"] for p in pages]  # a real browser loaded them


def test_spawn_storm_names_the_new_sessions_and_fails_short_of_the_scale(
    tmp_path: Path, ao_env: dict[str, str]
) -> None:
    """Each project's issues go to ``batch-spawn`` from its directory; only sessions it
    started count (AO skips an issue that already has an active session)."""
    repos = ["o/a", "o/b"]
    cfg = prepare_ao_cell(Cell("S3", "T2", 10), repos, tmp_path / "rt", backend_name="emulator")
    drivers = [
        AoDriver(
            project=p, command=AoCommand(str(FAKE_AO)), base_env=ao_env, log_dir=tmp_path / "log"
        )
        for p in cfg.projects
    ]
    assert spawn_storm(cfg.projects, drivers, {"o/a": 2, "o/b": 1}) == ["r1-1", "r1-2", "r2-1"]
    spawns = [c for c in _log(ao_env, "fake-ao-calls.log") if c[:1] == ["batch-spawn"]]
    assert spawns == [["batch-spawn", "1", "2"], ["batch-spawn", "1"]]
    # issues 1 and 2 of o/a have live sessions: only #3 starts one
    with pytest.raises(GhbenchError, match=r"in o-a started 1 of 3 sessions"):
        spawn_storm(cfg.projects[:1], drivers[:1], {"o/a": 3})
