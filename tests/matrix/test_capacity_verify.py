"""``ghbench capacity --verify``: the answer and the next count in real time on the emulator.

The workload driver over HTTP, the runbook's timing times 0.01 (a 1.2 s warmup, a 9 s
window, a 1 s poll): each count is a real-time matrix cell with its own emulator, whose
calls take the model's latency once setup is done. The model and the real run are not
asserted to agree (the two counts sit on the boundary by construction); what is
asserted is that both ran, were read the same way, and that the figures are of the
same size.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verify_checks import verified_counts

pytestmark = pytest.mark.slow


def test_verify_runs_both_counts_in_real_time_next_to_the_model(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ghbench",
            "capacity",
            "--profile",
            "head",
            "--budget-fraction",
            "0.07",
            "--verify",
            "--verify-scale",
            "0.01",
            "--no-plot",
            "--json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"},
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    n = answer["sessions"]
    verify = answer["verify"]
    assert [c["sessions"] for c in verify["counts"]] == [n, n + 1]
    assert (verify["windowSeconds"], verify["pollSeconds"]) == (9.0, 1.0)
    assert isinstance(verify["agree"], bool)
    for model, real, _ in verified_counts(verify):
        # the same calls at the same latency: cycles within a factor of two of each other
        assert 0.5 < real["pollCycle"] / model["pollCycle"] < 2.0
    assert "verify: " in proc.stderr
