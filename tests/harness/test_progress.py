"""Off a terminal, a long wait prints a line at least every 15 s on stderr: the window's
and the warmup's countdown, a matrix cell's through its log, the wait for PRs between
two polls."""

from __future__ import annotations

import io

from ghbench.harness.progress import EVERY_S, LineProgress, LogProgress


def _ticks(progress: LineProgress | LogProgress, total: float) -> None:
    progress.phase("window", total)
    for second in range(1, int(total) + 1):
        progress.tick(float(second))


def test_the_window_counts_down_every_15_seconds() -> None:
    out = io.StringIO()
    _ticks(LineProgress(out), 60.0)
    assert EVERY_S == 15.0
    assert out.getvalue().splitlines() == [
        "window: 1m 0s",
        "window: 45s left",
        "window: 30s left",
        "window: 15s left",
    ]


def test_a_matrix_cell_counts_down_through_its_log() -> None:
    lines: list[str] = []
    progress = LogProgress(lines.append, "S2-T1-1")
    _ticks(progress, 31.0)
    # the PR wait polls every second on the emulator: one line per 15 s, and the last
    for second in range(0, 40):
        progress.sessions_ready(1 if second < 39 else 2, 2, float(second), 600.0)
    assert lines == [
        "S2-T1-1: window: 31s",
        "S2-T1-1: window: 16s left",
        "S2-T1-1: window: 1s left",
        "S2-T1-1: sessions ready 1/2 (0s)",
        "S2-T1-1: sessions ready 1/2 (15s)",
        "S2-T1-1: sessions ready 1/2 (30s)",
        "S2-T1-1: sessions ready 2/2 (39s)",
    ]
