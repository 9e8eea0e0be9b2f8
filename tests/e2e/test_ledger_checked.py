"""End to end: setup + measure of the workload model through the real gh, checked to the point.

A demo-sized run (5 sessions) of the workload driver on the embedded emulator (its
own process, state on disk), with the ``gh`` transport. While the window runs, a
thread pushes to one PR branch through the emulator's control API (CI churn), so
Guard 1 sees changes and both budgets are spent inside the window.

The emulator's ledger is the ground truth. Its entries are replayed per bucket to
know ``remaining`` after each charge, which ties every trace row to the charges
around it without relying on clocks:

- ``graphqlPointsPerHr`` / ``restCoreRequestsPerHr`` equal the spec's definition
  (first ``remaining`` minus last, per reset window, per hour) computed on the ledger
  for the same rows' interval: the charges between the first and last row;
- the attributed spend in ``insights`` equals the ledger's charges for the priced
  traced calls (the charge each such row reports);
- ``benchmarkControlCalls`` is 2 and no trace row comes from a control call.
"""

from __future__ import annotations

import io
import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from ghbench.clock import SystemClock
from ghbench.drivers.project import Project
from ghbench.drivers.workload.driver import WorkloadDriver
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.github.seed import EmulatorControl
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import LineProgress
from ghbench.harness.setup import run_setup
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.scorecard.jsround import math_round
from ghbench.timefmt import parse_iso
from tools import GhBuild, gh_child_env

pytestmark = [
    pytest.mark.gh,
    pytest.mark.slow,
]

SESSIONS = 5
LIMIT = 5000


def _remaining_after(entries: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """Each ledger entry with its bucket's remaining right after it (one-hour windows)."""
    used: dict[tuple[str, str], int] = defaultdict(int)
    start: dict[tuple[str, str], float] = {}
    out = []
    for e in entries:
        key = (e["owner"], e["resource"])
        if key not in start or e["ts"] >= start[key] + 3600:
            start[key], used[key] = e["ts"], 0
        used[key] += e["cost"]
        out.append((e, LIMIT - used[key]))
    return out


def _ledger_between(
    ledger: list[tuple[dict[str, Any], int]], resource: str, high: int, low: int
) -> list[dict[str, Any]]:
    """The charges that took ``resource`` from ``high`` remaining down to ``low``."""
    return [e for e, rem in ledger if e["resource"] == resource and low <= rem < high]


def _rows_in_window(trace: Path, card: dict[str, Any]) -> list[dict[str, Any]]:
    start = parse_iso(card["window"]["start"])
    end = parse_iso(card["window"]["end"])
    rows = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
    return [r for r in rows if start <= parse_iso(r["timestamp"]) <= end]


def _per_hour(points: int, card: dict[str, Any]) -> float:
    seconds = parse_iso(card["window"]["end"]) - parse_iso(card["window"]["start"])
    return points * 3600 / seconds


def _churn(control: EmulatorControl, stop: threading.Event) -> None:
    with control.client() as c:
        while not stop.wait(1.5):
            c.post("/_ghbench/repos/acme/todo/push", json={"branch": "feat/issue-1"})


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, gh_build: GhBuild) -> dict[str, Any]:
    """One run per gh build (the model's gh calls are that gh's)."""
    root = tmp_path_factory.mktemp("e2e")
    base_env = gh_child_env(root)
    out = root / "out"
    clock = SystemClock()
    project = Project("todo-app", root / "todo-app", "acme/todo", "main", "ta", None)
    backend = EmulatorBackend(state_dir=out / "state" / "emulator", clock=clock)
    spec = RunSpec(
        driver="workload",
        backend="emulator",
        profile="ao-bench-1e73a505",
        transport="gh",
        tick=Duration(2.0, "2s"),
        cell=Cell("S2", "T1", SESSIONS),
        warmup=Duration(3.0, "3s"),
        duration=Duration(12.0, "12s"),
        issues=tuple(range(1, SESSIONS + 1)),
        poll_interval=Duration(1.0, "1s"),
        setup_timeout=Duration(60.0, "60s"),
        out_dir=out,
    )

    def driver() -> WorkloadDriver:
        work_dir = out / "state" / "workload"
        return WorkloadDriver(project, work_dir, backend, spec, base_env=base_env)

    progress = LineProgress(io.StringIO())
    backend.start()
    try:
        setup = run_setup(
            spec, project, driver=driver(), backend=backend, clock=clock, progress=progress
        )
    finally:
        backend.stop()
    assert setup.setup.ready
    backend.start()
    stop = threading.Event()
    churn = threading.Thread(target=_churn, args=(backend.control(), stop), daemon=True)
    try:
        churn.start()
        result = run_measure(
            spec,
            setup.setup,
            setup_path=setup.path,
            driver=driver(),
            backend=backend,
            clock=clock,
            progress=progress,
        )
        stop.set()
        churn.join()
        with backend.control().client() as c:
            ledger = c.get("_ghbench/ledger").json()
    finally:
        stop.set()
        backend.stop()
    card = json.loads(result.scorecard_path.read_text())
    return {
        "card": card,
        "rows": _rows_in_window(result.trace_path, card),
        "all_rows": [json.loads(x) for x in result.trace_path.read_text().splitlines()],
        "ledger": _remaining_after(ledger["entries"]),
        "token_ids": {e["token_id"] for e in ledger["entries"]},
    }


@pytest.mark.parametrize(
    ("resource", "field"),
    [
        ("graphql", "graphqlPointsPerHr"),
        ("core", "restCoreRequestsPerHr"),
    ],
)
def test_burn_matches_the_ledger(run: dict[str, Any], resource: str, field: str) -> None:
    card, rows, ledger = run["card"], run["rows"], run["ledger"]
    header_rows = [
        r
        for r in rows
        if r.get("rateLimitResource") == resource and r.get("rateLimitRemaining") is not None
    ]
    assert header_rows, f"no {resource} rows in the window"
    assert len({r["rateLimitReset"] for r in header_rows}) == 1  # one reset window
    first, last = header_rows[0]["rateLimitRemaining"], header_rows[-1]["rateLimitRemaining"]
    charges = _ledger_between(ledger, resource, first, last)
    assert sum(e["cost"] for e in charges) == first - last
    assert card["scorecard"][f"{field}Estimated"] is False
    exact = card["insights"]["exact"][field]
    assert exact == pytest.approx(_per_hour(first - last, card))
    assert card["scorecard"][field] == math_round(exact)  # AO's rounding
    assert first - last > 0, f"the churn should make {resource} spend inside the window"


def test_attributed_spend_is_the_ledger_charges_of_traced_calls(run: dict[str, Any]) -> None:
    card, rows, ledger = run["card"], run["rows"], run["ledger"]
    by_remaining = {(e["resource"], rem): e for e, rem in ledger}
    priced = {"graphql": 0, "core": 0}
    for r in rows:
        if r.get("graphqlCost") is not None:
            e = by_remaining[("graphql", r.get("rateLimitRemaining", r.get("graphqlRemaining")))]
            assert e["cost"] == r["graphqlCost"]
            priced["graphql"] += e["cost"]
        elif r.get("httpStatus") == 200 and r.get("rateLimitResource") == "core":
            priced["core"] += by_remaining[("core", r["rateLimitRemaining"])]["cost"]
    spend = card["insights"]["attributedSpend"]
    assert spend["graphql"]["attributedPoints"] == priced["graphql"]
    assert spend["core"]["attributedPoints"] == priced["core"]
    assert priced["graphql"] > 0 and priced["core"] > 0


def test_control_calls_are_counted_and_never_traced(run: dict[str, Any]) -> None:
    card, rows = run["card"], run["all_rows"]
    assert card["scorecard"]["benchmarkControlCalls"] == 2
    assert card["incomplete"] is False
    assert all(r.get("component") != "benchmark-control" for r in rows)
    endpoints = {r.get("endpoint") or "" for r in rows}
    assert not any(e.startswith("rate_limit") for e in endpoints)
    # the harness lists open PRs with per_page=100; the model never does
    assert not any("per_page=100" in e for e in endpoints)
    assert all(r.get("origin") == "workload" for r in rows)
