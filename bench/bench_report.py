"""Time the trace reader and ``ghbench report`` on a large generated AO trace.

    python bench/bench_report.py [--rows 1000000] [--repeat 3]

Generates ``bench/out/trace-{rows}.jsonl`` once (bench/gen_trace.py), then runs each
measurement in its own subprocess and reports the best wall time and the peak RSS of
that subprocess (os.wait4). Run it sparingly: the machine is shared.
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
ROOT = HERE.parent
PYTHON = sys.executable
GHBENCH = str(Path(PYTHON).with_name("ghbench"))

READ_SNIPPET = (
    "import sys; from ghbench.trace.reader import read_trace; "
    "f = read_trace(sys.argv[1], fast=sys.argv[2] == 'fast'); print(len(f))"
)


def run(argv: list[str]) -> tuple[float, float, int]:
    """(wall seconds, peak RSS MiB, exit status) of one subprocess."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, proc.returncode


def best(name: str, argv: list[str], repeat: int) -> None:
    results = [run(argv) for _ in range(repeat)]
    wall = min(r[0] for r in results)
    rss = max(r[1] for r in results)
    codes = sorted({r[2] for r in results})
    print(f"{name:<28} best {wall:7.3f} s   peak RSS {rss:6.0f} MiB   exit {codes}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    ns = parser.parse_args()
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    trace = out / f"trace-{ns.rows}.jsonl"
    if not trace.exists():
        gen = [PYTHON, str(HERE / "gen_trace.py"), str(trace), "--rows", str(ns.rows)]
        subprocess.run(gen, check=True)
    print(f"trace {trace}: {ns.rows} rows, {trace.stat().st_size / 1e6:.0f} MB")
    best("ghbench --help", [GHBENCH, "--help"], ns.repeat)
    best("read_trace (exact)", [PYTHON, "-c", READ_SNIPPET, str(trace), "exact"], ns.repeat)
    best("read_trace (fast, DuckDB)", [PYTHON, "-c", READ_SNIPPET, str(trace), "fast"], ns.repeat)
    if (ROOT / "src/ghbench/commands/report.py").exists():
        with tempfile.TemporaryDirectory(dir=out) as tmp:
            results = []
            for i in range(ns.repeat):
                argv = [GHBENCH, "report", "--trace", str(trace), "--out", f"{tmp}/{i}"]
                results.append(run(argv))
            wall = min(r[0] for r in results)
            rss = max(r[1] for r in results)
            print(
                f"{'ghbench report':<28} best {wall:7.3f} s   peak RSS {rss:6.0f} MiB"
                f"   exit {sorted({r[2] for r in results})}"
            )
    else:
        print("ghbench report: src/ghbench/commands/report.py does not exist yet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
