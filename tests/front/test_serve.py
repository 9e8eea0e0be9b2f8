"""ghbench.front.serve: the front's process as it runs: its open-files limit raised to the
hard limit, and workers forked to share its port, whose counts come back merged and
which stop with it."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tooling.front_abuse import get, open_tunnel

from ghbench.front import FrontSettings, start_front

from .front_helpers import rows

_LIMITS = """
import resource, sys
from ghbench.front import FrontSettings, start_front
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
with start_front(FrontSettings(mode="forward", state_dir=sys.argv[1])) as front:
    limits = open(f"/proc/{front.pid}/limits").read()
line = next(l for l in limits.splitlines() if l.startswith("Max open files"))
print(line.split()[3], line.split()[4], hard)
"""


def test_the_open_files_limit_is_raised_to_the_hard_limit(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _LIMITS, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    soft, hard, wanted = proc.stdout.split()
    assert soft == hard == wanted


def test_workers_share_the_port_and_stop_with_the_front(
    emulator_server: Any, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    settings = FrontSettings(
        mode="emulate",
        state_dir=str(tmp_path / "front"),
        upstream=emulator_server.url,
        trace=str(trace),
        workers=2,
    )
    front = start_front(settings)
    try:
        children = Path(f"/proc/{front.pid}/task/{front.pid}/children").read_text().split()
        assert len(children) == 1  # one worker beside the first process
        for _ in range(20):  # new connections: the kernel spreads them over both
            tunnel = open_tunnel(front.port, front.settings.secret or "", front.ca_cert)
            tunnel.send(get("/rate_limit", close=True))
            answer = tunnel.answer()
            assert answer.startswith(b"HTTP/1.1 200")
            assert b"\r\nconnection: close\r\n" in answer  # as the client asked
            assert tunnel.recv() == b""  # and closed
            tunnel.close()
    finally:
        counts = front.stop()
    assert (counts.exchanges, counts.rows_written) == (20, 20)  # both workers' counts
    assert Counter(r["operation"] for r in rows(trace)) == Counter({"rest.rate_limit": 20})
    assert (
        not Path(f"/proc/{children[0]}").exists()
        or "Z" in Path(f"/proc/{children[0]}/stat").read_text().rsplit(")", 1)[1].split()[0]
    )
