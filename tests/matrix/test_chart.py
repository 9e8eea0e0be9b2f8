"""The matrix's scaling chart: a PNG of the size asked, whose pixels are the same for
the same figures (the one plotting setup leaves no date or version in it), that draws
only the runs with a figure."""

from __future__ import annotations

import struct

from ghbench.artifacts.models import Scorecard
from ghbench.matrix.chart import scaling_chart_png
from ghbench.matrix.runs import MatrixRun
from ghbench.runspec.cells import Cell


def _run(cell: Cell, scorecard: Scorecard | None) -> MatrixRun:
    return MatrixRun(
        cell=cell.id,
        status="ok",
        backend="simulated",
        driver="workload",
        operator="t",
        matrix_run="m1",
        started_at="2026-05-01T10:00:00Z",
        ended_at="2026-05-01T10:05:00Z",
        sessions=cell.sessions,
        scorecard=scorecard,
    )


def _card(points: float, core: float) -> Scorecard:
    return Scorecard(graphql_points_per_hr=points, rest_core_requests_per_hr=core)


def test_an_empty_matrix_is_a_chart_with_the_budget_and_runs_without_figures_add_nothing() -> None:
    empty = scaling_chart_png({})
    assert empty[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", empty[16:24]) == (1100, 480)  # 11 x 4.8 in at 100 dpi
    no_figures = {
        Cell("S2", "T1", 1): _run(Cell("S2", "T1", 1), None),
        Cell("S2", "T1", 5): _run(Cell("S2", "T1", 5), Scorecard()),
    }
    assert scaling_chart_png(no_figures) == empty


def test_the_lines_are_drawn_from_the_runs_figures() -> None:
    cells = [Cell("S2", "T1", 1), Cell("S2", "T1", 5), Cell("S4", "T2", 10)]
    cards = [_card(300, 90), _card(1500, 400), _card(6000, 2000)]
    runs = {c: _run(c, card) for c, card in zip(cells, cards, strict=True)}
    chart = scaling_chart_png(runs)
    moved = {**runs, cells[1]: _run(cells[1], _card(1600, 400))}
    assert scaling_chart_png(moved) != chart
