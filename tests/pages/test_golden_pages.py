"""The compare, capacity and report pages, byte for byte (the scorecard's of a simulated
cell and the matrix's are in tests/simulation and tests/matrix's golden tests)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.data import example_trace_path
from golden_files import check_golden

FIXTURES = Path(__file__).resolve().parents[1] / "analysis" / "fixtures" / "compare"


def _ghbench(*args: str, code: int = 0) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == code, proc.stderr
    return proc.stdout


def test_compare_writes_the_same_page(tmp_path: Path) -> None:
    page = tmp_path / "compare.html"
    args = ["compare", str(FIXTURES / "base"), str(FIXTURES / "cand"), "--html", str(page)]
    _ghbench(*args, "--fail", "totalCalls>=+100%", "--fail", "opaqueCallPct > 0.2", code=3)
    check_golden("compare-runs.html", page.read_text().replace(str(FIXTURES), "FIXTURES"))
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert (
        proc.stderr.strip() == f"error: --html {page}: the file exists; remove it or name another"
    )


def test_report_writes_the_same_page_beside_its_scorecard(tmp_path: Path) -> None:
    _ghbench("report", "--example", "--out", str(tmp_path), "--json")
    (card,) = tmp_path.glob("scorecard-*.json")
    (page,) = tmp_path.glob("report-*.html")
    assert page.name == card.name.replace("scorecard-", "report-").replace(".json", ".html")
    measured = json.loads(card.read_text())["measuredAt"]  # report's clock: now
    text = page.read_text().replace(measured, "MEASURED")
    text = text.replace(str(example_trace_path()), "EXAMPLE")  # where ghbench is installed
    check_golden("report-example.html", text)


@pytest.mark.slow
def test_capacity_writes_the_same_page(tmp_path: Path) -> None:
    args = ["capacity", "--scenario", "S2", "--topology", "T2", "--max-sessions", "12"]
    args += ["--warmup", "30s", "--duration", "5m", "--profile", "head", "--seed", "3"]
    doc = json.loads(_ghbench(*args, "--json", "--out", str(tmp_path)))
    page = Path(doc["page"])
    assert page.parent == tmp_path and page.name.endswith(".html")
    assert Path(doc["plot"]).with_suffix(".html") == page
    check_golden("capacity.html", page.read_text().replace(str(tmp_path), "OUT"))
