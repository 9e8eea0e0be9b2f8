"""The workload driver's stop, with the real model, the real gh and the emulator.

Every call takes 3 s on the emulator, so once the emulator has charged the model's
first call (its answer then waits out the latency) that gh call is in flight for
certain when the stop arrives. The model lets it finish and exits 0: the trace has no
row of a call that ghbench's own stop cut short. (The stop signals the model alone
first; a group SIGTERM could also catch a gh child forked a moment before, while still
in the model's group, which no test can time.)
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from ghbench.clock import SystemClock
from ghbench.drivers.base import TraceSink
from ghbench.drivers.project import Project
from ghbench.drivers.workload.driver import WorkloadDriver
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.runspec.spec import Duration, RunSpec
from tools import gh_child_env

pytestmark = [pytest.mark.gh, pytest.mark.slow]

REPO = "acme/todo"


def _charges(backend: EmulatorBackend) -> int:
    """The API calls the emulator has charged (it charges before the latency)."""
    with backend.control().client() as c:
        return len(c.get("_ghbench/ledger").json()["entries"])


def test_a_stop_lets_the_gh_call_in_flight_finish(tmp_path: Path) -> None:
    base_env = gh_child_env(tmp_path)
    backend = EmulatorBackend(state_dir=tmp_path / "state", clock=SystemClock())
    trace = tmp_path / "trace.jsonl"
    backend.start()
    try:
        with backend.benchmark_client() as control:
            backend.ensure_repo(REPO, [], control)
        backend.set_faults({"latency": "fixed", "latency_ms": 3000})
        driver = WorkloadDriver(
            project=Project("todo-app", tmp_path / "todo-app", REPO, "main", "ta", None),
            work_dir=tmp_path / "workload",
            backend=backend,
            # AO main's poller guards its repo with no session (AO 0.10 polls none)
            spec=RunSpec(transport="gh", tick=Duration(1.0, "1s"), profile="ao-main-60e8c881"),
            base_env=base_env,
        )
        driver.prepare_measure(())
        driver.start(TraceSink(trace), backend.orchestrator_env())
        deadline = time.monotonic() + 60
        while _charges(backend) == 0:
            assert driver.alive() and time.monotonic() < deadline, "the model made no call"
            time.sleep(0.05)
        stopped = driver.stop(20.0)
    finally:
        backend.stop()
    assert not stopped.killed and stopped.returncode == 0
    rows = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
    assert rows, "the call in flight left no row"
    assert [r for r in rows if not r["ok"] or r.get("signal")] == []
    assert rows[0]["durationMs"] >= 2500  # it waited out the latency: it was not cut short
