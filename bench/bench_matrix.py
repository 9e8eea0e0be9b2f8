"""Time the whole simulated 54-cell matrix, baseline.md and chart included (target ≤ 60 s).

    .venv/bin/python bench/bench_matrix.py [--out DIR] [--seed 0] [--cells S2-T1-1,...]

Runs ``ghbench matrix run --all`` (the simulated backend: workload model, in-process
emulator, virtual time) in a fresh directory and checks what it produced.
"""

from __future__ import annotations

import argparse
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
    t = time.perf_counter()
    proc = subprocess.run([*cmd, "--seed", str(args.seed)], capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    print(proc.stdout.strip())
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
        sys.exit(proc.returncode)
    md = (out / "baseline.md").read_text()
    sections = md.count("\n### ")
    png = (out / "scaling.png").stat().st_size
    what = f"cells {args.cells}" if args.cells else "54-cell"
    print(f"{what} simulated matrix: {elapsed:.1f} s; {sections} cell sections,")
    print(f"baseline.md {len(md.encode()):,} bytes, scaling.png {png:,} bytes, in {out}")
    if not args.cells:
        print("target ≤ 60 s:", "met" if elapsed <= 60 else "MISSED")


if __name__ == "__main__":
    main()
