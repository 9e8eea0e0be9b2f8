"""Every bench script starts: its imports resolve and it says how it is run.

The scripts import test helpers and tooling by path, which nothing else checks until
someone runs ``make bench``; a moved helper once left one unable to start.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if p.name != "repo.py")


def test_the_scripts_are_found() -> None:
    assert {"bench_report.py", "bench_graphql.py", "run_all.py"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_bench_script_starts_and_prints_its_usage(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage:"), done.stdout[:500]


def test_make_bench_runs_every_script() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import run_all  # a script, not a module: found by its path
    finally:
        sys.path.remove(str(BENCH))
    listed = {argv[0] for argv in run_all._scripts(Path("/nowhere")).values()}
    assert listed == set(SCRIPTS) - {"run_all.py"}
