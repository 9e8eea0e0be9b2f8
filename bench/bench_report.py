"""``ghbench report`` (and summarize, analyze) beside AO's own scripts, on one big trace.

    python bench/bench_report.py --ao CHECKOUT [--ghbench PATH] [--rows 1000000] [--repeat 5]

CHECKOUT is a built bench-era AO (``../shared/ao/build-ao bench`` prints it; its
``experiments/benchmark.mjs report`` is AO's report). ``--ghbench`` is the ``ghbench``
to time: by default this interpreter's, for the figures of record the one of a fresh
venv with only ``pip install .`` (docs/performance.md says how to make it).

Generates ``bench/out/trace-{rows}.jsonl`` once (bench/gen_trace.py). Each measurement
is a whole process; the pairs alternate (ghbench, AO, ghbench, AO, …) so both see the
same machine, and each side's wall time is the median of its runs, its memory the peak
RSS of its largest run (``os.wait4``). Before timing, ghbench's scorecard is held to
AO's, field for field, on the same trace. Run it sparingly: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable

# What a DuckDB-based report cannot go below in this interpreter: DuckDB's lenient
# typed scan of the scorecard's 12 fields, aggregated in SQL (no checks, no transfer
# to Python, no scorecard), the whole process.
FLOOR = (
    "import sys, duckdb; "
    "types = {'timestamp': 'VARCHAR', 'ok': 'BOOLEAN', 'durationMs': 'DOUBLE', "
    "**{k: 'BIGINT' for k in ('httpStatus', 'rateLimitRemaining', 'rateLimitReset', "
    "'graphqlCost')}, **{k: 'VARCHAR' for k in ('operation', 'component', "
    "'rateLimitResource', 'sessionId', 'method')}}; "
    "cols = '{' + ', '.join(f\"{k}: '{v}'\" for k, v in types.items()) + '}'; "
    "sel = ', '.join(f'max({k})' for k in types); "
    "duckdb.sql(f\"SELECT {sel} FROM read_json('{sys.argv[1]}', "
    "format = 'newline_delimited', columns = {cols})\").fetchall()"
)

# The other road to a fast report: the scorecard's kinds of aggregate in SQL (counts,
# sums, AO's percentiles, reset windows, the busiest minute, peak concurrency) over the
# reader's own strict scan, its rows materialised once: no numpy, no frame.
SQL_SCORECARD = (
    "import sys, duckdb; from ghbench.trace.rules import Selection; "
    "from ghbench.scorecard.engine import SCORECARD_COLUMNS; "
    "db = duckdb.connect(); db.execute(\"SET TimeZone = 'UTC'\"); "
    "q = Selection.of(SCORECARD_COLUMNS).query(sys.argv[1], 16 << 20, {}); "
    'db.execute(f"CREATE TEMP TABLE r AS SELECT * EXCLUDE (note) FROM ({q})'
    " WHERE note IS NULL OR note LIKE 'LABELS%'\"); "
    "na = -(2 ** 63); "
    "[db.execute(a).fetchall() for a in ("
    "f'SELECT count(*), min(ts_ms), max(ts_ms), sum(graphql_cost) FILTER (WHERE graphql_cost"
    " > {na}), count(*) FILTER (WHERE http_status = 304), count(*) FILTER (WHERE ok = 0)"
    " FROM r', "
    "'SELECT quantile_cont(duration_ms, [0.5, 0.95, 0.99]) FROM r WHERE NOT isnan(duration_ms)', "
    "f'SELECT rate_limit_reset, min(rate_limit_remaining), max(rate_limit_remaining), count(*)"
    " FROM r WHERE rate_limit_reset > {na} GROUP BY ALL', "
    "'SELECT ts_ms // 60000 AS m, sum(greatest(graphql_cost, 0)) AS s FROM r GROUP BY m"
    " ORDER BY s DESC LIMIT 1', "
    "'WITH e AS (SELECT ts_ms * 2 AS k, -1 AS d FROM r WHERE NOT isnan(duration_ms) UNION ALL"
    " SELECT (ts_ms - round(greatest(duration_ms, 0))::BIGINT) * 2 + 1, 1 FROM r"
    " WHERE NOT isnan(duration_ms)) SELECT max(c) FROM (SELECT sum(d) OVER (ORDER BY k"
    " ROWS UNBOUNDED PRECEDING) AS c FROM e)')]"
)

Run = tuple[float, float, int]  # wall seconds, peak RSS MiB, exit status


def run(argv: Sequence[str], cwd: Path | None = None, stdout: Any = subprocess.DEVNULL) -> Run:
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=cwd, stdout=stdout, stderr=subprocess.DEVNULL, start_new_session=True
    )
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


class AoReport:
    """AO's ``benchmark.mjs report``; it writes its scorecard into its checkout, which
    each run removes again."""

    def __init__(self, checkout: Path) -> None:
        self.experiments = checkout / "experiments"
        self.out = self.experiments / "out"

    def argv(self, trace: Path) -> list[str]:
        return ["node", str(self.experiments / "benchmark.mjs"), "report", "--trace", str(trace)]

    def __call__(self, trace: Path) -> tuple[Run, dict[str, Any] | None]:
        before = set(self.out.glob("scorecard-report-*.json")) if self.out.exists() else set()
        result = run(self.argv(trace), cwd=self.experiments)
        written = set(self.out.glob("scorecard-report-*.json")) - before
        doc = None
        for path in written:
            doc = json.loads(path.read_text())
            path.unlink()
        return result, doc


def ghbench_report(ghbench: str, out: Path) -> Callable[[Path], tuple[Run, dict[str, Any]]]:
    def report(trace: Path) -> tuple[Run, dict[str, Any]]:
        with tempfile.TemporaryDirectory(dir=out) as tmp, open(Path(tmp) / "out.json", "w+") as fh:
            result = run(
                [ghbench, "report", "--trace", str(trace), "--json", "--out", tmp], stdout=fh
            )
            fh.seek(0)
            return result, json.loads(fh.read() or "null")

    return report


def same_scorecard(ours: dict[str, Any], ao: dict[str, Any]) -> list[str]:
    """The spec fields (and resourceWindows) where the two differ."""
    ao_card = {k: v for k, v in ao["scorecard"].items() if k != "resourceWindows"}
    fields = sorted(set(ao_card) | set(ours["scorecard"]))
    diffs = [f for f in fields if ours["scorecard"].get(f) != ao_card.get(f)]
    if ours["resourceWindows"] != ao["resourceWindows"]:
        diffs.append("resourceWindows")
    return diffs


def describe(name: str, runs: list[Run]) -> dict[str, Any]:
    walls = [w for w, _, _ in runs]
    return {
        "name": name,
        "median": statistics.median(walls),
        "min": min(walls),
        "max": max(walls),
        "rss": max(r for _, r, _ in runs),
        "exits": sorted({c for _, _, c in runs}),
    }


def _cell(side: dict[str, Any]) -> str:
    wall = f"{side['median']:.2f} s ({side['min']:.2f}–{side['max']:.2f})"
    return f"{wall} | {side['rss']:.0f} MiB"


def _ao_sides(ao_report: AoReport, trace: Path) -> dict[str, Callable[[], Run]]:
    """AO's own scripts for each command, on ``trace``."""
    experiments = ao_report.experiments
    return {
        "report": lambda: ao_report(trace)[0],
        "summarize": lambda: run(["node", str(experiments / "summarize-gh-trace.mjs"), str(trace)]),
        "analyze": lambda: run(["node", str(experiments / "analyze-trace.mjs"), str(trace)]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--ao", type=Path, help="a built bench-era AO checkout (without it: ghbench alone)"
    )
    parser.add_argument("--ghbench", default=str(Path(PYTHON).with_name("ghbench")))
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--trace", type=Path, help="time this trace instead of a generated one")
    parser.add_argument(
        "--commands", default="report,summarize,analyze", help="which to time (comma-separated)"
    )
    ns = parser.parse_args()
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    trace = ns.trace or out / f"trace-{ns.rows}.jsonl"
    if not trace.exists():
        gen = [PYTHON, str(HERE / "gen_trace.py"), str(trace), "--rows", str(ns.rows)]
        subprocess.run(gen, check=True)
    trace = trace.resolve()
    print(f"trace {trace}: {trace.stat().st_size / 1e6:.0f} MB; ghbench {ns.ghbench}")
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)

    ours = ghbench_report(ns.ghbench, out)
    ao_report = None if ns.ao is None else AoReport(ns.ao.resolve())
    diffs: list[str] = []
    if ao_report is None:
        print("no --ao: ghbench alone, its scorecard not held to AO's")
    else:
        (_, ours_doc), (_, ao_doc) = ours(trace), ao_report(trace)
        if ours_doc is None or ao_doc is None:
            print("a report failed; nothing timed")
            return 1
        diffs = same_scorecard(ours_doc, ao_doc)
        verdict = "identical" if not diffs else "differs: " + ", ".join(diffs)
        print(f"scorecard field for field: {verdict}")

    names = ns.commands.split(",")
    pairs: dict[str, tuple[list[Run], list[Run]]] = {name: ([], []) for name in names}
    ghbench_sides: dict[str, Callable[[], Run]] = {
        "report": lambda: ours(trace)[0],
        "summarize": lambda: run([ns.ghbench, "summarize", str(trace)]),
        "analyze": lambda: run([ns.ghbench, "analyze", str(trace)]),
    }
    ao_sides = {} if ao_report is None else _ao_sides(ao_report, trace)
    references: dict[str, list[Run]] = {FLOOR: [], SQL_SCORECARD: []}
    for _ in range(ns.repeat):  # A B A B: both sides see the same machine
        for name in names:
            pairs[name][0].append(ghbench_sides[name]())
            if name in ao_sides:
                pairs[name][1].append(ao_sides[name]())
        for code, runs in references.items():
            runs.append(run([PYTHON, "-c", code, str(trace)]))
    print(f"load average after: {os.getloadavg()[0]:.2f}\n")

    print(
        "| command | ghbench (median, range) | peak RSS | AO (median, range) | peak RSS |"
        " faster | of AO's memory |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, (a, b) in pairs.items():
        if not b:
            print(f"| {name} | {_cell(describe(name, a))} | | | | |")
            continue
        ga, ao = describe(name, a), describe(name, b)
        cells = [name, *(_cell(side) for side in (ga, ao))]
        cells += [f"{ao['median'] / ga['median']:.1f}×", f"{ga['rss'] / ao['rss']:.2f}"]
        exits = "" if ga["exits"] == ao["exits"] == [0] else f" exits {ga['exits']} {ao['exits']}"
        print("| " + " | ".join(cells) + " |" + exits)
    ao_runs = pairs["report"][1] if "report" in pairs else []
    ao_report_wall = describe("ao", ao_runs)["median"] if ao_runs else None
    print()
    for code, what in (
        (FLOOR, "floor: DuckDB's lenient scan of the 12 fields, aggregated in SQL"),
        (SQL_SCORECARD, "the scorecard's kinds of aggregate in SQL over the strict scan"),
    ):
        ref = describe(what, references[code])
        ratio = "" if ao_report_wall is None else f", {ao_report_wall / ref['median']:.1f}× AO"
        print(f"{what} (whole process): {ref['median']:.2f} s, {ref['rss']:.0f} MiB{ratio}")
    return 0 if not diffs else 1


if __name__ == "__main__":
    sys.exit(main())
