"""``ghbench matrix run --driver ao --backend emulator``: one cell per scenario, and a T2 cell.

Each cell runs in its own output directory (its own emulator, so rate-limit hygiene
never waits), at ``--duration-scale 0.05`` (S3 at 0.1), as a user would run it.

AO 0.12.6, the daemon its users run today, carries the proof: S1-S6 on T1 and S2 on T2
(one daemon watches both repositories), its agents running today's gh (2.102). Its S6
reads the daemon's API as the desktop app does (``/api/v1/sessions``, a session's page
and its PRs; ``backend/internal/httpd/controllers/sessions.go`` in its source), which
answers from the daemon's database: the cell's dashboard calls are 0 by design.

The trade (the real-AO stage must stay under 25 minutes on CI's 2 cores; docs/harness.md
has the timings): AO main's S1, S3, S4 and S5 cells moved to 0.12.6 (the scenarios'
triggers are the matrix's, the same for every build). The older builds keep a cell each
where only they prove something: main's S6 (its ``--web`` dashboard, the one S6 whose
reads call GitHub), main's S2-T2 (the TypeScript spread: one AO per repository,
``ghbench.drivers.ao_typescript.spread``), and S3 with the bench-era build (its agents
start in a login shell: the spawn storm proves they still find the agent and reach the
emulator). 0.10.3 keeps its S3 cell in test_ao_daemon.py; main's kill -9 and SIGTERM
paths are test_signals.py's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import (
    REALAO_GH,
    TODAYS_GH,
    UserWorld,
    close_user_world,
    make_user_world,
)

SCALE = "0.05"
# S3 has no warmup and AO polls every 30 s: at 0.05 its 30 s window can end just before
# AO's first poll after the spawn (a cell that sees no call fails), so it gets 60 s
SCALES = {"S3": "0.1"}
DAEMON = "0.12.6"
CELLS = [
    ("main", "S6-T1-1"),
    ("main", "S2-T2-5"),
    ("bench", "S3-T1-1"),
    *((DAEMON, f"S{n}-T1-1") for n in range(1, 7)),
    (DAEMON, "S2-T2-5"),
]
# each build's fixture, and the gh its users' agents run
BUILDS = {"main": ("ao_main", REALAO_GH), "bench": ("ao_bench", REALAO_GH)}
BUILDS[DAEMON] = ("ao_daemon_012", TODAYS_GH)


@pytest.fixture
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[UserWorld]:
    """The user of the cell's build: a TypeScript AO's has an agent-orchestrator.yaml;
    a daemon's has none, and its agents run today's gh."""
    version = request.node.callspec.params["version"]
    made = make_user_world(tmp_path, ao_config=version != DAEMON, gh=BUILDS[version][1])
    try:
        yield made
    finally:
        close_user_world(made)


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
def test_cell(version: str, cell: str, world: UserWorld, request: pytest.FixtureRequest) -> None:
    ao: Path = request.getfixturevalue(BUILDS[version][0])
    baseline, rows = _run(world, ao, cell)
    assert "| Status | ok |" in baseline, baseline
    assert rows, "AO wrote no trace row"
    assert not [r for r in rows if r.get("signal")], "a stop killed a gh call in flight"
    scenario, topology = cell.split("-")[:2]
    if topology == "T2":  # every spread repo polled, all in the trace
        repos = set(re.findall(r"ghbench-matrix/t2-5-r\d", json.dumps(rows)))
        assert repos == {"ghbench-matrix/t2-5-r1", "ghbench-matrix/t2-5-r2"}
    if scenario == "S3":
        assert re.search(r"S3: 1 sessions spawned at t0 by 'ao (batch-)?spawn'", baseline)
    if scenario == "S5":
        assert "kill -9" in baseline
    if scenario == "S6" and version == DAEMON:  # the desktop app's reads, none failed
        assert re.search(rf"S6: [1-9]\d* reads of AO {DAEMON}'s API as its desktop app", baseline)
        assert "S6: reads that failed" not in baseline, baseline
        # the app's reads answer from the daemon's database: every GitHub call is the daemon's
        assert "S6: in the window, 0 dashboard calls and" in baseline
        assert "the reader's reads call no GitHub" in baseline
    elif scenario == "S6":
        listened = re.search(r"S6: AO listened on (.+) \(loopback only\)", baseline)
        assert listened is not None, baseline
        assert all(a.startswith("127.0.0.1:") for a in listened.group(1).split(", "))
        assert re.search(r"S6: .*read AO's dashboard", baseline)
