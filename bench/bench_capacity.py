"""Speed of ``ghbench capacity``: the default search for every scenario and topology.

    python bench/bench_capacity.py [--profiles ao-0.12.6,ao-0.10.3,head,pre-b1] [--fraction 0.8]
        [--scenarios S1,...,S6] [--topologies T1,T2] [--agents default] [--max-sessions N]
        [--probe 50]

Each search is the real command in its own process (``--no-plot --json``), with the
runbook's warmup and window for the scenario, so a row's wall time is what a user waits
for, imports included. Prints a Markdown table for docs/performance.md: the answer,
the budget that binds, the counts tried and the wall time; then, for the first profile,
docs/matrix.md's "Sessions that fit" table (``tests/matrix/test_fits.py`` holds that
table to ``capacity``'s answers). With ``--agents`` (S3 and S4
only: the other scenarios have no running agents) the sessions' agents run in every
count tried. ``--probe N`` also times one count the search may run at its largest: the
cell at N sessions with its agents (``ghbench simulate``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from typing import Any


def search(
    scenario: str, topology: str, profile: str, *, fraction: float, agents: str, maximum: int
) -> tuple[Any, float]:
    argv = [sys.executable, "-m", "ghbench", "capacity", "--scenario", scenario]
    argv += ["--topology", topology, "--profile", profile, "--budget-fraction", str(fraction)]
    argv += ["--agents", agents, "--max-sessions", str(maximum)]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        proc = subprocess.run(
            [*argv, "--no-plot", "--json", "--out", out], capture_output=True, text=True
        )
        wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr}")
    return json.loads(proc.stdout), wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", default="ao-0.12.6,ao-0.10.3,head,pre-b1")
    parser.add_argument("--fraction", type=float, default=0.8)
    parser.add_argument("--scenarios", default="S1,S2,S3,S4,S5,S6")
    parser.add_argument("--topologies", default="T1,T2")
    parser.add_argument("--agents", default="none")
    parser.add_argument("--max-sessions", type=int, default=1000)
    parser.add_argument("--probe", type=int, default=None)
    args = parser.parse_args()
    print("| profile | cell | sessions | binds first | counts tried | wall |")
    print("|---|---|--:|---|---|--:|")
    walls = []
    answers: dict[tuple[str, str, str], Any] = {}
    first = args.profiles.split(",")[0]
    for profile in args.profiles.split(","):
        for scenario in args.scenarios.split(","):
            for topology in args.topologies.split(","):
                answer, wall = search(
                    scenario,
                    topology,
                    profile,
                    fraction=args.fraction,
                    agents=args.agents,
                    maximum=args.max_sessions,
                )
                walls.append(wall)
                answers[(profile, scenario, topology)] = answer
                tried = ", ".join(str(p["sessions"]) for p in answer["tried"])
                print(
                    f"| {profile} | {scenario}-{topology} | {answer['sessions']}"
                    f" | {answer['limitingResource']} | {tried} | {wall:.1f} s |",
                    flush=True,
                )
    print(
        f"\n{len(walls)} searches: median {sorted(walls)[len(walls) // 2]:.1f} s,"
        f" longest {max(walls):.1f} s"
    )
    print("\n  | Scenario | Topology | Sessions that fit | Binds first |")
    print("  |---|---|---:|---|")
    for (profile, scenario, topology), answer in answers.items():
        if profile == first:
            print(
                f"  | {scenario} | {topology} | {answer['sessions']}"
                f" | {answer['limitingResource']} |"
            )
    if args.probe:
        for scenario in args.scenarios.split(","):
            probe(scenario, args.probe, args.agents)
    return 0


def probe(scenario: str, sessions: int, agents: str) -> None:
    """One count of the search, the most it could be asked: ``simulate`` of the cell."""
    argv = [sys.executable, "-m", "ghbench", "simulate", "--scenario", scenario]
    argv += ["--sessions", str(sessions), "--agents", agents, "--json"]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        proc = subprocess.run([*argv, "--out", out], capture_output=True, text=True)
        wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr}")
    print(f"one count: {scenario} at {sessions} sessions, agents {agents}: {wall:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
