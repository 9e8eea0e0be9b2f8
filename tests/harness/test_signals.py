"""Signals to ghbench, as real processes: SIGTERM and SIGHUP stop a run as Ctrl-C does
(the incomplete scorecard, exit 128 + the signal), and when ghbench is killed outright
everything it started stops too (the lifeline). What ghbench started is followed by
pid and process group, never by name.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghbench.emulator.http import EmuRequest, EmuResponse
from ghbench.matrix.runs import load_runs

from .github_server import TOKEN, ProbedEmulator, github_server
from .helpers import (
    WORKLOAD_FLAGS,
    Family,
    Output,
    clean_env,
    ghbench,
    make_project,
    popen_ghbench,
    wait_until,
    waiting_on_a_child,
)

pytestmark = pytest.mark.slow

SESSIONS = ["--project", "todo-app", "--sessions", "2", "--tick", "1s"]
SETUP = ["setup", *SESSIONS, "--issues", "1-2", "--poll-interval", "1s"]
MEASURE = ["measure", *SESSIONS, "--warmup", "1s", "--duration", "5m"]
STOPPED_S = 30  # how long what ghbench started may take to go (the reaper allows 5 s)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(tmp_path_factory.mktemp("signals"))
    proc = ghbench(*SETUP, *WORKLOAD_FLAGS, "--out", "out", cwd=root, env=clean_env(root))
    assert proc.returncode == 0, proc.stderr
    return root


def _scorecards(root: Path) -> set[Path]:
    return set((root / "out").glob("scorecard-*.json"))


def _in_window(root: Path) -> tuple[subprocess.Popen[str], Output, Family]:
    proc = popen_ghbench(*MEASURE, *WORKLOAD_FLAGS, "--out", "out", cwd=root, env=clean_env(root))
    output = Output(proc)
    output.wait_for_line("window:")
    return proc, output, Family(proc.pid)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stop_signal_ends_measure_as_ctrl_c_does(root: Path, sig: signal.Signals) -> None:
    before = _scorecards(root)
    proc, output, family = _in_window(root)
    assert len(family.members) >= 3  # the emulator, the orchestrator, the reaper
    proc.send_signal(sig)
    out, err = output.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: measurement interrupted ({sig.name}); incomplete scorecard")
    (new,) = _scorecards(root) - before
    card = json.loads(new.read_text())
    assert card["incomplete"] is True
    assert card["incompleteReason"].startswith(f"interrupted ({sig.name}) after ")
    assert card["rateLimitSnapshots"]["after"] is not None
    assert "GH Rate-Limit Benchmark" in out
    assert family.left_after(STOPPED_S) == []


def test_everything_measure_started_stops_when_it_is_killed(root: Path) -> None:
    proc, output, family = _in_window(root)
    proc.kill()  # SIGKILL: no handler runs, nothing is cleaned up by ghbench itself
    output.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert family.left_after(STOPPED_S) == []


class _HeldPullRequests(ProbedEmulator):
    """Holds the first request that opens a PR until the test lets it go: setup makes
    it after the orchestrator has started, so a signal then lands mid-setup."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entered, self.release = threading.Event(), threading.Event()

    def handle(self, request: EmuRequest) -> EmuResponse:
        if request.method == "POST" and request.path.split("?")[0].endswith("/pulls"):
            self.entered.set()
            self.release.wait(120)
        return super().handle(request)


@pytest.fixture
def held_server() -> Iterator[tuple[str, _HeldPullRequests]]:
    with github_server({"acme/todo": 2}, emulator_type=_HeldPullRequests) as server:
        assert isinstance(server.emulator, _HeldPullRequests)
        try:
            yield server.url, server.emulator
        finally:
            server.emulator.release.set()


def test_sigterm_during_setup_stops_the_orchestrator_and_writes_nothing(
    tmp_path: Path, held_server: tuple[str, _HeldPullRequests]
) -> None:
    url, emulator = held_server
    root = make_project(tmp_path)
    env = clean_env(root, GITHUB_API_URL=url, GH_TOKEN=TOKEN)
    flags = ["--driver", "workload", "--github", "github", "--transport", "http"]
    proc = popen_ghbench(*SETUP, *flags, "--out", "out", cwd=root, env=env)
    output = Output(proc)
    try:
        assert emulator.entered.wait(120), "setup never opened a PR"
        family = Family(proc.pid)
        assert family.members  # the orchestrator (and the reaper)
        proc.send_signal(signal.SIGTERM)
    finally:
        emulator.release.set()
    _, err = output.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == (
        "error: setup interrupted (SIGTERM); no artifact written"
    )
    assert not list((root / "out").glob("setup-*.json"))
    assert family.left_after(STOPPED_S) == []


def test_demo_stops_on_sigterm_in_its_window(tmp_path: Path) -> None:
    args = ["demo", "--sessions", "2", "--warmup", "1s", "--duration", "5m", "--tick", "1s"]
    proc = popen_ghbench(
        *args, "--transport", "http", "--out", "out", cwd=tmp_path, env=clean_env(tmp_path)
    )
    output = Output(proc)
    output.wait_for_line("window:")
    family = Family(proc.pid)
    proc.send_signal(signal.SIGTERM)
    _, err = output.communicate(timeout=60)
    assert proc.returncode == 143, err
    (card,) = (tmp_path / "out").glob("scorecard-*.json")
    assert json.loads(card.read_text())["incompleteReason"].startswith("interrupted (SIGTERM)")
    assert family.left_after(STOPPED_S) == []


@pytest.mark.gh
def test_the_recorded_command_stops_when_record_is_killed(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    proc = popen_ghbench(
        "record",
        "--trace",
        "t.jsonl",
        "--",
        "sh",
        "-c",
        "echo started; exec sleep 300",
        cwd=tmp_path,
        env=env,
    )
    output = Output(proc)
    output.wait_for_line("started", stream="stdout")
    # record names its command to the lifeline just after starting it, then waits for
    # it: a SIGKILL in that instant would be too soon for any mechanism but a launcher
    # of its own
    wait_until(lambda: waiting_on_a_child(proc.pid), "record to wait for its command")
    family = Family(proc.pid)
    assert any("sleep" in name for name in family.names.values())
    proc.kill()
    output.communicate(timeout=60)
    assert family.left_after(STOPPED_S) == []


def test_sigterm_stops_the_matrix_after_recording_the_cell(tmp_path: Path) -> None:
    out = tmp_path / "m"
    argv = [sys.executable, "-m", "ghbench", "matrix", "run", "--cells", "S1-T1-1,S2-T1-1"]
    argv += ["--backend", "emulator", "--driver", "workload", "--transport", "http"]
    argv += ["--duration-scale", "0.05", "--out", str(out)]
    proc = subprocess.Popen(
        argv,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"},
    )
    output = Output(proc)
    line = output.wait_for_line("tracing to ", timeout=120)[-1]
    trace = Path(line.split("tracing to ", 1)[1].strip())
    deadline = time.monotonic() + 60
    while trace.stat().st_size == 0 and time.monotonic() < deadline:
        time.sleep(0.1)  # the orchestrator is running once it has written a row
    family = Family(proc.pid)
    proc.send_signal(signal.SIGTERM)
    _, err = output.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "interrupted (SIGTERM)" in err.strip().splitlines()[-1]
    (run,) = load_runs(out)  # the second cell never started
    assert run.status == "failed"
    assert run.reason is not None and "interrupted (SIGTERM)" in run.reason
    assert list(out.glob(f"artifacts/{run.cell}-*/scorecard-*.json"))
    assert run.cell in (out / "baseline.md").read_text()
    assert family.left_after(30) == []


AB = [
    "ab",
    *SESSIONS,
    *["--driver", "workload", "--transport", "http", "--github", "emulator"],
    *["--a-profile", "head", "--b-profile", "pre-b1", "--runs", "1"],
    *["--warmup", "1s", "--duration", "5m", "--smoke", "5m"],
    *["--poll-interval", "1s", "--timeout", "60s", "--out", "out"],
]
VERIFY = ["capacity", "--profile", "head", "--budget-fraction", "0.07", "--no-plot"]
VERIFY += ["--verify", "--verify-scale", "0.05"]


@pytest.mark.parametrize(
    ("argv", "started"), [(AB, "window:"), (VERIFY, "tracing to ")], ids=["ab", "capacity"]
)
def test_ab_and_capacity_verify_stop_on_sigterm(
    tmp_path: Path, argv: list[str], started: str
) -> None:
    root = make_project(tmp_path)
    proc = popen_ghbench(*argv, cwd=root, env=clean_env(root))
    output = Output(proc)
    output.wait_for_line(started, timeout=120)
    family = Family(proc.pid)
    proc.send_signal(signal.SIGTERM)
    _, err = output.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1].startswith("error: measurement interrupted (SIGTERM)")
    assert family.left_after(STOPPED_S) == []
