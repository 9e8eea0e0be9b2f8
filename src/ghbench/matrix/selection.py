"""Which cells a ``matrix`` command works on: the scales, every cell, the priority ones,
and their run order (the runbook's priority cells first). Pure; the cells themselves
are ``ghbench.runspec.cells``'s table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ghbench.errors import UsageError
from ghbench.runspec.cells import DEFAULT_SCALES, SCENARIOS, TOPOLOGIES, Cell, valid_cell

__all__ = [
    "MAX_SCALE",
    "all_cells",
    "choose_cells",
    "order_cells",
    "parse_cell",
    "parse_scales",
    "select_cells",
]

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
        if valid_cell(t, n)
    ]
    return order_cells(cells)


def order_cells(cells: Iterable[Cell]) -> list[Cell]:
    """Priority cells first in the runbook's order, then scenario, topology, scale."""

    def key(c: Cell) -> tuple[int, int, Cell]:
        p = c.priority
        return (0, p, c) if p is not None else (1, 0, c)

    return sorted(set(cells), key=key)


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


def choose_cells(
    ids: Sequence[str], *, priority: bool, everything: bool, scales: str | None
) -> list[Cell]:
    """The cells ``--cells``, ``--priority``, ``--all`` and ``--scales`` select (see
    ``select_cells``); ``--priority`` and ``--all`` are two different selections."""
    if priority and everything:
        raise UsageError("--priority and --all select different cells; give one of them")
    return select_cells(ids, priority=priority, everything=everything, scales=parse_scales(scales))
