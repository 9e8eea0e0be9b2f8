"""What ``compare`` and ``ab`` print of a comparison (``print_report``): the chosen output
on stdout, where the comparison was saved and why it failed on stderr, exit 3 when a
threshold fails. Driven through ``ghbench compare`` on the committed scorecards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "analysis" / "fixtures" / "compare"
PAIR = [
    str(FIXTURES / "base" / "scorecard-run1.json"),
    str(FIXTURES / "cand" / "scorecard-run1.json"),
]


def test_a_held_threshold_exits_0_with_nothing_on_stderr(ghbench: Any) -> None:
    ran = ghbench("compare", *PAIR, "--fail", "graphqlPointsPerHr>+1000%")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout and ran.stderr == ""


def test_a_failed_threshold_exits_3_and_says_why_on_stderr(ghbench: Any) -> None:
    ran = ghbench("compare", *PAIR, "--json", "--fail", "totalCalls>-100%")
    assert ran.returncode == 3
    doc = json.loads(ran.stdout)  # stdout stays one JSON document
    assert doc["passed"] is False and doc["thresholdsFailed"] == 1
    assert ran.stderr.splitlines() == ["compare: 1 of 1 threshold(s) failed"]


def test_where_the_page_went_is_on_stderr(ghbench: Any, tmp_path: Path) -> None:
    page = tmp_path / "cmp.html"
    ran = ghbench("compare", *PAIR, "--markdown", "--html", str(page))
    assert ran.returncode == 0, ran.stderr
    assert page.read_text().startswith("<!")
    assert ran.stderr.splitlines() == [f"comparison saved: {page}"]
    assert ran.stdout.startswith("### ghbench compare: ")


@pytest.mark.parametrize("fmt", ["bmf", "gab"])
def test_a_trackers_format_leaves_stdout_to_its_document(ghbench: Any, fmt: str) -> None:
    ran = ghbench("compare", *PAIR, "--format", fmt)
    assert ran.returncode == 0, ran.stderr
    json.loads(ran.stdout)
