"""Peak memory of the commands that bucket a trace by time, by rows and by time span.

    python bench/bench_memory.py [--rows 1000000]

Two traces: the generated one (bench/gen_trace.py, made once under bench/out/) and
two rows 9,998 years apart (0001-01-01 and 9999-12-31). ``ghbench analyze``,
``summarize`` and ``report`` run on each as a user runs them, one subprocess per
measurement; its peak RSS comes from os.wait4 and its wall time from the clock
around it. Memory should follow the rows: the two-row trace costs what an
interpreter with the libraries costs, whatever the span. Run it sparingly: the
machine is shared.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tooling/

from tooling.traces import SPAN_ROWS  # noqa: E402

GHBENCH = str(Path(sys.executable).with_name("ghbench"))
COMMANDS = {
    "analyze": ["analyze"],
    "summarize": ["summarize"],
    "report": ["report", "--trace"],
}


def _measure(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, peak RSS MiB, exit code) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    args = ap.parse_args()
    big = HERE / "out" / f"trace-{args.rows}.jsonl"
    if not big.exists():
        big.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, str(HERE / "gen_trace.py"), str(big), "--rows", str(args.rows)],
            check=True,
        )
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        work = Path(tmp)
        span = work / "span-9998-years.jsonl"
        span.write_bytes(SPAN_ROWS)
        print(f"{'trace':<28} {'command':<10} {'wall s':>7} {'peak RSS MiB':>13} exit")
        for trace, label in ((big, f"{args.rows:,} rows"), (span, "2 rows, 9,998 years")):
            for name, argv in COMMANDS.items():
                wall, rss, code = _measure([GHBENCH, *argv, str(trace)], work)
                print(f"{label:<28} {name:<10} {wall:>7.2f} {rss:>13.0f} {code}")


if __name__ == "__main__":
    main()
