"""The lab's predictions against the policies run for real (docs/policies.md): the
agents' model recorded with no budget in the way, each policy predicted from that
recording (``policies.offline``) and run in front of the model's gh on the emulator, in
virtual time, at the recorded size and twice it (same seed). Spend per hour, GraphQL /
core, and how far the lab is off on GraphQL.

    python bench/bench_predictions.py                       # 3 agents, 10 minutes
    python bench/bench_predictions.py --agents 4 --window 1800

The reserve runs on a GraphQL budget of 1,000/h so that it acts within a short window;
the others on budgets that refuse nothing. ``tests/policies/test_predictions.py`` holds
none, cache, gate and reserve to 10% at the default settings.
"""

from __future__ import annotations

import argparse

LARGE = (("graphql", 1_000_000), ("core", 1_000_000))
SMALL = (("graphql", 1_000), ("core", 5_000))
POLICIES = (
    ("none", LARGE),
    ("cache", LARGE),
    ("gate:refill=3000", LARGE),
    ("reserve", SMALL),
    ("probe", LARGE),
    ("shim", LARGE),
)


def main() -> None:
    from ghbench.analysis.lab import calls_of
    from ghbench.policies.ledger import TOKEN_LIMITS
    from ghbench.policies.offline import run_offline
    from ghbench.policies.spec import parse_policies
    from ghbench.simulation.agents import AgentRunSpec, run_agents

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=3)
    parser.add_argument("--window", type=float, default=600.0, help="virtual seconds")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    def spec(agents: int, limits: tuple[tuple[str, int], ...], policy: str) -> AgentRunSpec:
        return AgentRunSpec(
            profile="claude-code",
            agents=agents,
            duration_s=args.window,
            limits=limits,
            policies=parse_policies(policy),
        )

    recording = calls_of(run_agents(spec(args.agents, LARGE, "none"), seed=args.seed).rows)
    print("| policy | sessions | model | lab | GraphQL off by |")
    print("|---|---|---|---|---|")
    for policy, limits in POLICIES:
        for sessions in (args.agents, 2 * args.agents):
            real = run_agents(spec(sessions, limits, policy), seed=args.seed)
            budgets = {**TOKEN_LIMITS, **{b: float(n) for b, n in limits}}
            lab = run_offline(
                recording.calls,
                parse_policies(policy),
                budgets,
                weight=sessions / args.agents,
                span_s=recording.span_s,
            )
            model = [real.points_per_hour(b) for b in ("graphql", "core")]
            predicted = [lab.per_hour(b) for b in ("graphql", "core")]
            off = (predicted[0] - model[0]) / model[0] if model[0] else 0.0
            print(
                f"| {policy} | {sessions} | {model[0]:,.0f} / {model[1]:,.0f}"
                f" | {predicted[0]:,.0f} / {predicted[1]:,.0f} | {off:+.1%} |"
            )


if __name__ == "__main__":
    main()
