"""The A2 matrix: scenarios x topologies x scales, cell ids, order and selection.

Pure data and pure functions, straight from the runbook (``a2-baseline-runbook``):
six scenarios, two topologies, five scales, T2 needing at least two sessions, and the
seven priority cells that run first. A cell id is ``{scenario}-{topology}-{scale}``,
e.g. ``S2-T1-50``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ghbench.errors import UsageError

__all__ = [
    "DEFAULT_SCALES",
    "PRIORITY",
    "SCENARIOS",
    "TOPOLOGIES",
    "Cell",
    "ScenarioInfo",
    "all_cells",
    "cell_from_id",
    "order_cells",
    "parse_cell",
    "parse_scales",
    "select_cells",
]

DEFAULT_SCALES: tuple[int, ...] = (1, 5, 10, 25, 50)


@dataclass(frozen=True)
class ScenarioInfo:
    """One runbook scenario: how it is triggered, how long it is watched, what it shows."""

    id: str
    title: str  # as in the runbook's section headings
    trigger: str
    warmup_s: float  # before the measurement window (sessions reach working/pr_open)
    duration_s: float  # the runbook's measurement duration
    key_signal: str
    tells: str  # "what this cell tells us", before the scale/topology clause


SCENARIOS: dict[str, ScenarioInfo] = {
    s.id: s
    for s in (
        ScenarioInfo(
            "S1",
            "Cold start",
            "ao stop, clear caches, ao start",
            120.0,
            300.0,
            "burst shape in the first 60 s, cache-miss count",
            "How hard the cache-miss storm of a cold start hits",
        ),
        ScenarioInfo(
            "S2",
            "Quiet steady state",
            "sessions idle after reaching working",
            120.0,
            900.0,
            "polling floor per session (calls/cycle)",
            "The per-session polling floor",
        ),
        ScenarioInfo(
            "S3",
            "Spawn storm",
            "ao batch-spawn issue1 … issueN at t0",
            0.0,
            600.0,
            "peak concurrency, burst shape, spawning-phase cost",
            "The burst shape and cost of spawning every session at once",
        ),
        ScenarioInfo(
            "S4",
            "Review backlog burst",
            "5-10 review comments on M PRs at once",
            120.0,
            600.0,
            "reaction-path burst, review-comment API cost",
            "What the reaction path costs when review comments pile up",
        ),
        ScenarioInfo(
            "S5",
            "Cache miss and restart",
            "kill and restart the orchestrator mid-run",
            120.0,
            600.0,
            "recovery cost, re-fetch storm shape",
            "The recovery cost of losing every in-process cache and ETag",
        ),
        ScenarioInfo(
            "S6",
            "Dashboard enrichment",
            "dashboard open, sessions clicked through",
            120.0,
            600.0,
            "dashboard-attributed calls, separation from lifecycle traffic",
            "What a dashboard reader adds on top of lifecycle polling",
        ),
    )
}

# id -> (name used in headings, runbook config line)
TOPOLOGIES: dict[str, tuple[str, str]] = {
    "T1": ("concentrated", "all N sessions on 1 repo"),
    "T2": ("spread", "N sessions across N/5 repos (min 2)"),
}

# The runbook's "run first" cells, in its order.
PRIORITY: tuple[str, ...] = (
    "S2-T1-1",
    "S2-T1-5",
    "S2-T1-50",
    "S2-T2-50",
    "S1-T1-50",
    "S3-T1-25",
    "S4-T1-10",
)


@dataclass(frozen=True, order=True)
class Cell:
    scenario: str
    topology: str
    scale: int

    @property
    def id(self) -> str:
        return f"{self.scenario}-{self.topology}-{self.scale}"

    @property
    def info(self) -> ScenarioInfo:
        return SCENARIOS[self.scenario]

    @property
    def repo_count(self) -> int:
        """T1: one repo; T2: N/5 repos, at least 2."""
        return 1 if self.topology == "T1" else max(2, math.ceil(self.scale / 5))

    @property
    def needs_attribution(self) -> bool:
        """Per-session claims need ``sessionId`` in rows (the runbook's blocker 5);
        a single session is attributed by construction."""
        return self.scale > 1

    @property
    def priority(self) -> int | None:
        """Position among the runbook's priority cells, or None."""
        return PRIORITY.index(self.id) if self.id in PRIORITY else None

    @property
    def title(self) -> str:
        topo = TOPOLOGIES[self.topology][0]
        noun = "session" if self.scale == 1 else "sessions"
        return f"{self.info.title}, {topo}, {self.scale} {noun}"

    @property
    def tells(self) -> str:
        """The one-line "what this cell tells us"."""
        where = (
            "on one repo"
            if self.topology == "T1"
            else f"spread over {self.repo_count} repos (detectPR and guard fan-out)"
        )
        noun = "session" if self.scale == 1 else "sessions"
        return f"{self.info.tells}, at {self.scale} {noun} {where}."

    @property
    def runtime_s(self) -> float:
        return self.info.warmup_s + self.info.duration_s


def _valid(topology: str, scale: int) -> bool:
    # "Concentrated only (can't spread 1 session)."
    return scale >= 1 and not (topology == "T2" and scale < 2)


MAX_SCALE = 10_000  # sessions in one cell


def parse_scales(text: str | Sequence[int] | None) -> tuple[int, ...]:
    """``1,5,10,25,50`` (the default when None) to sorted distinct positive ints."""
    if text is None:
        return DEFAULT_SCALES
    items: Iterable[object] = text.split(",") if isinstance(text, str) else text
    out: set[int] = set()
    for item in items:
        try:
            value = int(str(item).strip())
        except ValueError:
            raise UsageError(
                f"--scales: {item!r} is not a number; use a list like 1,5,10,25,50"
            ) from None
        if not 1 <= value <= MAX_SCALE:
            raise UsageError(
                f"--scales: {value} is not a session count; use numbers from 1 to {MAX_SCALE:,}"
            )
        out.add(value)
    if not out:
        raise UsageError("--scales is empty; use a list like 1,5,10,25,50")
    return tuple(sorted(out))


def all_cells(scales: Sequence[int] = DEFAULT_SCALES) -> list[Cell]:
    """Every valid cell for these scales, in matrix order (see ``order_cells``)."""
    cells = [
        Cell(s, t, n)
        for s in SCENARIOS
        for t in TOPOLOGIES
        for n in sorted(set(scales))
        if _valid(t, n)
    ]
    return order_cells(cells)


def order_cells(cells: Iterable[Cell]) -> list[Cell]:
    """Priority cells first in the runbook's order, then scenario, topology, scale."""

    def key(c: Cell) -> tuple[int, int, Cell]:
        p = c.priority
        return (0, p, c) if p is not None else (1, 0, c)

    return sorted(set(cells), key=key)


_CELL_ID = re.compile(r"^(S[1-6])-(T[12])-([1-9][0-9]*)$")


def cell_from_id(text: str) -> Cell | None:
    """The cell an id names, at any scale; None when it is not a valid cell id."""
    m = _CELL_ID.match(text.strip().upper())
    if m is None or not _valid(m.group(2), int(m.group(3))):
        return None
    return Cell(m.group(1), m.group(2), int(m.group(3)))


def parse_cell(text: str, valid: Sequence[Cell]) -> Cell:
    """A cell id such as ``S2-T1-50`` (case-insensitive) among ``valid``."""
    wanted = text.strip().upper()
    for c in valid:
        if c.id == wanted:
            return c
    listing = ", ".join(c.id for c in sorted(valid))
    raise UsageError(f"--cells: unknown cell {text!r}; valid cells are: {listing}")


def select_cells(
    ids: Sequence[str] = (),
    *,
    priority: bool = False,
    everything: bool = False,
    scales: Sequence[int] = DEFAULT_SCALES,
) -> list[Cell]:
    """The cells a ``matrix`` command works on, in run order.

    ``ids`` (comma-separated items allowed), ``priority`` and ``everything`` combine;
    with none of them, every cell. Ids are checked against the matrix for ``scales``.
    """
    valid = all_cells(scales)
    chosen: list[Cell] = []
    for item in ids:
        chosen += [parse_cell(part, valid) for part in item.split(",") if part.strip()]
    if priority:
        chosen += [c for c in valid if c.priority is not None]
    if everything or (not ids and not priority):
        chosen += valid
    return order_cells(chosen)
