"""One question, asked two ways (docs/policies.md): how many sessions of a recorded fleet
fit under a policy, and what they spend. ``ghbench lab`` answers offline
(``policies.offline``); ``capacity --from-trace --policies`` and ``replay --policies``
answer by re-issuing the recording on the emulator with the same policy stack in front.
The count that fits is the same, and the replay at the recorded size spends what the
lab's row says (within 1%: the emulator's answers against the lab's pricing)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.analysis.lab import calls_of, lab_table
from ghbench.errors import UsageError
from ghbench.matrix.capacity import run_capacity_from_trace
from ghbench.policies.spec import parse_policies
from ghbench.simulation.agents import AgentRunSpec, run_agents, write_agent_artifacts
from ghbench.simulation.replay import ReplaySpec, replay_trace
from ghbench.trace.schema import TraceRow
from ghbench.workload.replay import ReplayPolicy

pytestmark = pytest.mark.slow  # each test runs the model or a replay (~1 s)
SEED = 7
# a token's 5,000/h: the budgets the recording shows are the ones capacity judges by
SPEC = AgentRunSpec(profile="claude-code", agents=2, duration_s=900.0)
# each policy the replay runs, and the combination a fleet would ship
POLICIES = ("none", "cache", "gate", "gate:refill=3000", "reserve", "cache+gate")


@pytest.fixture(scope="module")
def rows() -> list[TraceRow]:
    return run_agents(SPEC, seed=SEED).rows


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = run_agents(SPEC, seed=SEED)
    return write_agent_artifacts(run, seed=SEED, out_dir=tmp_path_factory.mktemp("rec")).trace_path


@pytest.mark.parametrize("policy", POLICIES)
def test_the_lab_capacity_and_replay_give_one_answer(rows: list[TraceRow], policy: str) -> None:
    chosen = parse_policies(policy)
    recording = calls_of(rows)
    row = lab_table(recording, trace="t", choices=(chosen,)).table[0]
    found, recorded = run_capacity_from_trace(
        rows, fraction=0.8, maximum=20, ceiling_s=60.0, seed=1, policies=chosen
    )
    assert recorded == 2
    assert found.sessions == row.sessions_fit
    replayed = replay_trace(rows, ReplaySpec(policies=chosen), seed=1)
    for budget in ("graphql", "core"):
        lab = row.spend_per_hour[budget]
        assert replayed.ledger.per_hour(budget) == pytest.approx(lab, rel=0.01, abs=1.0), budget
    if chosen.cache is not None:
        assert row.absorbed > 0 and sum(replayed.policy["cached"].values()) == row.absorbed
    # the calls the gate held past the recording's end: the lab's row leaves them out
    held = sum(replayed.policy.get("held past the recording's end", {}).values())
    assert held == pytest.approx(len(recording.calls) - row.calls, abs=2)
    assert (held > 0) == (policy in {"gate", "gate:refill=3000"})


def _ghbench(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "ghbench", *args, "--json"],
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_the_commands_give_one_answer(trace: Path, tmp_path: Path) -> None:
    lab = _ghbench("lab", "--trace", str(trace), "--policies", "cache+gate")
    rows = {r["policies"]: r for r in lab["table"]}  # type: ignore[attr-defined]
    capacity = _ghbench("capacity", "--from-trace", str(trace), "--policies", "cache+gate",
                        "--no-plot", "--max-sessions", "20", "--seed", "1")  # fmt: skip
    assert capacity["sessions"] == rows["cache+gate"]["sessionsFit"] > rows["none"]["sessionsFit"]
    assert capacity["fromTrace"]["policies"] == "cache+gate"  # type: ignore[index]
    assert any("--policies cache+gate" in line for line in capacity["reproduce"])  # type: ignore[attr-defined]


def test_replays_ttl_is_the_cache_policy(rows: list[TraceRow]) -> None:
    old = replay_trace(rows, ReplaySpec(policy=ReplayPolicy(ttl={"gh.pr.checks": 30.0})), seed=1)
    chosen = parse_policies("cache:ttl=30:coalesce=false:invalidate=false")
    new = ReplayPolicy(ttl={"gh.pr.checks": 30.0}).policies(parse_policies("none"))
    assert new.cache is not None and new.cache.ttl_for("gh.pr.checks") == 30.0
    assert new.cache.ttl_for("gh.pr.view") is None
    # only the operation named is cached; the cache policy alone caches every operation
    every = replay_trace(rows, ReplaySpec(policies=chosen), seed=1)
    assert set(old.policy["cached"]) == {"gh.pr.checks"}
    assert old.policy["cached"]["gh.pr.checks"] == every.policy["cached"]["gh.pr.checks"]
    assert set(every.policy["cached"]) > {"gh.pr.checks"}
    with pytest.raises(UsageError, match="--ttl: the cache policy is on"):
        ReplayPolicy(ttl={"gh.pr.checks": 30.0}).policies(parse_policies("cache"))


@pytest.mark.parametrize("policy", ["probe", "shim", "cache+shim"])
def test_a_policy_the_replay_cannot_run_is_refused(rows: list[TraceRow], policy: str) -> None:
    name = "probe" if policy == "probe" else "shim"
    with pytest.raises(UsageError, match=f"--policies {name}: not run by a replay"):
        replay_trace(rows, ReplaySpec(policies=parse_policies(policy)), seed=1)
