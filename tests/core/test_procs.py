"""Process groups are stopped whole: SIGTERM, a deadline, then SIGKILL."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ghbench.lifeline import Held
from ghbench.procs import start_process, stop_orphans
from ghbench.proctable import group_alive

STUBBORN = """
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c",
    "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"])
print("ready", flush=True)
time.sleep(60)
"""


def _wait_for(path: Path, text: str) -> None:
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


def test_the_reaper_spares_a_process_whose_pid_was_reused() -> None:
    """A lifeline entry whose start time no longer matches is someone else's process."""
    sleeper = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        stop_orphans([Held("g", sleeper.pid, 1), Held("p", sleeper.pid, 1)], grace=0.1)
        assert sleeper.poll() is None
        stop_orphans([Held("g", sleeper.pid, 0)], grace=5)
        assert sleeper.wait(10) == -signal.SIGTERM
    finally:
        if sleeper.poll() is None:
            os.killpg(sleeper.pid, signal.SIGKILL)
            sleeper.wait()
