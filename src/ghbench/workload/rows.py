"""One AO-compatible trace row per gh invocation, the same for every transport."""

from __future__ import annotations

from dataclasses import dataclass

from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import build_row
from ghbench.workload.calls import GhCall, GhResult

__all__ = ["RowSettings", "row_for"]


@dataclass(frozen=True)
class RowSettings:
    """What the model adds to AO's fields: attribution (off by default, as AO) and origin."""

    session_ids: bool = False
    project_id: str | None = None
    origin: str | None = "workload"
    secrets: tuple[str, ...] = ()


def row_for(
    call: GhCall, result: GhResult, *, completed_at: float, options: RowSettings
) -> TraceRow:
    """The row AO's ``execGhObserved`` would write for this call and output."""
    attribute = options.session_ids and call.session_id is not None
    return build_row(
        args=call.argv,
        started_at=completed_at - result.duration_s,
        finished_at=completed_at,
        exit_code=result.exit_code,
        signal=result.signal,
        stdout=result.stdout,
        stderr=result.stderr,
        component=call.component,
        operation=call.operation,
        project_id=options.project_id if attribute else None,
        session_id=call.session_id if attribute else None,
        origin=options.origin,
        secrets=options.secrets,
    )
