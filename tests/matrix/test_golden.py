"""The matrix's files, byte for byte: a simulated ``matrix run`` through the real CLI.

Three cells in virtual time (two scales of S2 on one repo, for the pruning section, and
S4 spread over two repos), with the flags that travel furthest: an aliased profile, a
tick and per-session attribution. The run records, ``baseline.md``, ``baseline.json``
and ``matrix-state.json`` must not change; only the invocation's id (a time and a pid)
is replaced.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from golden_files import check_golden, normalized

MATRIX_RUN = (r"m\d{8}T\d{6}Z-\d+", "m-RUN")
CELLS = ("S2-T1-1", "S2-T1-2", "S4-T2-2")


@pytest.mark.slow
def test_a_simulated_matrix_writes_the_same_files(tmp_path: Path) -> None:
    out = tmp_path / "m"
    argv = [sys.executable, "-m", "ghbench", "matrix", "run", "--cells", ",".join(CELLS)]
    argv += ["--scales", "1,2", "--out", str(out), "--operator", "golden", "--session-ids"]
    argv += ["--profile", "pre-b1", "--tick", "20s"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    check_golden("matrix-stdout.txt", proc.stdout.replace(str(out), "OUT"))
    check_golden("matrix-stderr.txt", proc.stderr)
    for name in ("matrix-state.json", "baseline.md", "baseline.json", "baseline.html"):
        check_golden(f"matrix-{name}", normalized((out / name).read_text(), [MATRIX_RUN]))
    for cell in CELLS:
        record = (out / "runs" / cell / "run-001.json").read_text()
        check_golden(f"matrix-run-{cell}.json", normalized(record, [MATRIX_RUN]))


def _ghbench(*args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("fmt", ["text", "json", "github-actions"])
def test_the_plan_is_printed_the_same(fmt: str) -> None:
    out = _ghbench("matrix", "plan", "--priority", "--cells", "S6-T2-10", "--format", fmt)
    check_golden(f"matrix-plan-{fmt}.txt", out)


@pytest.mark.slow
def test_capacity_answers_the_same(tmp_path: Path) -> None:
    """The capacity search's JSON (the model's probes in virtual time)."""
    args = ["capacity", "--scenario", "S2", "--topology", "T2", "--max-sessions", "12"]
    args += ["--warmup", "30s", "--duration", "5m", "--profile", "head", "--seed", "3"]
    out = _ghbench(*args, "--json", "--no-plot", "--out", str(tmp_path))
    check_golden("capacity.json", out)
