"""The environment a driver gives the orchestrator it starts."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

__all__ = ["TRACE_VARS", "orchestrator_env"]

# AO's tracer variables: setup must not trace, so they are removed unless set on purpose.
TRACE_VARS = ("AO_GH_TRACE_FILE", "AO_AGENT_GH_TRACE")


def orchestrator_env(
    base: Mapping[str, str], extra: Mapping[str, str], trace_path: Path | None
) -> dict[str, str]:
    """``base`` + ``extra``, with AO's trace variable set to ``trace_path`` or removed."""
    env = {k: v for k, v in base.items() if k not in TRACE_VARS}
    env.update(extra)
    if trace_path is not None:
        env["AO_GH_TRACE_FILE"] = str(trace_path)
    return env
