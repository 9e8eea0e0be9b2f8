"""A GitHub Actions matrix's job directories merged into one matrix run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.matrix.test_runner import FakeBackend, _run

from ghbench.matrix.merge import merge_dirs
from ghbench.matrix.runs import load_runs


@pytest.mark.slow
def test_merge_assembles_job_directories(tmp_path: Path) -> None:
    a, b, out = tmp_path / "a", tmp_path / "b", tmp_path / "out"
    _run(a, FakeBackend(), ["S2-T1-1"], run="ja")
    _run(b, FakeBackend(), ["S2-T1-5"], run="jb")
    # the series' capacity, as a job's matrix run stores it (the keys the baseline reads)
    capacity = {
        "sessions": 56,
        "limitingResource": "pollCycle",
        "budgetFraction": 0.8,
        "reachedMax": False,
        "cell": {
            "scenario": "S2",
            "topology": "T1",
            "profile": "ao-0.10.3",
            "agents": None,
            "seed": 0,
            "warmupSeconds": 120.0,
            "windowSeconds": 900.0,
        },
        "pollCeilingSeconds": 60.0,
        "command": "ghbench capacity --scenario S2 --topology T1 --profile ao-0.10.3 --seed 0",
    }
    (a / "capacity").mkdir()
    (a / "capacity" / "S2-T1.json").write_text(json.dumps(capacity))
    report = merge_dirs([a, b], out)
    assert report.added == ["S2-T1-1 run 1", "S2-T1-5 run 1"]
    runs = load_runs(out)
    for r in runs:
        assert r.trace is not None and (out / r.trace).is_file()
    baseline = (out / "baseline.md").read_text()
    assert "### S2-T1-5" in baseline
    assert "| S2 | T1 | 56 | pollCycle | 80% | ao-0.10.3, seed 0 |" in baseline
    again = merge_dirs([a], out)
    assert again.added == [] and again.duplicates == 1
