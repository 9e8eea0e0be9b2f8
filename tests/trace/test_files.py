"""The names of a measurement's trace files and how they pair up."""

from __future__ import annotations

from pathlib import Path

from ghbench.trace.files import agent_trace_path


def test_the_agents_trace_sits_beside_the_orchestrators() -> None:
    bench = Path("out/gh-trace-bench-1796400000.jsonl")
    assert agent_trace_path(bench) == Path("out/gh-trace-agents-1796400000.jsonl")
    assert agent_trace_path(Path("gh-trace-x.jsonl")) == Path("gh-trace-agents-x.jsonl")
