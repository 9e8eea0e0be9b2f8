"""Time ``summarize`` and ``analyze`` on a large trace (target: ≤ 0.6 s each on 1,000,000 rows).

    .venv/bin/python bench/bench_analysis.py [TRACE] [--repeat 3]

TRACE defaults to bench/out/trace-1000000.jsonl (the same as bench_report.py), made by
bench/gen_trace.py when missing. Reading the trace (analyze's projection) is timed apart
from the analyses, and both commands are timed end to end as a user runs them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _best(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trace", nargs="?", type=Path, default=HERE / "out" / "trace-1000000.jsonl")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not args.trace.exists():
        subprocess.run(
            [sys.executable, str(HERE / "gen_trace.py"), str(args.trace), "--rows", "1000000"],
            check=True,
        )
    from ghbench.analysis.analyze import ANALYSIS_COLUMNS, analyze
    from ghbench.analysis.load import load_trace
    from ghbench.analysis.summarize import summarize
    from ghbench.analysis.text import analysis_lines, summary_lines

    t = time.perf_counter()
    frame = load_trace(args.trace, ANALYSIS_COLUMNS)
    read_s = time.perf_counter() - t
    print(f"rows {len(frame):,}; read {read_s:.3f} s")
    s = _best(lambda: summary_lines(summarize(frame)), args.repeat)
    a = _best(lambda: analysis_lines(analyze(frame)), args.repeat)
    print(f"summarize (compute + text) {s:.3f} s, best of {args.repeat}")
    print(f"analyze   (compute + text) {a:.3f} s, best of {args.repeat}")
    for name in ("summarize", "analyze"):
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "ghbench", name, str(args.trace)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        print(f"ghbench {name} end to end {time.perf_counter() - t:.3f} s")


if __name__ == "__main__":
    main()
