from __future__ import annotations

import math

from ghbench.matrix.pruning import prune
from ghbench.runspec.cells import Cell


def _linear(n: int, per: float = 10.0, p50: float = 800.0) -> dict[str, float | None]:
    return {"totalCalls": per * n, "graphqlPointsPerHr": 2.0 * n, "p50DurationMs": p50}


def test_linear_scaling_prunes_inner_cells_only() -> None:
    metrics = {Cell("S5", "T1", n): _linear(n) for n in (1, 5, 10, 25)}
    decisions = {d.cell.id: d for d in prune(metrics)}
    assert not decisions["S5-T1-5"].keep and not decisions["S5-T1-10"].keep
    assert "within 15%" in decisions["S5-T1-5"].reason
    # the end points are pruned too: both of their neighbours scale linearly
    assert not decisions["S5-T1-1"].keep


def test_a_change_over_15_percent_keeps_both_neighbours() -> None:
    metrics = {Cell("S5", "T1", n): _linear(n) for n in (1, 5, 10)}
    metrics[Cell("S5", "T1", 10)] = _linear(10, p50=1000.0)  # +25% latency
    decisions = {d.cell.id: d for d in prune(metrics)}
    assert decisions["S5-T1-10"].keep and decisions["S5-T1-5"].keep
    assert not decisions["S5-T1-1"].keep
    assert "p50DurationMs" in decisions["S5-T1-10"].reason


def test_exactly_15_percent_is_not_meaningful() -> None:
    metrics = {
        Cell("S5", "T1", 1): {"p50DurationMs": 100.0},
        Cell("S5", "T1", 5): {"p50DurationMs": 115.0},
    }
    assert not any(d.keep for d in prune(metrics))


def test_zero_to_nonzero_is_a_change_and_priority_cells_stay() -> None:
    metrics = {
        Cell("S2", "T1", 1): {"guardPrListErrorCount": 0.0},
        Cell("S2", "T1", 5): {"guardPrListErrorCount": 0.0},
        Cell("S6", "T1", 5): {"guardPrListErrorCount": 0.0},
        Cell("S6", "T1", 10): {"guardPrListErrorCount": 1.0},
    }
    decisions = {d.cell.id: d for d in prune(metrics)}
    assert decisions["S2-T1-1"].keep and decisions["S2-T1-1"].reason == "runbook priority cell"
    assert decisions["S6-T1-10"].keep
    assert math.isinf(decisions["S6-T1-10"].changes[0].change)


def test_lonely_cell_is_kept() -> None:
    (d,) = prune({Cell("S3", "T2", 10): _linear(10)})
    assert d.keep and "no adjacent" in d.reason
