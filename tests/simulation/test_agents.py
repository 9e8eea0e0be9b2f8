"""Agents against the in-process emulator in virtual time: rows, the ledger, the fit."""

import dataclasses
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from ghbench.artifacts.models import load_scorecard
from ghbench.simulation.agents import AgentRun, AgentRunSpec, run_agents, write_agent_artifacts
from ghbench.workload.agents.profiles import AGENT_PROFILES

EVIDENCE_GRAPHQL_PER_HOUR = 9572.0  # AO PR #1238: 5 agents, 4,944 points in 31 min


def _row_points(run: AgentRun) -> dict[str, int]:
    """Points the rows say they cost: GraphQL rows their cost, core rows 1 (304s 0)."""
    totals: Counter[str] = Counter()
    for row in run.rows:
        if row.rateLimitResource == "graphql" and row.graphqlCost is not None:
            totals["graphql"] += row.graphqlCost
        elif row.rateLimitResource == "core" and row.httpStatus not in (None, 304):
            totals["core"] += 1
    return dict(totals)


def test_a_run_is_deterministic_for_its_seed() -> None:
    spec = AgentRunSpec(agents=1, duration_s=600.0)
    a, b = run_agents(spec, seed=5), run_agents(spec, seed=5)
    assert [msgspec.json.encode(r) for r in a.rows] == [msgspec.json.encode(r) for r in b.rows]
    assert a.ledger == b.ledger
    assert run_agents(spec, seed=6).rows != a.rows


def test_rows_say_what_the_emulator_charged() -> None:
    """Every request is one row, priced as the emulator's ledger priced it."""
    run = run_agents(AgentRunSpec(agents=2, duration_s=700.0), seed=2)
    ledger = {k: v for k, v in run.ledger.points.items() if v}
    assert _row_points(run) == ledger
    assert run.summary.requests == len(run.rows)
    assert {r.origin for r in run.rows} == {"agent"}
    assert {r.sessionId for r in run.rows} == {"ta-1", "ta-2"}
    ops = Counter(r.graphqlOperation for r in run.rows)
    assert ops["PullRequestStatusChecks"] > 0 and ops["PullRequestCreate"] == 2


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["default", "claude-code-gh-2.23"])
def test_five_default_agents_land_within_25pct_of_the_evidence(profile: str) -> None:
    """docs/calibration.md, Agents: the fit, with gh 2.102's requests (the default) and
    gh 2.23's; three seeds, each within the band."""
    for seed in (1, 2, 3):
        run = run_agents(AgentRunSpec(profile=profile, agents=5, duration_s=1800.0), seed=seed)
        rate = run.points_per_hour("graphql")
        assert abs(rate - EVIDENCE_GRAPHQL_PER_HOUR) <= 0.25 * EVIDENCE_GRAPHQL_PER_HOUR, rate


def test_the_fleet_shares_one_gh_cache_for_the_feature_detection() -> None:
    # gh 2.102 detects features before its day's first `pr checks`: one agent of the
    # fleet sends it, the others (and later checks) find it in gh's cache
    run = run_agents(AgentRunSpec(agents=3, duration_s=900.0), seed=1)
    ops = Counter(r.graphqlOperation for r in run.rows)
    assert ops["PullRequestStatusChecks"] > 10
    assert ops["PullRequest_fields"] == ops["PullRequest_fields2"] == 1


@pytest.mark.slow
def test_the_rest_shim_moves_gh_pr_checks_from_graphql_to_core() -> None:
    spec = AgentRunSpec(agents=1, duration_s=900.0)
    graphql = run_agents(spec, seed=4)
    shim = run_agents(dataclasses.replace(spec, profile="claude-code-rest-checks"), seed=4)
    assert shim.points_per_hour("graphql") < graphql.points_per_hour("graphql") / 4
    assert shim.points_per_hour("core") > graphql.points_per_hour("core") * 4
    shim_ops = {r.graphqlOperation for r in shim.rows}
    assert "PullRequestStatusChecks" not in shim_ops
    assert any(r.endpoint and r.endpoint.endswith("/check-runs") for r in shim.rows)


def test_the_badge_polls_pr_view_about_every_minute() -> None:
    params = msgspec.structs.replace(AGENT_PROFILES["claude-code-badge-gh-2.102"], work=(1e6, 1e6))
    run = run_agents(AgentRunSpec(agents=1, duration_s=600.0, params=params), seed=1)
    badge = [
        r
        for r in run.rows
        if r.args and "number,url,reviewDecision,isDraft,headRefName,state" in r.args
    ]
    assert 9 <= len(badge) <= 11  # 600 s at one per 60 s, plus its first look


def test_artifacts_are_a_trace_and_a_scorecard(tmp_path: Path) -> None:
    run = run_agents(AgentRunSpec(agents=1, duration_s=600.0), seed=1)
    written = write_agent_artifacts(run, seed=1, out_dir=tmp_path)
    assert len(written.trace_path.read_bytes().splitlines()) == len(run.rows)
    artifact = load_scorecard(written.scorecard_path)
    assert artifact == written.scorecard
    assert artifact.session_count == 1 and artifact.scenario_id == "agents-1"
