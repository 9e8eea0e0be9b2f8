"""Process groups are stopped whole: SIGTERM, a deadline, then SIGKILL."""

import os
import sys
from pathlib import Path

from ghbench.procs import group_alive, start_process

STUBBORN = """
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c",
    "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"])
print("ready", flush=True)
time.sleep(60)
"""


def _wait_for(path: Path, text: str) -> None:
    import time

    for _ in range(200):
        if path.exists() and text in path.read_text():
            return
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared in {path}")


def test_polite_process_exits_on_sigterm(tmp_path: Path) -> None:
    log = tmp_path / "log"
    proc = start_process(
        [sys.executable, "-c", "import time; print('ready', flush=True); time.sleep(60)"],
        name="sleeper",
        env=dict(os.environ),
        log_path=log,
    )
    _wait_for(log, "ready")
    result = proc.stop(5)
    assert not result.killed
    assert result.returncode == -15
    assert not group_alive(proc.pid)


def test_stubborn_group_is_killed_after_the_deadline(tmp_path: Path) -> None:
    log = tmp_path / "log"
    proc = start_process(
        [sys.executable, "-c", STUBBORN], name="stubborn", env=dict(os.environ), log_path=log
    )
    _wait_for(log, "ready")
    result = proc.stop(0.5)
    assert result.killed
    assert result.returncode == -9
    assert not group_alive(proc.pid)  # the grandchild went too
