"""Signals to ``ghbench measure`` with the real AO: nothing it started keeps running.

SIGTERM in the window stops AO as Ctrl-C does: the after snapshot, an incomplete
scorecard, exit 143. ``kill -9`` of ghbench leaves the rest to its lifeline, which must
stop AO's process group and AO's private tmux server, a daemon in no group of
ghbench's, with the placeholder agents on it.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import PROJECT, UserWorld, processes_with_home

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness"))
from helpers import Family


def _common(world: UserWorld, ao: Path) -> list[str]:
    return [
        "--project", PROJECT, "--sessions", "1", "--driver", "ao", "--github", "emulator",
        "--ao", str(ao), "--config", str(world.config), "--out", "out",
    ]  # fmt: skip


def _start_measure(world: UserWorld, ao: Path) -> subprocess.Popen[str]:
    before = set((world.root / "out").glob("gh-trace-bench-*.jsonl"))
    window = ["--warmup", "5s", "--duration", "5m"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "measure", *_common(world, ao), *window],
        cwd=world.root,
        env=world.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    killer = threading.Timer(180, proc.kill)  # AO never got to its window
    killer.start()
    try:
        for line in proc.stderr:  # past the 5 s warmup: in the window
            if "window:" in line:
                break
        else:
            raise AssertionError("measure ended before its window")
    finally:
        killer.cancel()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # AO is polling: its trace has rows
        traces = set((world.root / "out").glob("gh-trace-bench-*.jsonl")) - before
        if any(p.stat().st_size for p in traces):
            return proc
        time.sleep(0.5)
    proc.kill()
    raise AssertionError("AO wrote no trace row within 2 minutes")


def test_sigterm_and_kill_9_leave_nothing_running(user_world: UserWorld, ao_main: Path) -> None:
    setup = user_world.ghbench(
        "setup", *_common(user_world, ao_main), "--issues", "1", "--poll-interval", "2s"
    )
    assert setup.returncode == 0, setup.stderr
    home = user_world.root / "out" / "state" / "ao" / PROJECT / "home"

    proc = _start_measure(user_world, ao_main)
    family = Family(proc.pid)
    assert processes_with_home(home)  # AO, its tmux server and a placeholder run
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    (card,) = [json.loads(p.read_text()) for p in (user_world.root / "out").glob("scorecard-*")]
    assert card["incomplete"] and card["incompleteReason"].startswith("interrupted (SIGTERM)")
    assert card["rateLimitSnapshots"]["after"] is not None
    assert family.left_after(30) == []
    assert processes_with_home(home) == []

    proc = _start_measure(user_world, ao_main)
    family = Family(proc.pid)
    proc.kill()
    proc.communicate(timeout=30)
    assert family.left_after(30) == []
    deadline = time.monotonic() + 30
    while processes_with_home(home) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with_home(home) == []
