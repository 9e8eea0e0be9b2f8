"""The lifeline: what a ghbench process started stops when it is killed (the reaper
reads end-of-file), and the protocol the reaper reads (``watch``)."""

import os
import subprocess
import sys
import time

from ghbench.lifeline import Held, watch
from ghbench.proctable import group_alive

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


def _watched(*writes: bytes) -> list[Held]:
    read_fd, write_fd = os.pipe()
    for data in writes:
        os.write(write_fd, data)
    os.close(write_fd)
    try:
        return sorted(watch(read_fd), key=lambda h: (h.kind, h.pid))
    finally:
        os.close(read_fd)


def test_the_reaper_is_left_holding_what_was_not_released() -> None:
    held = _watched(b"+ g 5 7\n+ p 6 8\n+ g 9 1\n- g 5\nnonsense\n- p 6", b"\n+ p 12 3\n")
    assert held == [Held("g", 9, 1), Held("p", 12, 3)]


def test_a_message_it_cannot_read_whole_holds_nothing() -> None:
    """Malformed lines, a start that is not a number, and a last line cut short (no
    newline: ghbench died mid-write) are skipped, never guessed at."""
    assert _watched(b"+ g 5\n+ x 6 1\n+ g 7 abc\n+ g -8 1\n- g\n+ p 9 1 extra\n+ g 10 4") == []


def test_holding_again_keeps_the_latest_start_and_a_stray_release_is_harmless() -> None:
    held = _watched(b"+ g 5 1\n- p 5\n- g 77\n", b"+ g 5 2\n+ p 5 3\n")
    assert held == [Held("g", 5, 2), Held("p", 5, 3)]  # a group and a process are two


def test_a_message_split_between_writes_is_read_whole() -> None:
    assert _watched(b"+ g 1", b"2 3", b"4\n") == [Held("g", 12, 34)]
