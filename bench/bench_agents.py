"""The agent model's calibration, its sensitivity, and the speed of the model and of replay.

    python bench/bench_agents.py --calibrate    # docs/calibration.md, "Agents": the fit
    python bench/bench_agents.py --cell         # the same in S3 beside the AO model
    python bench/bench_agents.py --sensitivity  # each parameter varied, 5 seeds each
    python bench/bench_agents.py --speed        # wall time: 5 and 50 agents, replay 1x/10x
    python bench/bench_agents.py --speed --quick  # the same, smaller: make bench

``--profile NAME`` (default: the default profile, gh 2.102's requests) runs another
agent profile, e.g. ``claude-code-gh-2.23`` (the same habits with Debian's gh 2.23).

The evidence: AO PR #1238 (Untrivial-ai/agent-orchestrator), 5 Claude Code agents, 31
minutes, 4,944 GraphQL points: 9,572 points/hour. The acceptance band is +-25%.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter

import msgspec

EVIDENCE = 9572.0
BAND = 0.25
SEEDS = range(1, 11)


UNLIMITED = (("graphql", 10**9), ("core", 10**9))


def _rates(
    params: object, seeds: range = SEEDS, agents: int = 5, *, demand: bool = False
) -> list[float]:
    """GraphQL points/hour per seed; ``demand``: with no bucket to stop the agents."""
    from ghbench.simulation.agents import AgentRunSpec, run_agents

    spec = AgentRunSpec(
        agents=agents,
        duration_s=1800.0,
        params=params,  # type: ignore[arg-type]
        limits=UNLIMITED if demand else (),
    )
    return [run_agents(spec, seed=s).points_per_hour("graphql") for s in seeds]


def calibrate(profile: str) -> int:
    from ghbench.simulation.agents import AgentRunSpec, run_agents
    from ghbench.workload.agents.profiles import agent_profile, canonical_agent_profile

    params = agent_profile(profile)
    rates = _rates(params)
    mean = statistics.mean(rates)
    name = canonical_agent_profile(profile)
    print(f"5 agents, profile {name}, 30 min, seeds {SEEDS.start}-{SEEDS.stop - 1}:")
    print(
        f"  GraphQL points/hour: mean {mean:.0f}, sd {statistics.stdev(rates):.0f}, "
        f"min {min(rates):.0f}, max {max(rates):.0f}; evidence {EVIDENCE:.0f}; "
        f"error of the mean {100 * (mean - EVIDENCE) / EVIDENCE:+.1f}%"
    )
    inside = sum(abs(r - EVIDENCE) <= BAND * EVIDENCE for r in rates)
    print(f"  seeds inside +-25%: {inside}/{len(rates)}")
    demand = _rates(params, demand=True)
    print(
        f"  demand with no bucket to stop it: mean {statistics.mean(demand):.0f}, "
        f"min {min(demand):.0f}, max {max(demand):.0f}"
    )
    free = run_agents(
        AgentRunSpec(agents=5, duration_s=1800.0, params=params, limits=UNLIMITED), seed=1
    )
    print(
        f"  per agent, with no bucket to stop it (seed 1): "
        f"{free.points_per_hour('graphql') / 5:.0f} GraphQL points/hour, "
        f"{free.points_per_hour('core') / 5:.0f} core requests/hour, "
        f"{len(free.rows) / 5:.0f} requests in the 30 minutes"
    )
    run = run_agents(AgentRunSpec(agents=5, duration_s=1800.0, params=params), seed=1)
    by_command: Counter[str] = Counter()
    for row in run.rows:
        if row.graphqlCost:
            by_command[" ".join(row.args or [])] += row.graphqlCost
    total = sum(by_command.values())
    print("  GraphQL points by command (seed 1):")
    for command, points in by_command.most_common(8):
        print(f"    {100 * points / total:5.1f}%  gh {command}")
    return 0 if abs(mean - EVIDENCE) <= BAND * EVIDENCE else 1


def cell(profile: str) -> int:
    """``simulate --scenario S3 --sessions 5 --agents default --duration 30m``, 10 seeds:
    the spec's figure over the orchestrator's trace, what both traces' headers say the
    bucket lost, and the ledger's bracket."""
    from ghbench.runspec.cells import Cell
    from ghbench.runspec.spec import Duration, RunSpec
    from ghbench.simulation.cell import run_cell
    from ghbench.simulation.simulate import cell_scorecard
    from ghbench.workload.agents.profiles import canonical_agent_profile

    spec = RunSpec(
        backend="simulated",
        cell=Cell("S3", "T1", 5),
        warmup=Duration.of(0.0),
        duration=Duration.of(1800.0),
        agents=canonical_agent_profile(profile),
    )
    figures: dict[str, list[float]] = {"spec": [], "both": [], "bracket": []}
    for seed in SEEDS:
        card = cell_scorecard(run_cell(msgspec.structs.replace(spec, seed=seed)))
        split = card.insights.spend_split
        assert split is not None and split.consumption is not None
        figures["spec"].append(card.scorecard.graphql_points_per_hr)
        figures["both"].append(split.consumption.graphql.per_hr or 0.0)
        figures["bracket"].append(2.0 * (card.scorecard.bracket_delta.graphql or 0))
    print(
        f"S3, 5 sessions with agents ({spec.agent_model}), 30 min,"
        f" seeds {SEEDS.start}-{SEEDS.stop - 1}:"
    )
    inside = True
    for name, values in figures.items():
        within = sum(abs(v - EVIDENCE) <= BAND * EVIDENCE for v in values)
        inside &= within == len(values)
        print(
            f"  {name:8} mean {statistics.mean(values):6.0f}, min {min(values):6.0f},"
            f" max {max(values):6.0f} GraphQL points/hour; within +-25%: {within}/{len(values)}"
        )
    return 0 if inside else 1


VARIATIONS: dict[str, list[object]] = {
    "rewatch": [0.0, 15.0, 30.0, 60.0],
    "status_poll": [2.0, 10.0, 30.0],
    "watch_interval": [5.0, 20.0],
    "ci_duration": [(150.0, 300.0), (600.0, 1200.0)],
    "work": [(60.0, 150.0), (300.0, 600.0)],
    "ci_failure": [0.0, 0.6],
    "review": [0.0, 1.0],
}


def sensitivity(profile: str) -> int:
    from ghbench.workload.agents.profiles import agent_profile

    base = agent_profile(profile)
    seeds = range(1, 6)
    reference = statistics.mean(_rates(base, seeds, demand=True))
    print(f"{profile}: {reference:.0f} GraphQL points/hour demanded (5 agents, seeds 1-5)")
    for name, values in VARIATIONS.items():
        for value in values:
            params = msgspec.structs.replace(base, **{name: value})
            rate = statistics.mean(_rates(params, seeds, demand=True))
            change = 100 * (rate - reference) / reference
            print(f"  {name} = {value}: {rate:.0f} ({change:+.0f}%)")
    return 0


def speed(quick: bool) -> int:
    from ghbench.simulation.agents import AgentRunSpec, run_agents
    from ghbench.simulation.replay import ReplaySpec, replay_trace

    seconds, counts, factors = (600.0, (2, 5), (1, 2)) if quick else (1800.0, (5, 50), (1, 10))
    for agents in counts:
        start = time.perf_counter()
        run = run_agents(AgentRunSpec(agents=agents, duration_s=seconds), seed=1)
        wall = time.perf_counter() - start
        print(
            f"{agents} agents, {seconds / 60:g} virtual min: {wall:.2f} s wall,"
            f" {len(run.rows)} requests"
        )
    recorded = run_agents(AgentRunSpec(agents=10, duration_s=seconds), seed=1).rows
    for factor in factors:
        with tempfile.TemporaryDirectory():
            start = time.perf_counter()
            result = replay_trace(recorded, ReplaySpec(sessions=10 * factor), seed=1)
            wall = time.perf_counter() - start
        print(
            f"replay of {len(recorded)} rows at {factor}x: {wall:.2f} s wall, "
            f"{len(result.every_row)} requests ({len(result.every_row) / wall:.0f}/s)"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--cell", action="store_true")
    parser.add_argument("--sensitivity", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--quick", action="store_true", help="--speed, smaller")
    parser.add_argument("--profile", default="default", help="the agent profile (default)")
    args = parser.parse_args()
    code = 0
    if args.calibrate:
        code |= calibrate(args.profile)
    if args.cell:
        code |= cell(args.profile)
    if args.sensitivity:
        code |= sensitivity(args.profile)
    if args.speed or not (args.calibrate or args.cell or args.sensitivity):
        code |= speed(args.quick)
    return code


if __name__ == "__main__":
    sys.exit(main())
