"""The names of the trace files a measurement leaves, and how they pair up.

The orchestrator's trace is ``gh-trace-bench-{stamp}.jsonl``. The agents' own gh calls
(traced by ghbench's record shim, one ``sessionId`` per agent) go beside it in
``gh-trace-agents-{stamp}.jsonl``; a setup's in ``gh-trace-agents-setup-…``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["agent_trace_path"]

ORCHESTRATOR_PREFIX = "gh-trace-bench-"
AGENT_PREFIX = "gh-trace-agents-"


def agent_trace_path(orchestrator_trace: Path) -> Path:
    """The agents' trace beside an orchestrator trace (``gh-trace-agents-{stamp}.jsonl``)."""
    name = orchestrator_trace.name
    stem = name.removeprefix(ORCHESTRATOR_PREFIX).removeprefix("gh-trace-")
    return orchestrator_trace.with_name(f"{AGENT_PREFIX}{stem}")
