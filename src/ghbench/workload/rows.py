"""One AO-compatible trace row per gh invocation, the same for every transport."""

from __future__ import annotations

from dataclasses import dataclass

from ghbench.trace.schema import TraceRow
from ghbench.workload.calls import GhCall, GhResult

__all__ = ["RowOptions", "row_for"]


@dataclass(frozen=True)
class RowOptions:
    """What the model adds to AO's fields: attribution (off by default, as AO) and origin."""

    session_ids: bool = False
    project_id: str | None = None
    origin: str | None = "workload"


def row_for(
    call: GhCall, result: GhResult, *, completed_at: float, options: RowOptions
) -> TraceRow:
    """The row AO's ``execGhObserved`` would write for this call and output."""
    from ghbench.trace.writer import build_row

    row = build_row(
        list(call.argv),
        exit_code=result.exit_code,
        stdout=result.stdout,
        stderr=result.stderr,
        duration_ms=result.duration_s * 1000.0,
        completed_at=completed_at,
        component=call.component,
        operation=call.operation,
        signal=result.signal,
    )
    extra: dict[str, str] = {}
    if options.session_ids and call.session_id:
        extra["sessionId"] = call.session_id
        if options.project_id:
            extra["projectId"] = options.project_id
    if options.origin:
        extra["origin"] = options.origin
    if not extra:
        return row
    import msgspec

    return msgspec.structs.replace(row, **extra)
