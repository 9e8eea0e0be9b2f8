"""Time the whole simulated 54-cell matrix, baseline.md, its chart and each series'
capacity search included (target ≤ 15 s on 2 cores).

    .venv/bin/python bench/bench_matrix.py [--out DIR] [--seed 0] [--cells S2-T1-1,...]
    PYTHONPATH=OTHER/src .venv/bin/python bench/bench_matrix.py   # another checkout's

Runs ``ghbench matrix run --all`` (the simulated backend: workload model, in-process
emulator, virtual time; every other cell in a second lane on a second core, then the 12
capacity searches on whichever lane is free) in a fresh directory, checks what it
produced, and prints its wall and CPU time (``os.wait4``: the lane's included) and the
load average before and after.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cells", default=None, help="only these cells (a smoke run), not all 54")
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="ghbench-matrix-")) / "m"
    chosen = ["--cells", args.cells] if args.cells else ["--all"]
    cmd = [sys.executable, "-m", "ghbench", "matrix", "run", *chosen, "--out", str(out)]
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([*cmd, "--seed", str(args.seed)], capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = used.ru_utime - before.ru_utime + used.ru_stime - before.ru_stime
    print(proc.stdout.strip())
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
        sys.exit(proc.returncode)
    after = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"CPU {cpu:.1f} s (user + system, the second lane's included);"
          f" load average before {load}, after {after}")  # fmt: skip
    md = (out / "baseline.md").read_text()
    sections = md.count("\n### ")
    png = (out / "scaling.png").stat().st_size
    what = f"cells {args.cells}" if args.cells else "54-cell"
    print(f"{what} simulated matrix: {elapsed:.1f} s; {sections} cell sections,")
    print(f"baseline.md {len(md.encode()):,} bytes, scaling.png {png:,} bytes, in {out}")
    if not args.cells:
        print("target ≤ 15 s:", "met" if elapsed <= 15 else "MISSED")


if __name__ == "__main__":
    main()
