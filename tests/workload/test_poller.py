"""The policy against the real in-process emulator, in virtual time."""

import functools
import itertools
from collections import Counter

import pytest

from ghbench.simulation.cell import CellRun, ScenarioPlay, run_cell
from ghbench.trace.schema import TraceRow
from ghbench.workload.calls import BATCH, GUARD_COMMIT_STATUS, GUARD_PR_LIST, GUARD_REVIEW_COMMENTS
from specs import model_spec

SHORT = {"warmup_s": 120.0, "duration_s": 240.0}
# the TypeScript lifecycle poller, as AO main at 60e8c881 runs it (AO 0.10's observer is
# tests/workload/test_observer.py)
head_spec = functools.partial(model_spec, profile="ao-main-60e8c881")


def _ops(rows: list[TraceRow]) -> Counter[tuple[str | None, int | None]]:
    return Counter((r.operation, r.httpStatus) for r in rows)


def _tick_rows(run: CellRun, index: int) -> list[TraceRow]:
    start = run.tick_starts[index]
    end = run.tick_starts[index + 1]
    from ghbench.timefmt import parse_iso

    return [r for r in run.rows if start <= parse_iso(r.timestamp) < end]


@pytest.mark.slow
def test_head_steady_state_is_guards_only_all_304() -> None:
    run = run_cell(head_spec("S2", sessions=8, **SHORT, seed=3))
    # after two warm-up ticks every guard answers 304 and no batch runs
    steady = [r for i in range(3, len(run.tick_starts) - 1) for r in _tick_rows(run, i)]
    ops = _ops(steady)
    ticks = len(run.tick_starts) - 4
    assert ops[(GUARD_PR_LIST, 304)] == ticks  # R = 1
    assert ops[(GUARD_COMMIT_STATUS, 304)] == 8 * ticks  # P
    assert ops[(BATCH, 200)] == 0
    reviews = ops[(GUARD_REVIEW_COMMENTS, 304)]
    assert 8 * ticks / 5 <= reviews <= 8 * ticks / 3  # ~P/4 per tick
    assert {status for _, status in ops} == {304}
    assert run.ledger.points == {}  # nothing charged in the window


def test_head_cold_first_tick() -> None:
    run = run_cell(head_spec("S2", sessions=30, **SHORT, seed=3))
    first = _ops(_tick_rows(run, 0))
    assert first[(GUARD_PR_LIST, 200)] == 1
    assert first[(BATCH, 200)] == 2  # ceil(30 / 25)
    assert first[(GUARD_REVIEW_COMMENTS, 200)] == 30
    assert first[("gh.api.graphql", 200)] == 30  # thread query after each Guard 3 200
    assert first[(GUARD_COMMIT_STATUS, 200)] == 0  # Guard 2 skipped: Guard 1 changed


def test_pre_b1_runs_the_batch_every_tick() -> None:
    run = run_cell(model_spec("S2", sessions=6, profile="ao-bench-1e73a505", **SHORT, seed=3))
    batches = sum(1 for r in run.rows if r.operation == BATCH)
    assert batches == run.ticks
    assert not any(r.operation == GUARD_COMMIT_STATUS for r in run.rows)


def test_bench_era_guards_on_status_and_review_calls_are_opaque() -> None:
    run = run_cell(model_spec("S2", sessions=4, profile="bench-era", **SHORT, seed=3))
    guard2 = [r for r in run.rows if r.operation == GUARD_COMMIT_STATUS]
    assert guard2
    assert all(r.endpoint and r.endpoint.endswith("/status") for r in guard2)
    comments = [r for r in run.rows if r.endpoint and r.endpoint.endswith("/comments")]
    assert comments
    assert all(r.httpStatus is None and r.operation == "gh.api.repos" for r in comments)


def test_same_seed_same_trace_other_seed_other_latencies() -> None:
    a, b, c = (run_cell(head_spec("S4", sessions=5, **SHORT, seed=s)) for s in (11, 11, 12))
    assert a.rows == b.rows
    assert a.ledger == b.ledger
    assert [r.durationMs for r in a.rows] != [r.durationMs for r in c.rows]


def test_spawn_storm_detects_prs_as_they_open() -> None:
    run = run_cell(head_spec("S3", sessions=5, warmup_s=60, duration_s=600, seed=2))
    ops = _ops(run.rows)
    assert ops[("gh.issue.view", None)] == 5  # one per spawned session
    detects = [r for r in run.rows if r.operation == "gh.pr.list"]
    assert detects and all(r.httpStatus is None for r in detects)  # opaque, as AO
    found = {r.args[3] for r in detects if r.args and r.stdoutBytes and r.stdoutBytes > 3}
    assert len(found) == 5  # every branch's PR was found


def test_restart_refetches_with_a_cold_tick() -> None:
    quiet = run_cell(head_spec("S2", sessions=5, **SHORT, seed=4))
    restart = run_cell(head_spec("S5", sessions=5, **SHORT, seed=4))
    batches = [sum(1 for r in x.rows if r.operation == BATCH) for x in (quiet, restart)]
    # caches and ETags gone: the cold start's refreshes (Guard 1, then Guard 2) happen again
    assert batches[1] == 2 * batches[0]


def test_review_burst_triggers_thread_queries() -> None:
    run = run_cell(head_spec("S4", sessions=6, **SHORT, seed=5), ScenarioPlay(burst_prs=3))
    window = [r for r in run.rows if r.timestamp >= _iso(run.window_start)]
    assert sum(1 for r in window if r.operation == "gh.api.graphql") >= 3


def test_dashboard_readers_have_their_own_component() -> None:
    run = run_cell(head_spec("S6", sessions=4, **SHORT, seed=6))
    dash = [r for r in run.rows if r.component == "dashboard"]
    assert {r.operation for r in dash} >= {"gh.pr.view"}
    assert all(r.timestamp >= _iso(run.window_start) for r in dash)


def test_session_ids_unless_turned_off() -> None:
    """The model's rows name their sessions (what a replay needs) unless told not to,
    as AO's TypeScript builds' own rows do not."""
    plain = run_cell(
        head_spec("S3", sessions=2, warmup_s=30, duration_s=300, session_ids=False, seed=1)
    )
    tagged = run_cell(head_spec("S3", sessions=2, warmup_s=30, duration_s=300, seed=1))
    assert not any(r.sessionId for r in plain.rows)
    assert any(r.sessionId == "ta-1" and r.projectId for r in tagged.rows)


def _iso(epoch: float) -> str:
    from ghbench.timefmt import iso_ms

    return iso_ms(epoch)


def test_review_throttle_is_held_to_the_check_time_as_aos_date_now() -> None:
    """AO compares Date.now() at the review check, which comes after the tick's guards,
    with the previous check's: four ticks later it is as often just under 2 min as
    just over, and then the PR waits for the 5th tick (docs/calibration.md)."""
    from ghbench.timefmt import parse_iso

    run = run_cell(head_spec("S2", sessions=3, warmup_s=60.0, duration_s=1200.0, seed=0))
    starts: dict[str | None, list[float]] = {}
    for r in run.rows:
        if r.operation == GUARD_REVIEW_COMMENTS:
            starts.setdefault(r.endpoint, []).append(parse_iso(r.timestamp) - r.durationMs / 1e3)
    gaps = [round(b - a) for s in starts.values() for a, b in itertools.pairwise(s)]
    assert len(starts) == 3 and all(g >= 120 for g in gaps)
    assert {round(g / 30) for g in gaps} == {4, 5}
