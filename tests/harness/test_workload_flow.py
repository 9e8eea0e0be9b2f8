"""setup then measure of the workload driver, as real processes over loopback.

The emulator runs as its own process with state in OUT/state/emulator, so the
setup and each measure really restart it and find their state again.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from golden_files import check_golden, normalized

from .helpers import (
    WORKLOAD_FLAGS,
    Output,
    children,
    clean_env,
    cmdline,
    ghbench,
    make_project,
    popen_ghbench,
)

# setup, then measure windows as real processes: seconds each (make test-fast leaves them
# out; tests/harness/test_demo.py runs the same flow once there)
pytestmark = pytest.mark.slow

SETUP = [
    "setup",
    "--project",
    "todo-app",
    "--sessions",
    "3",
    "--issues",
    "1-3",
    "--poll-interval",
    "1s",
    "--tick",
    "1s",
    *WORKLOAD_FLAGS,
]
MEASURE = ["measure", "--project", "todo-app", "--sessions", "3", "--tick", "1s", *WORKLOAD_FLAGS]
ARTIFACT = "setup-todo-app-quiet-steady.single-repo.3.json"
# how long an interrupted or orphaned measure may take to finish before the test calls it
# a hang. Ctrl-C reaches the measure only if SIGINT is not ignored where pytest runs: a
# suite started in the background of a non-interactive shell (`cmd &`) ignores it, and
# so do its children (/proc/PID/status, SigIgn)
HANG_S = 180


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(tmp_path_factory.mktemp("flow"))
    proc = ghbench(*SETUP, "--out", "out", cwd=root, env=clean_env(root))
    assert proc.returncode == 0, proc.stderr
    return root


def _setup(root: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((root / "out" / ARTIFACT).read_text())
    return data


def _scorecards(root: Path) -> list[Path]:
    return sorted((root / "out").glob("scorecard-*.json"), key=lambda p: p.stat().st_mtime)


def test_setup_maps_sessions_to_issues(root: Path) -> None:
    data = _setup(root)
    assert data["ready"] is True
    sessions = data["sessions"]
    assert isinstance(sessions, list)
    assert [s["issue"] for s in sessions] == [1, 2, 3]
    assert [s["sessionId"] for s in sessions] == ["ta-1", "ta-2", "ta-3"]
    assert all(s["branch"] == f"feat/issue-{s['issue']}" for s in sessions)
    assert all(Path(s["worktreePath"]).is_dir() for s in sessions)
    assert len({s["prNumber"] for s in sessions}) == 3


def test_a_valid_setup_is_reused(root: Path) -> None:
    before = (root / "out" / ARTIFACT).read_bytes()
    proc = ghbench(*SETUP, "--out", "out", cwd=root, env=clean_env(root))
    assert proc.returncode == 0, proc.stderr
    assert "Setup already exists, reusing." in proc.stderr
    assert (root / "out" / ARTIFACT).read_bytes() == before


def _measure(root: Path) -> subprocess.CompletedProcess[str]:
    return ghbench(
        *MEASURE,
        "--warmup",
        "1s",
        "--duration",
        "3s",
        "--out",
        "out",
        cwd=root,
        env=clean_env(root),
    )


def test_measure_writes_scorecard_trace_plot_and_summaries(root: Path) -> None:
    proc = _measure(root)
    assert proc.returncode == 0, proc.stderr
    card_path = _scorecards(root)[-1]
    card = json.loads(card_path.read_text())
    assert card["incomplete"] is False
    assert card["scorecard"]["benchmarkControlCalls"] == 2
    assert card["sessionCount"] == 3
    trace = Path(card["trace"])
    rows = [json.loads(line) for line in trace.read_text().splitlines()]
    assert rows and all(r.get("component") != "benchmark-control" for r in rows)
    assert not any((r.get("endpoint") or "").startswith("rate_limit") for r in rows)
    for key in ("summarizerOutput", "analyzerOutput"):
        assert Path(card["supplemental"][key]).read_text().strip()
    pngs = list((root / "out").glob("burn-*.png"))
    assert pngs and pngs[0].read_bytes()[:4] == b"\x89PNG"
    assert "GH Rate-Limit Benchmark" in proc.stdout
    assert str(card_path.name) in proc.stdout


def _start_long_measurement(root: Path) -> tuple[subprocess.Popen[str], Output]:
    """A 5-minute measure, returned once its window has begun (for interrupting it)."""
    proc = popen_ghbench(
        *MEASURE,
        "--warmup",
        "1s",
        "--duration",
        "5m",
        "--out",
        "out",
        cwd=root,
        env=clean_env(root),
    )
    output = Output(proc)
    output.wait_for_line("window:")
    return proc, output


def test_ctrl_c_writes_an_incomplete_scorecard_and_exits_130(root: Path) -> None:
    before = set(_scorecards(root))
    proc, output = _start_long_measurement(root)
    proc.send_signal(signal.SIGINT)
    out, err = output.communicate(timeout=HANG_S)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("error: measurement interrupted")
    new = set(_scorecards(root)) - before
    assert len(new) == 1
    card = json.loads(new.pop().read_text())
    assert card["incomplete"] is True
    assert "interrupted" in card["incompleteReason"]
    assert card["rateLimitSnapshots"]["after"] is not None
    assert "GH Rate-Limit Benchmark" in out


def test_orchestrator_death_is_reported_and_the_trace_kept(root: Path) -> None:
    before = set(_scorecards(root))
    proc, output = _start_long_measurement(root)
    # The model's first rows are what must survive its death: kill it once it has
    # written some (how soon it does depends on the machine's load, not on ghbench).
    trace = Path(output.wait_for_line("trace: ")[-1].split("trace: ", 1)[1].strip())
    deadline = time.monotonic() + 60
    while trace.stat().st_size == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert trace.stat().st_size > 0, "the model wrote no row within 60 s"
    workload = [pid for pid in children(proc.pid) if "workload" in cmdline(pid)]
    assert len(workload) == 1
    os.killpg(workload[0], signal.SIGKILL)
    _, err = output.communicate(timeout=HANG_S)
    assert proc.returncode == 1, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: the orchestrator exited (code -9)")
    new = set(_scorecards(root)) - before
    card = json.loads(new.pop().read_text())
    assert card["incomplete"] is True
    assert "orchestrator exited" in card["incompleteReason"]
    assert Path(card["trace"]).stat().st_size > 0


def test_no_token_is_written_and_setup_and_measure_share_one_budget(root: Path) -> None:
    # Each ghbench process mints its own emulator token and keeps it in memory; the
    # budget is the user's, as on GitHub, so measure sees what setup spent.
    if not _scorecards(root):  # run on its own (-k): measure once first
        assert _measure(root).returncode == 0
    token = re.compile(rb"gh[pousr]_[A-Za-z0-9]{20,}")
    written = [p for p in (root / "out").rglob("*") if p.is_file()]
    assert written
    assert not [p for p in written if token.search(p.read_bytes())]
    after = json.loads(_scorecards(root)[0].read_text())["rateLimitSnapshots"]["after"]
    assert after["core"]["used"] > 0
    # A brand-new token for the same user sees every call setup and measure made.
    from ghbench.emulator import start_emulator_process

    fresh = "ghp_" + "f" * 36
    emu = start_emulator_process(root / "out" / "state" / "emulator", tokens=[fresh])
    try:
        resp = httpx.get(f"{emu.url}/rate_limit", headers={"Authorization": f"token {fresh}"})
    finally:
        emu.stop()
    assert resp.json()["resources"]["core"]["used"] >= after["core"]["used"]


def _set_pr_state(root: Path, number: int, state: str) -> None:
    """Open or close a PR of the setup, through the emulator on its saved state."""
    token = "ghp_" + "t" * 36  # a token of this test's own, for the same user
    from ghbench.emulator import start_emulator_process

    emu = start_emulator_process(root / "out" / "state" / "emulator", tokens=[token])
    try:
        resp = httpx.patch(
            f"{emu.url}/repos/acme/todo/pulls/{number}",
            json={"state": state},
            headers={"Authorization": f"token {token}"},
        )
        assert resp.status_code == 200
    finally:
        emu.stop()


def test_measure_refuses_a_stale_setup(root: Path) -> None:
    data = _setup(root)
    sessions = data["sessions"]
    assert isinstance(sessions, list)
    victim = sessions[1]
    traces_before = set((root / "out").glob("gh-trace-*.jsonl"))
    _set_pr_state(root, victim["prNumber"], "closed")
    try:
        proc = ghbench(
            *MEASURE,
            "--warmup",
            "1s",
            "--duration",
            "3s",
            "--out",
            "out",
            cwd=root,
            env=clean_env(root),
        )
    finally:
        # the module's setup stays valid for whichever test runs after this one
        _set_pr_state(root, victim["prNumber"], "open")
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith("error: ") and "the setup is stale" in lines[-1]
    assert f"ta-2: PR #{victim['prNumber']} is not open" in lines[-1]
    assert set((root / "out").glob("gh-trace-*.jsonl")) == traces_before


def test_setup_artifact_and_model_config_are_unchanged(root: Path) -> None:
    """The setup artifact and the model's config (written from the setup's sessions for
    measure), byte for byte; what differs between runs is replaced: the directory, the
    time, ghbench's own checkout and the emulator's port."""
    if not _scorecards(root):  # run on its own (-k): measure once first
        assert _measure(root).returncode == 0
    varying = [
        (re.escape(str(root)), "ROOT"),
        (r'"createdAt": "[^"]*"', '"createdAt": "TIME"'),
        (r'"gitSha": (null|"[0-9a-f]+")', '"gitSha": "SHA"'),
        (r'"branch": (null|"[^"]*")(,\n  "project")', r'"branch": "BRANCH"\2'),
        (r"127\.0\.0\.1:\d+", "127.0.0.1:PORT"),
    ]
    setup = (root / "out" / ARTIFACT).read_text()
    check_golden("setup-workload.json", normalized(setup, varying))
    config = root / "out" / "state" / "workload" / "todo-app" / "workload.yaml"
    check_golden("workload-config.yaml", normalized(config.read_text(), varying))
