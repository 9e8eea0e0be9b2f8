"""The HTML pages: how long each takes to render and how large it is.

    python bench/bench_pages.py [--rows 1000000] [--repeat 5]

- scorecard: a simulated spawn storm of 25 sessions with their agents (S3-T1-25,
  ``--agents claude-code``, 2 min + 10 min): the page from the run's rows, burn points
  included;
- report: the page ``ghbench report`` adds for a ``bench/gen_trace.py`` trace of
  ``--rows`` rows (made once under bench/out): the burn points of the frame as the
  report reads it, then the page; the read itself is timed apart, with and without the
  two columns the page adds;
- compare, capacity, matrix: the pages of tests/golden's compare fixtures (four runs a
  side), capacity answer and matrix baseline.

Each render is timed in this process, the median of ``--repeat``; sizes are the
pages' characters (ASCII but for a few symbols: about their bytes).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = ROOT / "tests" / "golden"
FIXTURES = ROOT / "tests" / "analysis" / "fixtures" / "compare"


def _timed(make: Callable[[], T], repeat: int) -> tuple[float, T]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = make()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def _trace(rows: int) -> Path:
    path = HERE / "out" / f"trace-{rows}.jsonl"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        generate = [sys.executable, str(HERE / "gen_trace.py"), str(path), "--rows", str(rows)]
        subprocess.run(generate, check=True)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from ghbench.analysis.compare_render import comparison_report
    from ghbench.analysis.load import load_scorecards
    from ghbench.pages.burn import BURN_COLUMNS, burn_points
    from ghbench.pages.capacity_page import capacity_page
    from ghbench.pages.compare_page import compare_page
    from ghbench.pages.matrix_page import matrix_page
    from ghbench.pages.scorecard_page import scorecard_page, scorecard_report
    from ghbench.runspec.cells import Cell
    from ghbench.runspec.spec import Duration, RunSpec
    from ghbench.scorecard import SCORECARD_COLUMNS, build_scorecard_artifact
    from ghbench.simulation.cell import run_cell
    from ghbench.simulation.simulate import cell_scorecard, run_frames
    from ghbench.trace.reader import read_trace

    rows: list[tuple[str, float, int]] = []
    spec = RunSpec(
        backend="simulated",
        cell=Cell("S3", "T1", 25),
        warmup=Duration(120.0, "2m"),
        duration=Duration(600.0, "10m"),
        agents="claude-code",
    )
    run = run_cell(spec)
    frames = run_frames(run)
    card = cell_scorecard(run, frames=frames)
    snaps = [run.snapshots.get("before"), run.snapshots.get("after")]
    took, page = _timed(
        lambda: scorecard_report(card, frames[0], snapshots=snaps, agents=frames[1]), args.repeat
    )
    traced = len(run.rows) + len(run.agent_rows or [])
    rows.append((f"scorecard: S3-T1-25 with agents ({traced:,} rows)", took, len(page)))

    trace = _trace(args.rows)
    base, _ = _timed(lambda: read_trace(trace, columns=SCORECARD_COLUMNS), args.repeat)
    more, frame = _timed(
        lambda: read_trace(trace, columns=(*SCORECARD_COLUMNS, *BURN_COLUMNS)), args.repeat
    )
    start_ms, end_ms = int(frame.ts_ms.min()), int(frame.ts_ms.max())
    artifact = build_scorecard_artifact(
        frame,
        window_start_ms=start_ms,
        window_end_ms=end_ms,
        scenario_id="trace",
        measured_at=end_ms / 1000,
    )
    took, page = _timed(lambda: scorecard_page(artifact, burn_points(frame)), args.repeat)
    rows.append((f"report: {args.rows:,}-row trace (burn points + page)", took, len(page)))
    print(
        f"report's read of the {args.rows:,} rows: {base:.2f} s with the scorecard's columns,"
        f" {more:.2f} s with the page's two more",
        file=sys.stderr,
    )

    compared = comparison_report(
        load_scorecards(FIXTURES / "base", "baseline"),
        load_scorecards(FIXTURES / "cand", "candidate"),
        [],
    )
    doc = json.loads(compared.texts["json"])
    took, page = _timed(lambda: compare_page(doc), args.repeat)
    rows.append(("compare: four runs a side", took, len(page)))
    cap = json.loads((GOLDEN / "capacity.json").read_text())
    took, page = _timed(lambda: capacity_page(cap), args.repeat)
    rows.append(("capacity: tests/golden/capacity.json", took, len(page)))
    baseline = json.loads((GOLDEN / "matrix-baseline.json").read_text())
    took, page = _timed(lambda: matrix_page(baseline), args.repeat)
    rows.append(("matrix: tests/golden/matrix-baseline.json", took, len(page)))

    print("| page | render (median) | size |")
    print("|---|---:|---:|")
    for name, seconds, size in rows:
        print(f"| {name} | {seconds * 1000:,.1f} ms | {size / 1024:,.1f} KiB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
