"""Artifact models: the spec's keys and nesting, versioning, tolerant readers, safe writes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench import BENCHMARK_VERSION
from ghbench.artifacts.models import (
    SETUP_SCHEMA_VERSION,
    ScorecardArtifact,
    Session,
    SetupArtifact,
    encode_artifact,
    load_scorecard,
    load_setup,
    write_setup,
)
from ghbench.data import example_trace_path
from ghbench.errors import ArtifactError
from ghbench.runspec.cells import Cell
from ghbench.scorecard import build_scorecard_artifact, write_scorecard
from ghbench.timefmt import iso_ms, parse_iso
from ghbench.trace.frame import TraceFrame
from ghbench.trace.reader import read_trace
from ghbench.trace.schema import TraceRow

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# The spec's examples ("Artifacts"), as written there ("..." values filled in).
SPEC_SCORECARD: dict[str, Any] = {
    "schemaVersion": 1,
    "benchmarkVersion": "0.1.0",
    "scenarioId": "quiet-steady.single-repo.20",
    "gitSha": "ad10dbf7...",
    "branch": "feat/gh-rate-limiting",
    "measuredAt": "2026-04-16T14:30:00Z",
    "sessionCount": 20,
    "warmup": {"requested": "2m", "actualEnd": "2026-04-16T14:17:02Z"},
    "window": {
        "start": "2026-04-16T14:17:02Z",
        "end": "2026-04-16T14:32:02Z",
        "durationRequested": "15m",
        "durationActual": "15m 0s",
    },
    "resourceWindows": {
        "graphql": {"resetAt": "2026-04-16T15:17:00Z", "straddled": False},
        "core": {"resetAt": "2026-04-16T14:49:03Z", "straddled": True},
    },
    "rateLimitSnapshots": {
        "before": {
            "capturedAt": "2026-04-16T14:17:02Z",
            "core": {"limit": 5000, "remaining": 4997, "used": 3},
            "graphql": {"limit": 5000, "remaining": 4950, "used": 50},
        },
        "after": {
            "capturedAt": "2026-04-16T14:32:02Z",
            "core": {"limit": 5000, "remaining": 4880, "used": 120},
            "graphql": {"limit": 5000, "remaining": 4200, "used": 800},
        },
    },
    "scorecard": {
        "totalCalls": 1200,
        "callsPerMin": 80.0,
        "graphqlPointsPerHr": 3000,
        "graphqlPointsPerHrEstimated": False,
        "restCoreRequestsPerHr": 120,
        "restCoreRequestsPerHrEstimated": False,
        "graphqlBatchCount": 180,
        "guardPrList304Count": 170,
        "guardPrListErrorCount": 10,
        "guardPrList304Rate": 0.944,
        "opaqueCallCount": 840,
        "opaqueCallPct": 0.70,
        "bracketDelta": {"core": 117, "graphql": 750},
        "p50DurationMs": 1014,
        "p95DurationMs": 1400,
        "p99DurationMs": 1800,
        "benchmarkControlCalls": 2,
    },
    "trace": "experiments/out/gh-trace-bench-1776400000.jsonl",
    "supplemental": {
        "summarizerOutput": "experiments/out/summary-bench-1776400000.txt",
        "analyzerOutput": "experiments/out/analysis-bench-1776400000.txt",
    },
}

SPEC_SETUP: dict[str, Any] = {
    "schemaVersion": 1,
    "benchmarkVersion": "0.1.0",
    "scenarioId": "quiet-steady.single-repo.20",
    "createdAt": "2026-04-16T14:00:00Z",
    "gitSha": "ad10dbf7...",
    "branch": "feat/gh-rate-limiting",
    "project": "todo-app",
    "repo": "illegalcall/todo-app",
    "scenario": "quiet-steady",
    "topology": "single-repo",
    "sessionCount": 20,
    "ready": True,
    "sessions": [
        {
            "sessionId": "ta-12",
            "issue": 1,
            "branch": "feat/issue-1",
            "worktreePath": "/Users/dhruvsharma/.worktrees/todo-app/ta-12",
            "prNumber": 42,
            "prUrl": "https://github.com/illegalcall/todo-app/pull/42",
        }
    ],
}


def _shape(value: Any) -> Any:
    """Keys and nesting, in order, without the values."""
    if isinstance(value, dict):
        return [(k, _shape(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_shape(v) for v in value[:1]]
    return None


def _write(path: Path, doc: dict[str, Any]) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_the_spec_scorecard_example_reads_and_writes_back_with_its_keys_in_order(
    tmp_path: Path,
) -> None:
    art = load_scorecard(_write(tmp_path / "spec.json", SPEC_SCORECARD))
    assert art.scorecard.guard_pr_list_304_rate == 0.944
    assert art.rate_limit_snapshots is not None and art.rate_limit_snapshots.after is not None
    assert art.rate_limit_snapshots.after.graphql is not None
    assert art.rate_limit_snapshots.after.graphql.used == 800
    out = json.loads(encode_artifact(art))
    spec_keys = [k for k, _ in _shape(SPEC_SCORECARD)]
    ours = [k for k in out if k in spec_keys]
    assert ours == spec_keys  # same order, nothing of the spec's missing
    for key in ("warmup", "window", "resourceWindows", "scorecard", "supplemental"):
        assert _shape(out[key]) == _shape(SPEC_SCORECARD[key])
    for when in ("before", "after"):
        snap = out["rateLimitSnapshots"][when]
        assert [k for k in snap] == ["capturedAt", "core", "graphql"]
        assert [k for k in snap["core"] if k != "reset"] == ["limit", "remaining", "used"]
    extra = [k for k in out if k not in spec_keys]
    assert extra == [
        "insights",
        "incomplete",
        "incompleteReason",
        "warnings",
        "skippedLines",
        "readWarnings",
    ]


def test_the_spec_setup_example_round_trips_exactly(tmp_path: Path) -> None:
    art = load_setup(_write(tmp_path / "setup.json", SPEC_SETUP))
    assert art.sessions[0].worktree_path == "/Users/dhruvsharma/.worktrees/todo-app/ta-12"
    assert json.loads(encode_artifact(art)) == SPEC_SETUP
    assert list(json.loads(encode_artifact(art))) == list(SPEC_SETUP)


@pytest.mark.parametrize("loader", [load_scorecard, load_setup])
def test_unknown_schema_version_is_refused_with_advice(tmp_path: Path, loader: Any) -> None:
    path = _write(tmp_path / "future.json", {**SPEC_SETUP, "schemaVersion": 7})
    with pytest.raises(ArtifactError) as err:
        loader(path)
    known = "1, 2, 3, 4 and 5" if loader is load_scorecard else "1"
    assert str(err.value) == (
        f"{path}: schemaVersion 7 is not supported (this ghbench reads {known}); upgrade ghbench"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a ghbench setup artifact"),
        ("{}", "no schemaVersion"),
        ('{"schemaVersion": "1"}', "schemaVersion '1' is not a number"),
        ('{"schemaVersion": 1, "scenarioId": 3}', "invalid setup artifact"),
    ],
)
def test_damaged_artifacts_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "setup.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ArtifactError, match=message) as err:
        load_setup(path)
    assert str(path) in str(err.value)
    with pytest.raises(ArtifactError, match="no such setup artifact"):
        load_setup(tmp_path / "missing.json")


def test_unknown_fields_from_a_newer_ghbench_are_ignored(tmp_path: Path) -> None:
    doc = json.loads(json.dumps(SPEC_SCORECARD))
    doc["futureThing"] = {"x": 1}
    doc["scorecard"]["futureMetric"] = 5
    art = load_scorecard(_write(tmp_path / "s.json", doc))
    assert art.scorecard.total_calls == 1200
    assert art.insights.operations == []  # absent in the spec's example: defaults


@pytest.mark.parametrize("version", [1, 2])
def test_scorecards_from_before_warnings_read_with_none(tmp_path: Path, version: int) -> None:
    art = load_scorecard(_write(tmp_path / "s.json", {**SPEC_SCORECARD, "schemaVersion": version}))
    assert art.schema_version == version and art.warnings == []


def test_a_warning_of_a_kind_this_ghbench_does_not_know_still_reads(tmp_path: Path) -> None:
    future = {"kind": "cosmic-ray", "message": "a bit flipped", "action": "shield", "volts": 3}
    doc = {**SPEC_SCORECARD, "schemaVersion": 3, "warnings": [future]}
    (warning,) = load_scorecard(_write(tmp_path / "s.json", doc)).warnings
    assert (warning.kind, warning.count, warning.seconds) == ("cosmic-ray", None, None)


def test_writes_never_overwrite(tmp_path: Path) -> None:
    art = SetupArtifact(
        scenario_id=Cell("S2", "T1", 2).scenario_id,
        created_at="2026-04-16T14:00:00Z",
        project="todo-app",
        repo="acme/todo",
        scenario="quiet-steady",
        topology="single-repo",
        session_count=2,
        ready=False,
        sessions=[Session(session_id="ta-1", issue=1)],
    )
    assert art.scenario_id == "quiet-steady.single-repo.2"
    assert art.schema_version == SETUP_SCHEMA_VERSION and art.benchmark_version == BENCHMARK_VERSION
    path = write_setup(art, tmp_path / "setup.json")
    before = path.read_bytes()
    with pytest.raises(ArtifactError, match="already exists"):
        write_setup(msgspec.structs.replace(art, ready=True), path)
    assert path.read_bytes() == before
    assert load_setup(path) == art
    assert [p.name for p in tmp_path.iterdir()] == ["setup.json"]  # no temp files left


def example_artifact() -> ScorecardArtifact:
    frame = read_trace(example_trace_path())
    return build_scorecard_artifact(
        frame,
        window_start_ms=round(parse_iso("2026-04-16T14:17:00Z") * 1000),
        window_end_ms=round(parse_iso("2026-04-16T14:32:00Z") * 1000),
        warmup_requested="2m",
        duration_requested="15m",
        scenario_id="example.single-repo.5",
        session_count=5,
        measured_at="2026-04-16T14:32:00Z",
        trace_path="example-trace.jsonl",
    )


def test_golden_scorecard_artifact_of_the_example_trace(tmp_path: Path) -> None:
    art = example_artifact()
    data = encode_artifact(art)
    golden = GOLDEN / "scorecard-example.json"
    if os.environ.get("GHBENCH_UPDATE_GOLDEN"):
        golden.write_bytes(data)
    assert data == golden.read_bytes(), "the artifact changed; see tests/golden/README.md"
    written = write_scorecard(art, tmp_path)
    assert written.name == "scorecard-example.single-repo.5-1776349920.json"
    assert load_scorecard(written) == art
    again = write_scorecard(art, tmp_path)  # the directory form never overwrites
    assert again.name == "scorecard-example.single-repo.5-1776349920-2.json"


def test_a_version_3_scorecard_still_reads() -> None:
    """The example's artifact as ghbench wrote it before rate limits were warnings."""
    art = load_scorecard(GOLDEN / "scorecard-example-v3.json")
    assert art.schema_version == 3
    assert art.scorecard == example_artifact().scorecard  # the spec's fields never changed
    assert all(w.budget is None and w.limit is None for w in art.warnings)


def test_a_version_4_scorecard_still_reads() -> None:
    """The example's artifact as ghbench wrote it before pacing: no ``insights.pacing``."""
    art = load_scorecard(GOLDEN / "scorecard-example-v4.json")
    assert art.schema_version == 4 and art.insights.pacing is None
    current = example_artifact()
    assert art.scorecard == current.scorecard
    assert art.warnings == current.warnings


def rate_limited_artifact() -> ScorecardArtifact:
    """A minute of calls in which GraphQL runs out and a secondary limit refuses calls."""
    t0 = parse_iso("2026-04-16T14:00:00Z")
    reset = int(t0) + 3600

    def at(s: float, **fields: Any) -> TraceRow:
        return TraceRow(timestamp=iso_ms(t0 + s), durationMs=100.0, **fields)

    graphql = {"rateLimitResource": "graphql", "rateLimitLimit": 5000, "rateLimitReset": reset}
    core = {"rateLimitResource": "core", "rateLimitLimit": 5000, "rateLimitReset": reset}
    rows = [
        at(
            1,
            operation="gh.api.graphql-batch",
            httpStatus=200,
            ok=True,
            graphqlCost=1,
            rateLimitRemaining=1,
            **graphql,
        ),
        at(
            2,
            operation="gh.api.graphql-batch",
            httpStatus=200,
            ok=True,
            graphqlCost=1,
            rateLimitRemaining=0,
            **graphql,
        ),
        at(
            10,
            operation="gh.api.graphql-batch",
            httpStatus=200,
            ok=False,
            rateLimitRemaining=0,
            rateLimited="primary",
            **graphql,
        ),
        at(
            20,
            operation="gh.api.guard-pr-list",
            httpStatus=429,
            ok=False,
            rateLimitRemaining=4000,
            rateLimited="secondary-points",
            **core,
        ),
        at(
            30,
            operation="gh.api.guard-pr-list",
            httpStatus=304,
            ok=False,
            rateLimitRemaining=4000,
            **core,
        ),
        at(
            40,
            operation="gh.api.rate_limit",
            endpoint="rate_limit",
            httpStatus=200,
            ok=True,
            rateLimitRemaining=4000,
            **core,
        ),
    ]
    return build_scorecard_artifact(
        TraceFrame.from_rows(rows),
        window_start_ms=round(t0 * 1000),
        window_end_ms=round((t0 + 60) * 1000),
        scenario_id="rate-limited.single-repo.1",
        measured_at=t0 + 60,
    )


def test_golden_scorecard_artifact_of_a_run_that_met_its_limits() -> None:
    data = encode_artifact(rate_limited_artifact())
    golden = GOLDEN / "scorecard-rate-limited.json"
    if os.environ.get("GHBENCH_UPDATE_GOLDEN"):
        golden.write_bytes(data)
    assert data == golden.read_bytes(), "the artifact changed; see tests/golden/README.md"
    kinds = [(w["kind"], w["budget"], w["count"]) for w in json.loads(data)["warnings"]]
    assert kinds == [
        ("rate-limited", "graphql", 1),
        ("rate-limited", "restPointsPerMinute", 1),
        # GraphQL spent in its first seconds: as front-loaded as a budget gets
        ("front-loaded", "graphql", None),
        ("short-window", None, None),
    ]
