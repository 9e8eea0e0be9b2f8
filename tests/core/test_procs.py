"""Process groups are stopped whole: SIGTERM, a deadline, then SIGKILL."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ghbench.lifeline import Held, watch
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


STARTER = """
import os, sys, time
from ghbench.procs import start_process
child = start_process(["sleep", "300"], name="sleeper", env=dict(os.environ))
print(child.pid, flush=True)
time.sleep(300)
"""


def test_what_a_killed_process_started_is_stopped_by_the_lifeline() -> None:
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    assert starter.stdout is not None
    with starter.stdout:
        group = int(starter.stdout.readline())
    assert group_alive(group)
    starter.kill()  # SIGKILL: the starter cleans up nothing itself
    starter.wait()
    deadline = time.monotonic() + 30
    while group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_alive(group)


def test_the_reaper_is_left_holding_what_was_not_released() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"+ g 5 7\n+ p 6 8\n+ g 9 1\n- g 5\nnonsense\n- p 6")
    os.write(write_fd, b"\n+ p 12 3\n")
    os.close(write_fd)
    try:
        assert sorted(watch(read_fd), key=lambda h: h.pid) == [Held("g", 9, 1), Held("p", 12, 3)]
    finally:
        os.close(read_fd)
