"""``ghbench compare`` through the real entry point: goldens, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "analysis" / "fixtures" / "compare"
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CELL = ["--scenario", "S2", "--topology", "T1", "--sessions", "5", "--warmup", "30s"]


def ghbench(*args: str, cwd: Path = FIXTURES) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "ghbench", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("GHBENCH_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; see tests/golden/README.md"


SINGLE = ["base/scorecard-run1.json", "cand/scorecard-run1.json"]
THRESHOLDS = ["--fail", "graphqlPointsPerHr>+10%", "--fail", "opaqueCallPct > 0.2"]


@pytest.mark.parametrize(
    ("name", "args", "code"),
    [
        ("compare-single.txt", [*SINGLE, *THRESHOLDS], 3),
        ("compare-single.md", [*SINGLE, *THRESHOLDS, "--markdown"], 3),
        ("compare-runs.txt", ["base", "cand", "--fail", "totalCalls>=+100%"], 3),
        ("compare-runs.md", ["base", "cand", "--markdown"], 0),
        ("compare-runs.json", ["base", "cand", *THRESHOLDS, "--json"], 3),
    ],
)
def test_golden_outputs(name: str, args: list[str], code: int) -> None:
    proc = ghbench("compare", *args)
    assert proc.returncode == code, proc.stderr
    _golden(name, proc.stdout)
    if code == 3:
        assert proc.stderr.startswith("compare: ") and "threshold(s) failed" in proc.stderr


def test_json_thresholds_are_booleans() -> None:
    data = json.loads(ghbench("compare", *SINGLE, *THRESHOLDS, "--json").stdout)
    results = {t["expression"]: t for t in data["thresholds"]}
    assert results["graphqlPointsPerHr>+10%"]["failed"] is False
    assert results["graphqlPointsPerHr>+10%"]["passed"] is True
    assert results["opaqueCallPct > 0.2"]["failed"] is True
    assert data["passed"] is False and data["thresholdsFailed"] == 1


def _simulate(profile: str, out: Path) -> Path:
    proc = ghbench("simulate", *CELL, "--duration", "5m", "--profile", profile, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    (card,) = out.glob("scorecard-*.json")
    return card


@pytest.mark.slow
def test_pre_b1_against_head_fails_the_budget_gate_and_swapped_passes(tmp_path: Path) -> None:
    head = _simulate("head", tmp_path / "head")
    pre_b1 = _simulate("pre-b1", tmp_path / "pre-b1")
    gate = ["--fail", "graphqlPointsPerHr>+10%"]

    worse = ghbench("compare", str(head), str(pre_b1), *gate)
    assert worse.returncode == 3, worse.stderr
    assert "FAIL  graphqlPointsPerHr>+10%" in worse.stdout
    row = next(line for line in worse.stdout.splitlines() if line.startswith("  graphqlBatch"))
    base, cand = (int(x) for x in row.split()[1:3])
    assert cand == 10 and base < cand  # pre-b1 refreshes the batch on every 30 s tick

    better = ghbench("compare", str(pre_b1), str(head), *gate)
    assert better.returncode == 0, better.stderr
    assert "ok    graphqlPointsPerHr>+10%" in better.stdout
    assert better.stderr == ""


@pytest.mark.slow
def test_different_cells_are_refused_unless_allowed(tmp_path: Path) -> None:
    five = _simulate("head", tmp_path / "five")
    proc = ghbench(
        "simulate",
        "--sessions",
        "6",
        "--warmup",
        "30s",
        "--duration",
        "5m",
        "--out",
        str(tmp_path / "six"),
    )
    assert proc.returncode == 0, proc.stderr
    (six,) = (tmp_path / "six").glob("scorecard-*.json")
    refused = ghbench("compare", str(five), str(six))
    assert refused.returncode == 2
    assert len(refused.stderr.splitlines()) == 1
    assert "quiet-steady.single-repo.5" in refused.stderr
    assert "quiet-steady.single-repo.6" in refused.stderr
    assert "--allow-different-cells" in refused.stderr
    allowed = ghbench("compare", str(five), str(six), "--allow-different-cells")
    assert allowed.returncode == 0, allowed.stderr
    assert "different cells, compared as asked" in allowed.stdout


@pytest.mark.slow
def test_a_directory_mixing_cells_is_refused(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    shutil.copytree(FIXTURES / "base", mixed)
    proc = ghbench("simulate", *CELL, "--duration", "4m", "--out", str(mixed / "short"))
    assert proc.returncode == 0, proc.stderr
    refused = ghbench("compare", str(mixed), "cand")
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: baseline: ")
    assert "window 4m 0s" in refused.stderr and len(refused.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (["nope.json", "cand"], 1, ["baseline nope.json", "no such file"]),
        (["base", "missing-dir"], 1, ["candidate missing-dir"]),
        (
            ["base", "cand", "--fail", "graphqlPointsPerHr=10"],
            2,
            ["'graphqlPointsPerHr=10'", ">, <, >=, <=", "opaqueCallPct", "operations[OP]"],
        ),
        (["base", "cand", "--fail", "graphqlPointsPerHr>ten"], 2, ["not a threshold"]),
        (
            ["base", "cand", "--fail", "graphqlPoints>1"],
            2,
            ["unknown metric 'graphqlPoints'", "graphqlPointsPerHr", "gh.api.graphql-batch"],
        ),
        (["base", "cand", "--fail", "operations[gh.nope].calls>1"], 2, ["unknown metric"]),
        (["base", "cand", "--json", "--markdown"], 2, ["--json and --markdown"]),
    ],
)
def test_bad_input_is_one_line(args: list[str], code: int, needles: list[str]) -> None:
    proc = ghbench("compare", *args)
    assert proc.returncode == code
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    for needle in needles:
        assert needle in lines[0]


def test_a_malformed_threshold_is_refused_before_any_file_is_read() -> None:
    proc = ghbench("compare", "nope.json", "nope2.json", "--fail", "x>>1")
    assert proc.returncode == 2 and "'x>>1'" in proc.stderr


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"{not json", "not a ghbench scorecard artifact"),
        (b'{"schemaVersion": 99}', "schemaVersion 99 is not supported"),
        (b"", "not a ghbench scorecard artifact"),
    ],
)
def test_an_unreadable_baseline_is_one_line(tmp_path: Path, content: bytes, needle: str) -> None:
    bad = tmp_path / "scorecard-bad.json"
    bad.write_bytes(content)
    proc = ghbench("compare", str(bad), "cand")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: baseline: ") and needle in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


def test_an_empty_directory_is_one_line(tmp_path: Path) -> None:
    proc = ghbench("compare", str(tmp_path), "cand")
    assert proc.returncode == 1
    assert "no scorecard-*.json" in proc.stderr and len(proc.stderr.splitlines()) == 1
