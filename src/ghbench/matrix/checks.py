"""What a real-time cell's window must show once it is over, checked from its trace.

- Calls at all: a window no longer than the poll interval can fall between two polls;
  a cell of zeros would read as a free scenario, not as one never seen
  (``require_calls``).
- A spread (T2) with one orchestrator process per project: every repo polled
  (``unpolled_repos``), or the cell did not measure a spread.
- S6: the window's calls split into dashboard and lifecycle traffic
  (``split_dashboard_traffic``).

Telling dashboard calls from lifecycle calls: the workload model's reader traces as
component ``dashboard``. AO traces its dashboard's calls under the plugins' components
(``tracker-github``, ``scm-github``), so they are told apart by shape (AO reference §1,
§5, §9): AO's poller never runs ``gh issue view`` (only spawn, cleanup and the
dashboard do, and neither spawn nor cleanup happens in an S6 window) nor ``gh pr
checks`` (it reads CI from its batch query and Guard 2; ``ao status``, never run in a
window, is the other caller), and its only ``gh pr view`` asks ``--json state``; a ``gh
pr view`` asking for other fields is the dashboard's enrichment. A limit: the
enrichment's review-thread query is the poller's query too, so those rows count as
lifecycle, and the dashboard's share is a lower bound.

Pure, but for ``trace_rows`` (which reads the trace the checks run over).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.artifacts.models import ScorecardArtifact
from ghbench.errors import GhbenchError
from ghbench.matrix.hygiene import CellTiming
from ghbench.runspec.cells import Cell
from ghbench.timefmt import format_duration, parse_iso
from ghbench.trace.reader import read_rows
from ghbench.trace.schema import TraceRow
from ghbench.workload.calls import DASHBOARD_COMPONENT

__all__ = [
    "TrafficSplit",
    "is_dashboard_row",
    "require_calls",
    "split_dashboard_traffic",
    "trace_rows",
    "unpolled_repos",
]


def trace_rows(path: Path) -> list[TraceRow]:
    """The trace's rows as the scorecard reads them; none when it has none (the checks
    report what the trace lacks)."""
    return read_rows(path, empty_ok=True)


def require_calls(
    cell: Cell, artifact: ScorecardArtifact, timing: CellTiming, *, tick: bool, trace: Path
) -> None:
    """Fail a cell whose scorecard counts no call in its window (``tick``: the
    orchestrator polls at the interval it is told, so a shorter one is a way out)."""
    if artifact.scorecard.total_calls:
        return
    raise GhbenchError(
        f"{cell.id}: the orchestrator made no GitHub call in the"
        f" {format_duration(timing.window_s)} window (it polls every"
        f" {format_duration(timing.poll_s)}), so the cell measured nothing; give a larger"
        f" --duration-scale{' or a shorter --tick' if tick else ''} (the trace is {trace})"
    )


def unpolled_repos(rows: Iterable[TraceRow], repos: Sequence[str]) -> list[str]:
    """The repos no trace row names (in its args or endpoint), in ``repos`` order."""
    # a name must end where the repo ends: ``…-r1`` is not seen in ``…-r10``
    patterns = {repo: re.compile(re.escape(repo) + r"(?![A-Za-z0-9_.-])") for repo in repos}
    seen: set[str] = set()
    for row in rows:
        text = "\0".join([*(row.args or ()), row.endpoint or ""])
        seen.update(repo for repo, pattern in patterns.items() if pattern.search(text))
    return [repo for repo in repos if repo not in seen]


def _json_fields(args: Sequence[str]) -> set[str]:
    for i, arg in enumerate(args[:-1]):
        if arg == "--json":
            return {f.strip() for f in args[i + 1].split(",") if f.strip()}
    return set()


def is_dashboard_row(row: TraceRow) -> bool:
    """Whether a trace row is a dashboard's call (see the module docstring for the rule)."""
    if row.component == DASHBOARD_COMPONENT:
        return True
    if row.operation in ("gh.issue.view", "gh.pr.checks"):
        return True
    if row.operation == "gh.pr.view":
        return row.args is not None and _json_fields(row.args) != {"state"}
    return False


@dataclass(frozen=True)
class TrafficSplit:
    """A window's rows: the dashboard's and the rest (the lifecycle poller's)."""

    dashboard: int
    lifecycle: int
    dashboard_operations: Mapping[str, int] = field(default_factory=dict)

    def note(self) -> str:
        ops = ", ".join(f"{n} {op}" for op, n in sorted(self.dashboard_operations.items()))
        detail = f" ({ops})" if ops else ""
        return (
            f"S6: in the window, {self.dashboard} dashboard calls{detail} and"
            f" {self.lifecycle} lifecycle calls"
        )


def _timestamp_ms(row: TraceRow) -> int | None:
    try:
        return round(parse_iso(row.timestamp) * 1000)
    except ValueError:
        return None


def split_dashboard_traffic(rows: Iterable[TraceRow], start_ms: int, end_ms: int) -> TrafficSplit:
    """Count the rows completed in ``[start_ms, end_ms]`` as dashboard or lifecycle calls.

    Milliseconds, as the scorecard's window is kept, so a row on the window's edge
    counts here exactly when it counts in the scorecard.
    """
    dashboard: Counter[str] = Counter()
    lifecycle = 0
    for row in rows:
        at = _timestamp_ms(row)
        if at is None or not start_ms <= at <= end_ms:
            continue
        if is_dashboard_row(row):
            dashboard[str(row.operation)] += 1
        else:
            lifecycle += 1
    return TrafficSplit(sum(dashboard.values()), lifecycle, dict(dashboard))
