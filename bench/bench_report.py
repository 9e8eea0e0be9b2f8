"""Time the trace reader, ``ghbench report``, ``summarize`` and ``analyze`` on a large trace.

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

# Floors: what any DuckDB-based reader in this interpreter pays before doing its own
# work. The import floor is the interpreter plus the libraries ``report`` needs; the
# scan floor is DuckDB's lenient typed read of the scorecard's 12 fields, aggregated
# (no type checks, no transfer to Python, no scorecard).
IMPORT_SNIPPET = (
    "import numpy, duckdb, pyarrow, pyarrow.compute, msgspec, click; "
    "import ghbench.scorecard, ghbench.trace.fast"
)
SCAN_FLOOR_SNIPPET = (
    "import sys, duckdb; "
    "types = {'timestamp': 'VARCHAR', 'ok': 'BOOLEAN', 'durationMs': 'DOUBLE', "
    "**{k: 'INTEGER' for k in ('httpStatus', 'rateLimitRemaining', 'rateLimitReset', "
    "'graphqlCost')}, **{k: 'VARCHAR' for k in ('operation', 'component', "
    "'rateLimitResource', 'sessionId', 'method')}}; "
    "cols = '{' + ', '.join(f\"{k}: '{v}'\" for k, v in types.items()) + '}'; "
    "sel = ', '.join(f'max({k})' for k in types); "
    "duckdb.sql(f\"SELECT {sel} FROM read_json('{sys.argv[1]}', "
    "format = 'newline_delimited', columns = {cols})\").fetchall()"
)
# The fast reader's outputs against the exact line reader's, on the big trace: the
# scorecard (report's projection), summarize and analyze (analyze's projection).
VERIFY_SNIPPET = """
import sys, msgspec
from ghbench.analysis.analyze import ANALYSIS_COLUMNS, analyze
from ghbench.analysis.summarize import summarize
from ghbench.artifacts.models import encode_artifact
from ghbench.scorecard import SCORECARD_COLUMNS, build_scorecard_artifact
from ghbench.scorecard.window import resolve_report_window
from ghbench.trace.reader import read_trace

def card(frame):
    w = resolve_report_window(frame, warmup_end_ms=None, window_end_ms=None)
    return encode_artifact(build_scorecard_artifact(
        frame, window_start_ms=w.start_ms, window_end_ms=w.end_ms,
        scenario_id="verify", measured_at=0))

def both(frame):
    return msgspec.json.encode([summarize(frame).to_json(), analyze(frame).to_json()])

exact = read_trace(sys.argv[1], fast=False)
same_card = card(read_trace(sys.argv[1], columns=SCORECARD_COLUMNS)) == card(exact)
same_analysis = both(read_trace(sys.argv[1], columns=ANALYSIS_COLUMNS)) == both(exact)
print(f"scorecard identical: {same_card}; summarize+analyze identical: {same_analysis}")
sys.exit(0 if same_card and same_analysis else 1)
"""
READ_SNIPPET = (
    "import sys; from ghbench.trace.reader import read_trace; "
    "mode = {'default': None, 'fast': True, 'exact': False}[sys.argv[2]]; "
    "f = read_trace(sys.argv[1], fast=mode); print(len(f))"
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
    show(name, results)


def show(name: str, results: list[tuple[float, float, int]]) -> None:
    wall = min(r[0] for r in results)
    rss = max(r[1] for r in results)
    codes = sorted({r[2] for r in results})
    print(f"{name:<30} best {wall:7.3f} s   peak RSS {rss:6.0f} MiB   exit {codes}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--skip-exact", action="store_true", help="skip the slow full-row line reader"
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="also check that report/summarize/analyze give byte-identical output from the"
        " fast reader and the exact line reader (slow: reads the trace line by line)",
    )
    ns = parser.parse_args()
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    trace = out / f"trace-{ns.rows}.jsonl"
    if not trace.exists():
        gen = [PYTHON, str(HERE / "gen_trace.py"), str(trace), "--rows", str(ns.rows)]
        subprocess.run(gen, check=True)
    print(f"trace {trace}: {ns.rows} rows, {trace.stat().st_size / 1e6:.0f} MB")
    best("ghbench --help", [GHBENCH, "--help"], ns.repeat)
    best("floor: interpreter + imports", [PYTHON, "-c", IMPORT_SNIPPET], ns.repeat)
    best("floor: DuckDB typed scan", [PYTHON, "-c", SCAN_FLOOR_SNIPPET, str(trace)], ns.repeat)
    best(
        "read_trace (default, DuckDB)",
        [PYTHON, "-c", READ_SNIPPET, str(trace), "default"],
        ns.repeat,
    )
    if not ns.skip_exact:
        best("read_trace(fast=False)", [PYTHON, "-c", READ_SNIPPET, str(trace), "exact"], ns.repeat)
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        argvs = [
            [GHBENCH, "report", "--trace", str(trace), "--out", f"{tmp}/{i}"]
            for i in range(ns.repeat)
        ]
        show("ghbench report", [run(argv) for argv in argvs])
    for command in ("summarize", "analyze"):
        best(f"ghbench {command}", [GHBENCH, command, str(trace)], ns.repeat)
    if ns.verify:
        return subprocess.run([PYTHON, "-c", VERIFY_SNIPPET, str(trace)], check=False).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
