"""One run per ``--out``: a second run is refused naming the first one's pid, and the
lock of a run that was killed is taken over. Real processes; the workload model on
the emulator."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from .helpers import WORKLOAD_FLAGS, Family, Output, clean_env, ghbench, make_project, popen_ghbench

pytestmark = pytest.mark.slow

SESSIONS = ["--project", "todo-app", "--sessions", "2", "--tick", "1s", *WORKLOAD_FLAGS]
SETUP = ["setup", *SESSIONS, "--issues", "1-2", "--poll-interval", "1s"]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(tmp_path_factory.mktemp("outlock"))
    proc = ghbench(*SETUP, "--out", "out", cwd=root, env=clean_env(root))
    assert proc.returncode == 0, proc.stderr
    return root


def _traces(root: Path) -> set[Path]:
    return set((root / "out").glob("gh-trace-bench-*.jsonl"))


def test_a_second_run_on_one_out_is_refused_and_a_dead_runs_lock_taken_over(root: Path) -> None:
    env = clean_env(root)
    first = popen_ghbench(
        "measure",
        *SESSIONS,
        "--warmup",
        "1s",
        "--duration",
        "5m",
        "--out",
        "out",
        cwd=root,
        env=env,
    )
    output = Output(first)
    output.wait_for_line("window:")
    traces = _traces(root)
    out = (root / "out").resolve()
    for argv in (["measure", *SESSIONS, "--duration", "1s"], SETUP):
        second = ghbench(*argv, "--out", "out", cwd=root, env=env)
        assert second.returncode == 1, second.stderr
        assert second.stderr.splitlines() == [
            f"error: --out {out} is in use by another ghbench run; wait for it to end or give"
            f" another --out (pid {first.pid} holds {out}/ghbench.lock)"
        ]
    assert _traces(root) == traces  # the refused measure wrote nothing
    family = Family(first.pid)
    first.send_signal(signal.SIGKILL)
    output.communicate(timeout=60)
    assert family.left_after(30) == []
    third = ghbench(
        "measure",
        *SESSIONS,
        "--warmup",
        "0s",
        "--duration",
        "1s",
        "--out",
        "out",
        cwd=root,
        env=env,
    )
    assert third.returncode == 0, third.stderr
    assert len(_traces(root)) == len(traces) + 1  # beside the killed run's
