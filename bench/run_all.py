"""Every bench script once, in a quick mode: ``make bench``.

    .venv/bin/python bench/run_all.py [--only NAME,...]

A smoke run of the timing tools (small inputs, one repeat), to see that each still
runs and roughly what it measures; the figures in docs/performance.md come from each
script run on its own, at full size, on a quiet machine (each script's docstring says
how). The real-AO calibration is rendered from the committed results into a copy of
docs/calibration.md (its real runs need the AO builds: ``bench_calibration_ao.py
real``). Each script runs as its own process; the first that fails stops the run.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUICK_ROWS = "20000"  # a trace the readers and analyses take in about a second


def _scripts(work: Path) -> dict[str, list[str]]:
    """Each script's quick arguments (by the script's name without ``bench_``)."""
    trace = work / "trace.jsonl"
    doc = work / "calibration.md"
    return {
        "gen_trace": ["gen_trace.py", str(trace), "--rows", QUICK_ROWS],
        "analysis": ["bench_analysis.py", str(trace), "--repeat", "1"],
        "report": ["bench_report.py", "--rows", QUICK_ROWS, "--repeat", "1"],
        "memory": ["bench_memory.py", "--rows", QUICK_ROWS],
        "simulate": ["bench_simulate.py", "--repeat", "1"],
        "pages": ["bench_pages.py", "--rows", QUICK_ROWS, "--repeat", "1"],
        "matrix": ["bench_matrix.py", "--cells", "S2-T1-1,S2-T1-5", "--out", str(work / "m")],
        "capacity": ["bench_capacity.py", "--profiles", "head", "--scenarios", "S2"],
        "emulator": ["bench_emulator.py", "--quick"],
        "graphql": ["bench_graphql.py", "--seconds", "1", "--clients", "2"],
        "front": ["bench_front.py", "--quick"],
        "git": ["bench_git.py", "--repeat", "1"],
        "agents": ["bench_agents.py", "--speed", "--quick"],
        "lab": ["bench_lab.py", "--quick"],
        "predictions": ["bench_predictions.py", "--agents", "1", "--window", "300"],
        "replay": ["bench_replay.py", "--agents", "5", "--hours", "0.25", "--factor", "2"],
        "node_preload": ["bench_node_preload.py", "--rounds", "3"],
        "calibration_ao": ["bench_calibration_ao.py", "render", "--doc", str(doc), "--seeds", "1"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=None, help="comma-separated script names")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ghbench-bench-") as tmp:
        work = Path(tmp)
        shutil.copyfile(HERE.parent / "docs" / "calibration.md", work / "calibration.md")
        scripts = _scripts(work)
        chosen = args.only.split(",") if args.only else list(scripts)
        if "analysis" in chosen and "gen_trace" not in chosen:
            chosen.insert(0, "gen_trace")  # its trace
        for name in chosen:
            argv = [sys.executable, str(HERE / scripts[name][0]), *scripts[name][1:]]
            print(f"== {name}: {' '.join(scripts[name])}", flush=True)
            start = time.perf_counter()
            code = subprocess.run(argv, check=False).returncode
            print(f"== {name}: exit {code} in {time.perf_counter() - start:.1f} s", flush=True)
            if code != 0:
                return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
