"""Hold ``ghbench report`` to AO's ``benchmark.mjs report``, field for field, on traces.

    python scripts/ao_report_match.py --ao CHECKOUT TRACE [TRACE ...]

CHECKOUT is a built bench-era AO (``../shared/ao/build-ao bench`` prints it). For each
trace both reports run on the same file; every field of ``scorecard`` and
``resourceWindows`` is compared (AO keeps ``resourceWindows`` inside its scorecard and
beside it). Prints one line per trace and exits non-zero when any field differs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

GHBENCH = str(Path(sys.executable).with_name("ghbench"))


def ao_report(checkout: Path, trace: Path) -> dict[str, Any]:
    out = checkout / "experiments" / "out"
    before = set(out.glob("scorecard-report-*.json")) if out.exists() else set()
    argv = ["node", "experiments/benchmark.mjs", "report", "--trace", str(trace)]
    subprocess.run(argv, cwd=checkout, capture_output=True, check=True)
    (written,) = set(out.glob("scorecard-report-*.json")) - before
    doc: dict[str, Any] = json.loads(written.read_text())
    written.unlink()
    return doc


def ghbench_report(trace: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        argv = [GHBENCH, "report", "--trace", str(trace), "--json", "--out", tmp]
        proc = subprocess.run(argv, capture_output=True, text=True, check=True)
    doc: dict[str, Any] = json.loads(proc.stdout)
    return doc


def differences(ours: dict[str, Any], ao: dict[str, Any]) -> list[str]:
    ao_card = {k: v for k, v in ao["scorecard"].items() if k != "resourceWindows"}
    diffs = [
        f"{field}: ghbench {ours['scorecard'].get(field)!r}, AO {ao_card.get(field)!r}"
        for field in sorted(set(ao_card) | set(ours["scorecard"]))
        if ours["scorecard"].get(field) != ao_card.get(field)
    ]
    for windows in (ao["resourceWindows"], ao["scorecard"]["resourceWindows"]):
        if ours["resourceWindows"] != windows:
            diffs.append(f"resourceWindows: ghbench {ours['resourceWindows']}, AO {windows}")
    return diffs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ao", type=Path, required=True, help="a built bench-era AO checkout")
    parser.add_argument("traces", type=Path, nargs="+")
    ns = parser.parse_args()
    failed = 0
    for trace in (t.resolve() for t in ns.traces):
        ours, ao = ghbench_report(trace), ao_report(ns.ao.resolve(), trace)
        diffs = differences(ours, ao)
        card = ours["scorecard"]
        shown = (
            f"{card['totalCalls']:,} calls, p50/p95/p99 {card['p50DurationMs']}/"
            f"{card['p95DurationMs']}/{card['p99DurationMs']} ms"
        )
        verdict = "every field equal" if not diffs else "; ".join(diffs)
        print(f"{trace}: {shown}: {verdict}", flush=True)
        failed += bool(diffs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
