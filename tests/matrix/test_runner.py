"""The matrix loop with a small in-test backend that writes real traces and scorecards."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.artifacts.models import (
    RateLimitSnapshots,
    Scorecard,
    ScorecardArtifact,
    SnapshotBucket,
    SnapshotEntry,
    Window,
)
from ghbench.clock import VirtualClock
from ghbench.errors import GhbenchError, Interrupted
from ghbench.matrix.runner import CellResult, run_matrix
from ghbench.matrix.runs import load_runs
from ghbench.matrix.state import MatrixPlan, load_plan, save_plan
from ghbench.ratelimit import Bucket
from ghbench.runspec.spec import RunSpec
from ghbench.timefmt import iso_ms
from ghbench.trace.schema import TraceRow

T0 = 1_776_416_700.0


def bucket(
    limit: int = 5000, remaining: int = 4000, used: int = 1000, reset: int = int(T0) + 1800
) -> Bucket:
    return Bucket(limit=limit, remaining=remaining, used=used, reset=reset)


def _snapshot(at: str, remaining: int) -> SnapshotEntry:
    return SnapshotEntry(
        captured_at=at, core=SnapshotBucket(limit=5000, remaining=remaining, used=5000 - remaining)
    )


@dataclass
class FakeBackend:
    """Writes a trace of ``scale`` guard rows and a scorecard linear in the scale."""

    fail: set[str] = field(default_factory=set)
    interrupt: set[str] = field(default_factory=set)
    unreadable: set[str] = field(default_factory=set)  # cells whose trace is a directory
    buckets: Mapping[str, Bucket] | None = None
    ran: list[str] = field(default_factory=list)

    def rate_limit(self) -> Mapping[str, Bucket] | None:
        return self.buckets

    def ahead(self, specs: Sequence[RunSpec]) -> bool:
        return False  # each cell as it comes, with its hygiene

    def close(self) -> None:
        return None

    def run_cell(self, spec: RunSpec) -> CellResult:
        cell, cell_dir = spec.cell, spec.out_dir
        self.ran.append(cell.id)
        if cell.id in self.interrupt:
            raise KeyboardInterrupt
        if cell.id in self.fail:
            raise GhbenchError(f"{cell.id} broke on purpose")
        rows = [
            TraceRow(
                timestamp=iso_ms(T0 + i),
                operation="gh.api.guard-pr-list",
                component="scm-github-batch",
                httpStatus=304,
                ok=False,
                exitCode=1,
                durationMs=100.0,
            )
            for i in range(cell.sessions)
        ]
        trace = cell_dir / "trace.jsonl"
        if cell.id in self.unreadable:
            trace.mkdir()
        else:
            trace.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in rows))
        n = cell.sessions
        artifact = ScorecardArtifact(
            scenario_id=cell.scenario_id,
            measured_at="2026-04-17T09:22:00Z",
            window=Window(start="2026-04-17T09:07:00Z", end="2026-04-17T09:22:00Z"),
            rate_limit_snapshots=RateLimitSnapshots(
                before=_snapshot("2026-04-17T09:07:00Z", 4990),
                after=_snapshot("2026-04-17T09:22:00Z", 4980),
            ),
            scorecard=Scorecard(
                total_calls=n,
                calls_per_min=n / 15,
                graphql_points_per_hr=30.0 * n,
                rest_core_requests_per_hr=4.0 * n,
                p50_duration_ms=100.0,
            ),
        )
        path = cell_dir / "scorecard.json"
        path.write_bytes(msgspec.json.encode(artifact))
        return CellResult(trace, path, artifact, repos=("acme/todo",))


def _plan(cells: list[str], run: str = "m1", **settings: Any) -> MatrixPlan:
    spec = RunSpec(**{"backend": "emulator", "driver": "workload", "seed": 0, **settings})
    return MatrixPlan(matrix_run=run, scales=[], cells=cells, spec=spec)


def _run(out: Path, backend: FakeBackend, cells: list[str], run: str = "m1") -> list[str]:
    plan = _plan(cells, run)
    save_plan(out, plan)
    logs: list[str] = []
    run_matrix(plan, backend, out, clock=VirtualClock(T0), operator="tester", log=logs.append)
    return logs


@pytest.mark.slow
def test_failed_cell_is_recorded_and_the_rest_continue(tmp_path: Path) -> None:
    backend = FakeBackend(fail={"S2-T1-5"})
    _run(tmp_path, backend, ["S2-T1-1", "S2-T1-5", "S2-T1-10"])
    assert backend.ran == ["S2-T1-1", "S2-T1-5", "S2-T1-10"]
    runs = {r.cell: r for r in load_runs(tmp_path)}
    assert runs["S2-T1-5"].status == "failed"
    assert runs["S2-T1-5"].reason == "S2-T1-5 broke on purpose"
    assert runs["S2-T1-10"].status == "ok" and runs["S2-T1-10"].rows == 10
    md = (tmp_path / "baseline.md").read_text()
    assert "### S2-T1-1: Quiet steady state, concentrated, 1 session" in md
    assert "**What this cell tells us:**" in md
    assert "- Coarse delta: core 10 tokens over 15 min" in md
    assert "**ghbench summarize output:**" in md and "**ghbench analyze output:**" in md
    assert "| GraphQL points/hr | 300 |" in md
    assert "- S2-T1-5: Quiet steady state, concentrated, 5 sessions — last run failed" in md
    assert "## Cross-run comparison" in md and "## Scaling" in md
    assert "![GraphQL points and REST requests per hour against sessions](scaling.png)" in md
    assert (tmp_path / "scaling.png").read_bytes().startswith(b"\x89PNG")
    index = json.loads((tmp_path / "baseline.json").read_text())
    assert index["pending"] == ["S2-T1-5"]


def test_missing_attribution_is_flagged(tmp_path: Path) -> None:
    _run(tmp_path, FakeBackend(), ["S2-T1-1", "S2-T1-5"])
    md = (tmp_path / "baseline.md").read_text()
    s5 = md.split("### S2-T1-5")[1]
    s1 = md.split("### S2-T1-1")[1].split("### ")[0]
    assert "Attribution missing" in s5 and "Attribution missing" not in s1


def test_rerun_adds_a_run_and_keeps_the_first(tmp_path: Path) -> None:
    _run(tmp_path, FakeBackend(), ["S2-T1-1"], run="m1")
    first = (tmp_path / "runs" / "S2-T1-1" / "run-001.json").read_bytes()
    _run(tmp_path, FakeBackend(), ["S2-T1-1"], run="m2")
    assert (tmp_path / "runs" / "S2-T1-1" / "run-001.json").read_bytes() == first
    assert [r.run for r in load_runs(tmp_path)] == [1, 2]
    md = (tmp_path / "baseline.md").read_text()
    assert "#### Run 1 — tester" in md and "#### Run 2 — tester" in md


def test_an_interrupt_records_the_cell_and_stops_the_loop(tmp_path: Path) -> None:
    backend = FakeBackend(interrupt={"S2-T1-5"})
    with pytest.raises(Interrupted) as caught:
        _run(tmp_path, backend, ["S2-T1-1", "S2-T1-5", "S2-T1-10"])
    assert caught.value.exit_code == 130
    assert backend.ran == ["S2-T1-1", "S2-T1-5"]
    runs = {r.cell: r for r in load_runs(tmp_path)}
    assert runs["S2-T1-5"].status == "failed"
    assert runs["S2-T1-5"].reason == "S2-T1-5: interrupted (Ctrl-C)"
    assert "S2-T1-5" in (tmp_path / "baseline.md").read_text()


def test_resume_skips_completed_cells(tmp_path: Path) -> None:
    with pytest.raises(Interrupted):
        _run(tmp_path, FakeBackend(interrupt={"S2-T1-5"}), ["S2-T1-1", "S2-T1-5"])
    plan = load_plan(tmp_path)
    backend = FakeBackend()
    run_matrix(plan, backend, tmp_path, clock=VirtualClock(T0), operator="t", log=lambda _: None)
    assert backend.ran == ["S2-T1-5"]
    assert [(r.cell, r.status) for r in load_runs(tmp_path)] == [
        ("S2-T1-1", "ok"),
        ("S2-T1-5", "failed"),
        ("S2-T1-5", "ok"),
    ]


def test_a_cell_whose_trace_cannot_be_analysed_keeps_its_scorecard(tmp_path: Path) -> None:
    backend = FakeBackend(unreadable={"S2-T1-5"})
    _run(tmp_path, backend, ["S2-T1-5"])
    (run,) = load_runs(tmp_path)
    assert run.status == "ok" and run.scorecard is not None
    assert run.scorecard.total_calls == 5
    assert run.analysis_text is None
    (note,) = run.notes
    assert note.startswith("no summary or analysis: ") and "trace.jsonl" in note


def test_hygiene_waits_on_the_clock_then_runs(tmp_path: Path) -> None:
    soon = bucket(reset=int(T0) + 600)
    clock = VirtualClock(T0)
    logs: list[str] = []
    plan = _plan(["S2-T1-1"])
    save_plan(tmp_path, plan)

    class Refreshing(FakeBackend):
        def rate_limit(self) -> Mapping[str, Bucket] | None:
            # after the reset the bucket is fresh
            return {"core": soon if clock.now() < soon.reset else bucket(used=0, remaining=5000)}

    backend = Refreshing()
    run_matrix(plan, backend, tmp_path, clock=clock, operator="t", log=logs.append)
    assert clock.now() == soon.reset + 300
    assert any("waiting" in line for line in logs)
    assert backend.ran == ["S2-T1-1"]


def test_hygiene_refusal_is_recorded(tmp_path: Path) -> None:
    backend = FakeBackend(buckets={"graphql": bucket(remaining=3)})
    _run(tmp_path, backend, ["S2-T1-50"])
    (run,) = load_runs(tmp_path)
    assert run.status == "refused" and "graphql: 3 of 5,000 remaining" in (run.reason or "")
    assert backend.ran == []


def test_hygiene_fits_the_scaled_run_not_the_runbooks(tmp_path: Path) -> None:
    # 10 minutes to the reset: the runbook's 17 minutes would wait past it, a tenth fits
    clock = VirtualClock(T0)
    plan = _plan(["S2-T1-1"], duration_scale=0.1)
    save_plan(tmp_path, plan)
    backend = FakeBackend(buckets={"core": bucket(reset=int(T0) + 600)})
    logs: list[str] = []
    run_matrix(plan, backend, tmp_path, clock=clock, operator="t", log=logs.append)
    assert backend.ran == ["S2-T1-1"] and clock.now() == T0
    assert not any("waiting" in line for line in logs)


def test_budget_estimate_uses_the_scaled_run(tmp_path: Path) -> None:
    # AO polls every 30 s however short the run: 50 sessions for a tenth of a minute
    # cost far less than for 17 minutes
    low = {"graphql": bucket(remaining=300)}
    for scale, out in ((0.01, tmp_path / "short"), (1.0, tmp_path / "full")):
        plan = _plan(["S2-T1-50"], driver="ao", duration_scale=scale)
        save_plan(out, plan)
        backend = FakeBackend(buckets=low)
        run_matrix(plan, backend, out, clock=VirtualClock(T0), operator="t", log=lambda _: None)
    (short,) = load_runs(tmp_path / "short")
    (full,) = load_runs(tmp_path / "full")
    assert short.status == "ok"
    assert full.status == "refused" and "graphql: 300 of 5,000 remaining" in (full.reason or "")


def test_refused_record_shows_the_scaled_durations(tmp_path: Path) -> None:
    plan = _plan(["S2-T1-50"], duration_scale=0.1)
    save_plan(tmp_path, plan)
    backend = FakeBackend(buckets={"graphql": bucket(remaining=3)})
    run_matrix(plan, backend, tmp_path, clock=VirtualClock(T0), operator="t", log=lambda _: None)
    (run,) = load_runs(tmp_path)
    assert run.status == "refused"
    assert (run.warmup_s, run.duration_s) == pytest.approx((12.0, 90.0))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ghbench", *args], capture_output=True, text=True)


def test_cli_unknown_cell_lists_valid_ones(tmp_path: Path) -> None:
    proc = _cli("matrix", "run", "--cells", "S9-T1-1", "--out", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: --cells: unknown cell 'S9-T1-1'")
    assert "S2-T1-50" in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_cli_plan_and_resume_without_state(tmp_path: Path) -> None:
    proc = _cli("matrix", "plan", "--priority", "--format", "github-actions")
    assert json.loads(proc.stdout)["include"][0]["cell"] == "S2-T1-1"
    proc = _cli("matrix", "run", "--resume", "--out", str(tmp_path))
    assert proc.returncode == 2 and "--resume" in proc.stderr
