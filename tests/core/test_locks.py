"""ghbench.locks: one holder per directory, the holder named, a dead holder's lock taken over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ghbench.errors import GhbenchError
from ghbench.locks import LockHeld, hold_lock

# a child that takes the lock, says so, then waits (optionally starting a grandchild)
_HOLDER = """
import subprocess, sys, time
from pathlib import Path
from ghbench.locks import hold_lock
lock = hold_lock(Path(sys.argv[1]), "busy")
if len(sys.argv) > 2:
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print("held", flush=True)
time.sleep(60)
"""


def _holder(path: Path, *extra: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path), *extra],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def _kill(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()


def test_one_holder_at_a_time_and_release(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    first = hold_lock(path, "x is busy")
    assert path.read_text() == f"{os.getpid()}\n"
    with pytest.raises(LockHeld, match=rf"^x is busy \(pid {os.getpid()} holds {path}\)$"):
        hold_lock(path, "x is busy")
    first.release()
    first.release()  # twice is harmless
    with hold_lock(path, "x is busy") as again:
        assert again.held
    assert not again.held


def test_a_live_holder_in_another_process_is_named(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    proc = _holder(path)
    try:
        with pytest.raises(LockHeld) as caught:
            hold_lock(path, "busy")
        assert caught.value.pid == proc.pid
    finally:
        _kill(proc)


def test_a_killed_holders_lock_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    proc = _holder(path)
    _kill(proc)  # kill -9: no cleanup, the file still names it
    assert path.read_text() == f"{proc.pid}\n"
    with hold_lock(path, "busy") as lock:
        assert lock.taken_over == proc.pid
        assert path.read_text() == f"{os.getpid()}\n"


def test_programs_the_holder_starts_do_not_keep_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    proc = _holder(path, "start-a-child")
    os.kill(proc.pid, signal.SIGKILL)  # the holder only; its child lives on
    proc.wait()
    assert proc.stdout is not None
    proc.stdout.close()
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                hold_lock(path, "busy").release()
                break
            except LockHeld:
                assert time.monotonic() < deadline, "the child inherited the lock"
                time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)


def test_an_unwritable_place_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(GhbenchError, match="cannot create the lock file"):
        hold_lock(tmp_path / "missing" / "x.lock", "busy")
