"""Speed of ``ghbench replay``: a large recorded trace at its own session count and at 10x.

    python bench/bench_replay.py [--agents 79] [--hours 2] [--factor 10] [--parts 2]

The trace is the agent model's (``run_agents``: AGENTS agents, spawned 40 s apart, for
HOURS virtual hours, with buckets large enough never to stop them, so every replayed
request is one GitHub would have answered): 79 agents for 2 hours is 100,830 rows. It is
made once per invocation (its time is printed, not counted), written as a JSONL trace,
read back as ``ghbench replay`` reads it, and replayed in virtual time at the recorded
count and at FACTOR times it (``--parts``: how many run side by side; the default is
what ``replay`` does, two from two copies). Prints wall time and CPU time (this process,
which plans, replays the first part and joins them; and the forked part), requests and
requests per second, for docs/performance.md.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import msgspec

UNLIMITED = (("graphql", 10**9), ("core", 10**9))


def make_trace(path: Path, agents: int, hours: float) -> int:
    from ghbench.simulation.agents import AgentRunSpec, run_agents

    spec = AgentRunSpec(agents=agents, duration_s=hours * 3600.0, stagger_s=40.0, limits=UNLIMITED)
    rows = run_agents(spec, seed=1).rows
    encoder = msgspec.json.Encoder()
    path.write_bytes(b"".join(encoder.encode(r) + b"\n" for r in rows))
    return len(rows)


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process and of its (forked, finished) parts."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def replay(path: Path, factor: int, parts: int | None) -> None:
    from ghbench.simulation.replay import ReplaySpec, load_recording, replay_plan
    from ghbench.workload.replay import plan_replay, recorded_session_count

    start, cpu = time.perf_counter(), _cpu()
    rows, _ = load_recording(path)
    plan = plan_replay(rows)
    sessions = factor * recorded_session_count(plan)
    result = replay_plan(rows, plan, ReplaySpec(sessions=sessions, workers=parts), seed=1)
    wall, now = time.perf_counter() - start, _cpu()
    own, forked = now[0] - cpu[0], now[1] - cpu[1]
    requests = len(result.rows) + len(result.agent_rows or ())
    ratio = {k: round(v, 3) for k, v in result.summary().ratio.items()}
    split = ReplaySpec(workers=parts).parts(factor)
    print(
        f"| {len(rows):,} rows at {factor}x ({sessions} sessions, {split} part(s)) | {wall:.1f} s"
        f" | {own:.1f} s + {forked:.1f} s | {requests:,} | {requests / wall:,.0f}/s | {ratio} |",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=79)
    parser.add_argument("--hours", type=float, default=2.0)
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--parts", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ghbench-replay-") as tmp:
        trace = Path(tmp) / "agents-trace.jsonl"
        made = time.perf_counter()
        count = make_trace(trace, args.agents, args.hours)
        print(f"trace: {count:,} rows ({args.agents} agents, {args.hours:g} h), made in"
              f" {time.perf_counter() - made:.1f} s")  # fmt: skip
        print(
            "| replay | wall | CPU: this process + its part | requests | rate | replayed/recorded |"
        )
        print("|---|--:|--:|--:|--:|---|")
        for factor in (1, args.factor):
            replay(trace, factor, args.parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
