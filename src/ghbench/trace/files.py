"""The names of the trace files a measurement leaves, and how they pair up; a trace
written whole (``write_rows``: a simulation's, a replay's).

The orchestrator's trace is ``gh-trace-bench-{stamp}.jsonl``. The agents' own gh calls
(traced by ghbench's record shim, one ``sessionId`` per agent) go beside it in
``gh-trace-agents-{stamp}.jsonl``; a setup's in ``gh-trace-agents-setup-…``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import msgspec

from ghbench.artifacts.io import write_new
from ghbench.trace.schema import TraceRow

__all__ = ["agent_trace_path", "agents_beside", "write_rows"]

ORCHESTRATOR_PREFIX = "gh-trace-bench-"
AGENT_PREFIX = "gh-trace-agents-"


def agent_trace_path(orchestrator_trace: Path) -> Path:
    """The agents' trace beside an orchestrator trace (``gh-trace-agents-{stamp}.jsonl``)."""
    name = orchestrator_trace.name
    stem = name.removeprefix(ORCHESTRATOR_PREFIX).removeprefix("gh-trace-")
    return orchestrator_trace.with_name(f"{AGENT_PREFIX}{stem}")


def agents_beside(trace: Path) -> Path | None:
    """The agents' trace a run left beside ``trace`` (``gh-trace-agents-*``), if it
    traced any agent call."""
    path = agent_trace_path(trace)
    if path == trace or not path.is_file() or path.stat().st_size == 0:
        return None
    return path


def write_rows(path: Path, rows: Iterable[TraceRow]) -> Path:
    """``rows`` as a new trace at ``path``, one JSON object a line (never overwrites)."""
    encoder = msgspec.json.Encoder()
    return write_new(path, b"".join(encoder.encode(row) + b"\n" for row in rows))
