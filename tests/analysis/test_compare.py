"""The comparison core: medians and ranges, the spread verdicts, cells, notes."""

from __future__ import annotations

import math
from pathlib import Path

import msgspec
import pytest

from ghbench.analysis.compare import (
    Run,
    Verdict,
    cell_key,
    compare_runs,
    runs_needed,
    separation_p,
)
from ghbench.analysis.compare_metrics import SCALAR_METRICS, metric_values
from ghbench.analysis.thresholds import evaluate, parse_threshold
from ghbench.artifacts.models import ScorecardArtifact, load_scorecard
from ghbench.errors import UsageError
from ghbench.runspec.names import AgentsName
from ghbench.scorecard import build_scorecard_artifact
from ghbench.simulation.cell import run_cell
from ghbench.simulation.simulate import cell_scorecard
from ghbench.timefmt import iso_ms
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow
from specs import model_spec

FIXTURES = Path(__file__).parent / "fixtures" / "compare"


def _runs(side: str) -> list[Run]:
    return [Run(p.name, load_scorecard(p)) for p in sorted((FIXTURES / side).glob("*.json"))]


def _with(artifact: ScorecardArtifact, **scorecard: object) -> ScorecardArtifact:
    return msgspec.structs.replace(
        artifact, scorecard=msgspec.structs.replace(artifact.scorecard, **scorecard)
    )


def test_separation_probability_is_exact() -> None:
    assert separation_p(1, 1) == 1.0
    assert separation_p(2, 2) == pytest.approx(1 / 3)
    assert separation_p(3, 3) == pytest.approx(0.1)
    assert separation_p(4, 4) == pytest.approx(2 / 70)
    assert runs_needed() == 4


def test_every_scalar_metric_is_read_from_the_artifact() -> None:
    (run,) = _runs("base")[:1]
    values = metric_values(run.artifact)
    assert values["totalCalls"] == run.artifact.scorecard.total_calls
    assert values["bracketDelta.graphql"] == run.artifact.scorecard.bracket_delta.graphql
    consumed = run.artifact.insights.consumption.graphql.per_hr
    assert values["consumption.graphql.perHr"] == consumed
    peak = run.artifact.insights.secondary_limits.concurrency.peak
    assert values["secondaryLimits.concurrency.peak"] == peak
    assert all(m.name in values for m in SCALAR_METRICS)
    assert values["operations[gh.api.graphql-batch].calls"] == 10


def test_four_runs_each_separated_is_beyond_the_spread() -> None:
    c = compare_runs(_runs("base"), _runs("cand"))
    total = c.find("totalCalls")
    assert total is not None
    assert total.verdict is Verdict.BEYOND and total.p_value == pytest.approx(2 / 70)
    p95 = c.find("exact.p95DurationMs")
    assert p95 is not None and p95.verdict is Verdict.WITHIN and p95.p_value is None
    assert p95.baseline.median == pytest.approx(1363.44, abs=0.01)
    rounded = c.find("p95DurationMs")  # AO's value: whole milliseconds
    assert rounded is not None and rounded.baseline.median == 1363.5
    same = c.find("guardPrList304Count")
    assert same is not None and same.verdict is Verdict.NO_CHANGE


def test_two_runs_each_are_too_few_to_tell() -> None:
    c = compare_runs(_runs("base")[:2], _runs("cand")[:2])
    total = c.find("totalCalls")
    assert total is not None
    assert total.verdict is Verdict.TOO_FEW and total.p_value == pytest.approx(1 / 3)


def test_an_operation_one_side_never_called_counts_zero() -> None:
    c = compare_runs(_runs("base"), _runs("cand"))
    status = c.find("operations[gh.api.guard-commit-status].calls")
    assert status is not None
    assert status.baseline.values == (0.0, 0.0, 0.0, 0.0) and status.candidate.median == 50
    assert status.change_pct == math.inf
    assert "gh.api.graphql-batch" in c.operations


def test_missing_values_are_no_data_not_zero() -> None:
    base = _runs("base")[:1]
    cand = [Run("c", _with(base[0].artifact, p95_duration_ms=None))]
    m = compare_runs(base, cand).find("p95DurationMs")
    assert m is not None and m.verdict is Verdict.NO_DATA and m.change is None


def test_cell_identity() -> None:
    a = _runs("base")[0].artifact
    assert cell_key(a).describe() == "quiet-steady.single-repo.5, window 5m 0s"
    other = msgspec.structs.replace(a, scenario_id="quiet-steady.single-repo.6", session_count=6)
    with pytest.raises(UsageError, match="different cells"):
        compare_runs([Run("a", a)], [Run("b", other)])
    longer = msgspec.structs.replace(
        a, window=msgspec.structs.replace(a.window, duration_requested="6m")
    )
    with pytest.raises(UsageError, match="window 6m 0s"):
        compare_runs([Run("a", a)], [Run("b", longer)])
    c = compare_runs([Run("a", a)], [Run("b", other)], allow_different_cells=True)
    assert c.notes[0].startswith("different cells")


def test_actual_windows_a_second_apart_are_one_cell() -> None:
    a = _runs("base")[0].artifact
    w = msgspec.structs.replace(a.window, duration_requested=None, start="2026-04-17T09:00:00.000Z")
    one = msgspec.structs.replace(
        a, window=msgspec.structs.replace(w, end="2026-04-17T09:05:00.000Z")
    )
    two = msgspec.structs.replace(
        a, window=msgspec.structs.replace(w, end="2026-04-17T09:05:01.500Z")
    )
    assert cell_key(one).matches(cell_key(two))


def test_notes_name_incomplete_and_estimated_runs() -> None:
    base = _runs("base")[:1]
    bad = msgspec.structs.replace(
        base[0].artifact, incomplete=True, incomplete_reason="interrupted (Ctrl-C) after 1m 0s"
    )
    bad = _with(bad, graphql_points_per_hr_estimated=True)
    c = compare_runs(base, [Run("c", bad)])
    assert "candidate: 1 of 1 run(s) incomplete (interrupted (Ctrl-C) after 1m 0s)" in c.notes
    assert any("graphqlPointsPerHr is estimated" in n for n in c.notes)


def test_version_1_and_2_scorecards_compare_with_a_note() -> None:
    new = _runs("base")[:1]
    a = new[0].artifact
    old = msgspec.structs.replace(
        a, schema_version=1, insights=msgspec.structs.replace(a.insights, exact=None)
    )
    c = compare_runs([Run("old", old)], new)
    assert any("scorecard versions 1 and 4 are mixed" in n for n in c.notes)
    assert any("before version 4 do not say which rate limits" in n for n in c.notes)
    exact = c.find("exact.callsPerMin")
    assert exact is not None and exact.verdict is Verdict.NO_DATA


def test_who_spent_is_compared_when_the_runs_traced_their_agents() -> None:
    """The mitigation's comparison: the same cell, the agents' gh pr checks over GraphQL
    and then through the REST shim; the split's figures move, and the note says why."""

    def card(agents: AgentsName) -> ScorecardArtifact:
        spec = model_spec("S3", sessions=1, agents=agents, warmup_s=0.0, duration_s=900.0)
        return cell_scorecard(run_cell(msgspec.structs.replace(spec, seed=2)))

    graphql, shim = card("claude-code"), card("claude-code-rest-checks")
    c = compare_runs([Run("a", graphql)], [Run("b", shim)])
    split = {m.metric.name: m for m in c.metrics if m.metric.section == "split"}
    agents_graphql = split["spendSplit.agents.graphqlPoints"]
    assert agents_graphql.change is not None and agents_graphql.change < 0
    assert (split["spendSplit.agents.corePoints"].change or 0) > 0
    assert "the agents: claude-code-gh-2.102 → claude-code-rest-checks-gh-2.102" in c.notes
    plain = compare_runs([Run("a", graphql)], [Run("b", graphql)])
    assert not any("the agents:" in n for n in plain.notes)


def test_a_budget_that_ran_out_is_compared_and_can_fail_the_build() -> None:
    """The candidate's GraphQL ran out and the baseline's did not: the first section says
    so, a note gives the candidate's own words, and ``--fail`` can hold it."""
    base = _runs("base")[:1]
    (warning,) = [
        w for w in _rate_limited().warnings if w.kind == "rate-limited" and w.budget == "graphql"
    ]
    limited = msgspec.structs.replace(
        base[0].artifact, warnings=[warning, *base[0].artifact.warnings]
    )
    c = compare_runs(base, [Run("limited", limited)])
    refused = c.find("rateLimited.refusedCalls")
    assert refused is not None and refused.change == warning.count
    assert any(
        n.startswith("candidate: rate limited (graphql) in 1 of 1 run(s): GraphQL points ran out")
        for n in c.notes
    )
    verdict = evaluate(parse_threshold("rateLimited.refusedCalls>0"), refused)
    assert verdict.failed


def _rate_limited() -> ScorecardArtifact:
    t0 = 1_776_348_000.0
    headers = {"rateLimitResource": "graphql", "rateLimitReset": int(t0) + 3600}
    rows = [
        TraceRow(
            timestamp=iso_ms(t0 + 1),
            httpStatus=200,
            ok=True,
            graphqlCost=1,
            rateLimitRemaining=0,
            **headers,
        ),
        TraceRow(
            timestamp=iso_ms(t0 + 2),
            httpStatus=200,
            ok=False,
            rateLimited="primary",
            rateLimitRemaining=0,
            **headers,
        ),
    ]
    return build_scorecard_artifact(
        TraceFrame.from_rows(rows),
        window_start_ms=int(t0 * 1000),
        window_end_ms=int(t0 * 1000) + 900_000,
        scenario_id="x",
        measured_at=t0 + 900,
    )
