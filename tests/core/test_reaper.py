"""The reaper process as the lifeline starts it: it outlives a hang-up or Ctrl-C meant
for ghbench's job, and at end-of-file stops what is still held (and only that)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ghbench.proctable import group_alive, start_time

IGNORED = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGHUP - 1))


def _ignores_hup_and_int(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status").read_text()
    mask = int(
        next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:")), 16
    )
    return mask & IGNORED == IGNORED


def test_the_reaper_outlives_job_signals_and_stops_what_is_held_at_eof() -> None:
    held = subprocess.Popen(["sleep", "60"], start_new_session=True)
    released = subprocess.Popen(["sleep", "60"], start_new_session=True)
    read_fd, write_fd = os.pipe()
    code = "from ghbench.reaper import main; main()"
    reaper = subprocess.Popen([sys.executable, "-c", code, str(read_fd)], pass_fds=(read_fd,))
    os.close(read_fd)
    try:
        os.write(write_fd, f"+ g {held.pid} {start_time(held.pid)}\n".encode())
        os.write(write_fd, f"+ g {released.pid} {start_time(released.pid)}\n".encode())
        os.write(write_fd, f"- g {released.pid}\n".encode())
        deadline = time.monotonic() + 30
        while not _ignores_hup_and_int(reaper.pid):  # its handlers are set: it is watching
            assert time.monotonic() < deadline and reaper.poll() is None
            time.sleep(0.01)
        reaper.send_signal(signal.SIGHUP)
        reaper.send_signal(signal.SIGINT)
        assert reaper.poll() is None and group_alive(held.pid)
        os.close(write_fd)  # ghbench is gone
        write_fd = -1
        assert reaper.wait(30) == 0
        assert held.wait(10) == -signal.SIGTERM
        assert released.poll() is None  # released before the end: someone else's now
    finally:
        if write_fd >= 0:
            os.close(write_fd)
        for proc in (held, released, reaper):
            if proc.poll() is None:
                proc.kill()
            proc.wait()
