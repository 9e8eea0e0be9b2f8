"""Agents in the runbook's cells: S3's agents open their PRs, S4's answer the burst, S2 has
none; their rows are their own trace, and the scorecard splits who spent."""

from collections import Counter
from pathlib import Path

import msgspec
import pytest

from ghbench.artifacts.models import load_scorecard
from ghbench.simulation.cell import run_cell
from ghbench.simulation.simulate import cell_scorecard, simulate_cell
from ghbench.trace.schema import TraceRow
from specs import model_spec

S3 = {"warmup_s": 0.0, "duration_s": 900.0}
TS = "ao-main-60e8c881"  # AO's TypeScript build: gh's calls, some without a visible cost


def _points(rows: list[TraceRow]) -> Counter[str]:
    """What rows say they cost: GraphQL their cost, a charged REST call 1."""
    out: Counter[str] = Counter()
    for r in rows:
        if r.rateLimitResource == "graphql" and r.graphqlCost is not None:
            out["graphql"] += r.graphqlCost
        elif r.rateLimitResource == "core" and r.httpStatus not in (None, 304):
            out["core"] += 1
    return out


def test_s3_agents_push_and_open_the_prs_the_orchestrator_then_polls() -> None:
    spec = model_spec("S3", sessions=3, agents="claude-code", seed=2, profile=TS, **S3)
    run = run_cell(spec)
    assert run.agent_rows is not None and run.agent_rows
    created = [r for r in run.agent_rows if r.graphqlOperation == "PullRequestCreate"]
    assert {r.sessionId for r in created} == {"ta-1", "ta-2", "ta-3"}
    assert all(r.origin == "agent" for r in run.agent_rows)
    assert not any(r.origin == "agent" for r in run.rows), "the orchestrator's trace is its own"
    # the model found the agents' PRs and polled them (the guard of each PR's CI)
    assert any(r.operation == "gh.api.guard-commit-status" for r in run.rows)


def test_without_agents_a_cell_runs_as_it_always_did() -> None:
    plain = run_cell(model_spec("S3", sessions=2, seed=5, **S3))
    assert plain.agent_rows is None
    quiet = run_cell(model_spec("S2", sessions=2, agents="claude-code", seed=5))
    assert quiet.agent_rows is None, "S2's sessions are idle: the spec's quiet-steady"
    assert quiet.rows == run_cell(model_spec("S2", sessions=2, seed=5)).rows


def test_s4_burst_agents_read_and_answer_their_reviews() -> None:
    spec = model_spec("S4", sessions=4, agents="claude-code", warmup_s=60.0, duration_s=900.0)
    run = run_cell(msgspec.structs.replace(spec, seed=3))
    assert run.agent_rows
    replies = [r for r in run.agent_rows if (r.endpoint or "").endswith("/replies")]
    assert replies and {r.httpStatus for r in replies} == {201}
    reviewed = {r.sessionId for r in run.agent_rows if r.graphqlOperation == "PullRequestForBranch"}
    assert reviewed, "each burst PR's agent read its PR"
    assert not any(r.graphqlOperation == "PullRequestCreate" for r in run.agent_rows)


def test_the_badge_profile_polls_from_the_start_of_s4() -> None:
    spec = model_spec("S4", sessions=2, agents="claude-code-badge", warmup_s=120.0, seed=1)
    run = run_cell(msgspec.structs.replace(spec, duration=spec.warmup))
    badge = [r for r in run.agent_rows or [] if r.args and "isDraft" in ",".join(r.args)]
    assert {r.sessionId for r in badge} == {"ta-1", "ta-2"}


def test_the_scorecard_splits_the_spend_and_both_traces_make_the_ledger() -> None:
    run = run_cell(model_spec("S3", sessions=2, agents="claude-code", seed=4, profile=TS, **S3))
    assert run.agent_rows is not None
    card = cell_scorecard(run)
    split = card.insights.spend_split
    assert split is not None and split.agent_model == "claude-code-gh-2.102"  # by its name
    assert split.agents.calls == len(run.agent_rows)
    assert {s.key for s in split.agent_sessions} == {"ta-1", "ta-2"}
    ledger = {k: v for k, v in run.ledger.points.items() if v}
    priced = _points(run.rows) + _points(run.agent_rows)
    assert priced["core"] == ledger["core"]
    # the orchestrator's gh pr list / issue view show no cost (AO's own trace does not):
    # the ledger holds the agents' points and at most one more per such call
    unpriced = sum(
        1
        for r in run.rows
        if r.httpStatus is None or (r.rateLimitResource == "graphql" and r.graphqlCost is None)
    )
    assert priced["graphql"] <= ledger["graphql"] <= priced["graphql"] + unpriced
    # both traces' headers show what the shared bucket lost: the ledger's window
    assert split.consumption is not None
    assert split.consumption.graphql.points == ledger["graphql"]
    assert split.secondary_limits is not None
    both_peak = split.secondary_limits.graphql_points_per_minute.peak
    assert both_peak > card.insights.secondary_limits.graphql_points_per_minute.peak


@pytest.mark.slow
def test_simulate_writes_the_agents_trace_beside_the_orchestrators(tmp_path: Path) -> None:
    spec = model_spec("S3", sessions=2, agents="claude-code", seed=1, **S3)
    result = simulate_cell(msgspec.structs.replace(spec, out_dir=tmp_path))
    assert result.agent_trace_path is not None
    assert result.agent_trace_path.name.startswith("gh-trace-agents-sim-")
    card = load_scorecard(result.scorecard_path)
    assert card.insights.spend_split is not None
    assert card.insights.spend_split.agent_trace == str(result.agent_trace_path)
    rows = result.agent_trace_path.read_bytes().splitlines()
    assert len(rows) == card.insights.spend_split.agents.calls


def test_ao_daemons_meter_reads_the_agents_answers_too() -> None:
    """AO's daemon (the default, 0.12.6) prices its GraphQL by the budget's rise, as the
    front does; the
    agents' answers on the same budget are readings too, so each side's points are its
    own and together they are the ledger's."""
    run = run_cell(model_spec("S3", sessions=2, agents="claude-code", seed=4, **S3))
    assert run.spec.profile == "ao-0.12.6" and run.agent_rows is not None
    points = _points(run.rows)["graphql"], _points(run.agent_rows)["graphql"]
    assert sum(points) == run.ledger.points["graphql"]
    assert points[0] < points[1] / 10


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["S3", "S4"])
def test_n_sessions_m_agents_runs_the_first_m_sessions_agents(
    tmp_path: Path, scenario: str
) -> None:
    """``--agent-count M``: only the first M sessions' agents call GitHub (S3: they work
    and open their PRs; S4: they answer their reviews and poll their badge)."""
    spec = model_spec(
        scenario, sessions=4, agents="default", agent_count=2, warmup_s=30.0, duration_s=300.0
    )
    result = simulate_cell(msgspec.structs.replace(spec, out_dir=tmp_path))
    card = load_scorecard(result.scorecard_path)
    split = card.insights.spend_split
    assert split is not None and split.agents.calls > 0
    assert len(split.agent_sessions) == 2
    every = simulate_cell(
        msgspec.structs.replace(spec, agent_count=None, out_dir=tmp_path / "every")
    )
    everyone = load_scorecard(every.scorecard_path).insights.spend_split
    assert everyone is not None and len(everyone.agent_sessions) == 4
