"""One definition of "fits": ``ghbench capacity``, a matrix's ``baseline.md`` and
docs/matrix.md give the same number for the same cell and profile (S1-T1 and S2-T1 with
the default profile, through the real CLI)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.workload.profiles import DEFAULT_PROFILE

DOCS = Path(__file__).resolve().parents[2] / "docs" / "matrix.md"
SERIES = (("S1", "T1"), ("S2", "T1"))
# a row of a "Sessions that fit" table: | S | T | count | binds first | ...
_ROW = re.compile(r"^ *\| (S\d) \| (T\d) \| ([\d,]+)[^|]* \| (\w+) \|", re.MULTILINE)


def _ghbench(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", *args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc


def _table(text: str) -> dict[tuple[str, str], tuple[int, str]]:
    section = text.split("Sessions that fit", 1)[1]
    return {(s, t): (int(n.replace(",", "")), binds) for s, t, n, binds in _ROW.findall(section)}


@pytest.mark.slow
def test_capacity_the_baseline_and_the_docs_agree(tmp_path: Path) -> None:
    answers = {}
    for scenario, topology in SERIES:
        out = _ghbench(
            "capacity", "--scenario", scenario, "--topology", topology, "--json", "--no-plot"
        ).stdout
        found = json.loads(out)
        answers[(scenario, topology)] = (found["sessions"], found["limitingResource"])
    matrix = tmp_path / "m"
    _ghbench("matrix", "run", "--cells", "S1-T1-1,S2-T1-1", "--out", str(matrix))
    baseline = _table((matrix / "baseline.md").read_text())
    assert {key: baseline[key] for key in SERIES} == answers
    # the stored answers are capacity's own objects, with the command that gives them
    stored = json.loads((matrix / "capacity" / "S2-T1.json").read_text())
    command = f"ghbench capacity --scenario S2 --topology T1 --profile {DEFAULT_PROFILE}"
    assert stored["command"] == f"{command} --seed 0"
    documented = _table(DOCS.read_text())
    assert {key: documented[key] for key in SERIES} == answers, (
        "docs/matrix.md's 'Sessions that fit' is not what capacity answers: run"
        " bench/bench_capacity.py and update it"
    )


@pytest.mark.slow
def test_capacity_from_a_workload_trace_agrees_with_the_model(tmp_path: Path) -> None:
    """A recording of the workload model (``simulate``'s trace: S2-T1 at 5 sessions, the
    default profile, the runbook's timing) replayed at each count answers within 10% of
    ``capacity`` for the same cell and profile: the replay spends what the model spends,
    and the poll cycle grows with the sessions' own calls."""
    _ghbench("simulate", "--scenario", "S2", "--sessions", "5", "--out", str(tmp_path))
    (trace,) = tmp_path.glob("gh-trace-sim-*.jsonl")
    args = ("--json", "--no-plot", "--out", str(tmp_path))
    replayed = json.loads(_ghbench("capacity", "--from-trace", str(trace), *args).stdout)
    model = json.loads(_ghbench("capacity", "--scenario", "S2", *args).stdout)
    assert replayed["fromTrace"]["recordedSessions"] == 5
    assert abs(replayed["sessions"] - model["sessions"]) <= 0.1 * model["sessions"]
    assert replayed["limitingResource"] == model["limitingResource"] == "pollCycle"
