"""``ghbench matrix run --driver ao --backend emulator``: one cell per scenario, and a T2 cell.

Each cell runs in its own output directory (its own emulator, so rate-limit hygiene
never waits), at ``--duration-scale 0.05`` (S3 at 0.1), as a user would run it. S1-S6 on T1 with
AO main (S6 needs its dashboard, which only main's ``--web`` build has), S2 on T2 (one
AO per repository), and S3 with the bench-era build (its agents start in a login
shell: the spawn storm proves they still find the agent and reach the emulator).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import UserWorld

SCALE = "0.05"
# S3 has no warmup and AO polls every 30 s: at 0.05 its 30 s window can end just before
# AO's first poll after the spawn (a cell that sees no call fails), so it gets 60 s
SCALES = {"S3": "0.1"}
CELLS = [
    ("main", "S1-T1-1"),
    ("main", "S3-T1-1"),
    ("main", "S4-T1-1"),
    ("main", "S5-T1-1"),
    ("main", "S6-T1-1"),
    ("main", "S2-T2-5"),
    ("bench", "S3-T1-1"),
]


def _run(world: UserWorld, checkout: Path, cell: str) -> tuple[str, list[dict[str, Any]]]:
    proc = world.ghbench(
        "matrix", "run", "--cells", cell, "--backend", "emulator", "--driver", "ao",
        "--ao", str(checkout), "--duration-scale", SCALES.get(cell[:2], SCALE), "--out", "mx",
        timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    baseline = (world.root / "mx" / "baseline.md").read_text()
    (trace,) = (world.root / "mx" / "artifacts").rglob("gh-trace-bench-*.jsonl")
    rows = [json.loads(x) for x in trace.read_text().splitlines() if x.strip()]
    return baseline, rows


@pytest.mark.parametrize(("version", "cell"), CELLS, ids=[f"{v}-{c}" for v, c in CELLS])
def test_cell(
    version: str, cell: str, user_world: UserWorld, request: pytest.FixtureRequest
) -> None:
    checkout: Path = request.getfixturevalue(f"ao_{version}")
    baseline, rows = _run(user_world, checkout, cell)
    assert "| Status | ok |" in baseline, baseline
    assert rows, "AO wrote no trace row"
    assert not [r for r in rows if r.get("signal")], "a stop killed a gh call in flight"
    scenario, topology = cell.split("-")[:2]
    if topology == "T2":  # every spread repo polled: one AO per repo, all in the trace
        repos = set(re.findall(r"ghbench-matrix/t2-5-r\d", json.dumps(rows)))
        assert repos == {"ghbench-matrix/t2-5-r1", "ghbench-matrix/t2-5-r2"}
    if scenario == "S3":
        assert re.search(r"S3: 1 sessions spawned at t0 by 'ao batch-spawn'", baseline)
    if scenario == "S5":
        assert "kill -9" in baseline
    if scenario == "S6":
        listened = re.search(r"S6: AO listened on (.+) \(loopback only\)", baseline)
        assert listened is not None, baseline
        assert all(a.startswith("127.0.0.1:") for a in listened.group(1).split(", "))
        assert re.search(r"S6: .*read AO's dashboard", baseline)
