"""Process groups are stopped whole: SIGTERM, a deadline, then SIGKILL."""

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ghbench.lifeline import Held
from ghbench.procs import as_forked_child, forking, start_process, stop_orphans
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


def _wait_forever(ready: Any) -> None:
    as_forked_child()
    ready.set()
    time.sleep(60)  # until its parent stops it


def test_a_child_forked_and_stopped_at_once_ends_by_the_signal_not_the_parents_handler() -> None:
    """The parent has a handler of its own for SIGTERM (ghbench's raises StopSignal); a
    child forked in ``forking`` and sent SIGTERM the moment it exists still ends by that
    signal, not by running the parent's handler, and is in a group of its own."""
    previous = signal.signal(signal.SIGTERM, lambda *_: None)  # would keep the child alive
    context = multiprocessing.get_context("fork")
    try:
        for _ in range(5):
            ready = context.Event()
            child = context.Process(target=_wait_forever, args=(ready,), daemon=True)
            with forking():
                child.start()
                assert child.pid is not None
                os.kill(child.pid, signal.SIGTERM)  # before it can have set anything
            child.join(30)
            assert child.exitcode == -signal.SIGTERM
        grouped = context.Process(target=_wait_forever, args=(ready := context.Event(),))
        with forking():
            grouped.start()
        assert ready.wait(30) and grouped.pid is not None
        assert os.getpgid(grouped.pid) == grouped.pid
        os.killpg(grouped.pid, signal.SIGTERM)
        grouped.join(30)
        assert grouped.exitcode == -signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, previous)
