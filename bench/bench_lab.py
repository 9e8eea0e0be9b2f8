"""The budget lab's speed: the full table (every policy and combination) for a trace of
ROWS rows, wall time and CPU time, with the load average (docs/performance.md).

    python bench/bench_lab.py                # 100,000 rows
    python bench/bench_lab.py --quick        # 10,000 rows: make bench

The trace is the agents' model's own (8 agents, 30 virtual minutes, no budget in the
way), its sessions copied under new ids until it has ROWS rows: a fleet of that many
agents' gh calls, as ``gh-trace-agents-*`` holds them.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import msgspec


def _trace(rows: int, path: Path) -> int:
    from ghbench.simulation.agents import AgentRunSpec, run_agents
    from ghbench.trace.files import write_rows

    run = run_agents(
        AgentRunSpec(agents=8, duration_s=1800.0, limits=(("graphql", 10**9), ("core", 10**9))),
        seed=1,
    )
    out = []
    copy = 0
    while len(out) < rows:
        for row in run.rows:
            if len(out) == rows:
                break
            out.append(
                msgspec.structs.replace(
                    row,
                    sessionId=f"{row.sessionId}-c{copy}",
                    invocationId=f"{row.invocationId}-c{copy}",
                )
            )
        copy += 1
    write_rows(path, out)
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="10,000 rows")
    args = parser.parse_args()
    rows = 10_000 if args.quick else args.rows
    from ghbench.harness.lab import run_lab

    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "gh-trace-agents-bench.jsonl"
        copies = _trace(rows, trace)
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        result = run_lab(trace, policies="all", sessions=None, out_dir=Path(tmp) / "out")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    table = result.table
    print(
        f"lab: {rows:,} rows ({copies} copies of 8 agents, {table.recorded_sessions} sessions),"
        f" {len(table.table)} choices of policies: {wall:.1f} s wall, {cpu:.1f} s CPU"
        f" (load average {load:.2f} on {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
