"""``comparison_report``'s three outputs of one comparison: the same rows in the console
and the Markdown, strict JSON (a change from 0 is null with ``fromZero``, never
Infinity), the thresholds in each, and the exit code a failed threshold gives. The
layouts byte for byte are golden files (tests/commands/test_compare.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ghbench.analysis.compare_render import ComparisonReport, comparison_report
from ghbench.analysis.load import load_scorecards
from ghbench.analysis.thresholds import THRESHOLD_FAILED, parse_threshold

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "compare"
FROM_ZERO = "operations[gh.api.guard-commit-status].calls"  # 0 calls before, 50 after


def _report(base: str, cand: str, *thresholds: str) -> ComparisonReport:
    return comparison_report(
        load_scorecards(FIXTURES / base, "baseline"),
        load_scorecards(FIXTURES / cand, "candidate"),
        [parse_threshold(t) for t in thresholds],
    )


def _strict(text: str) -> Any:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in the JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def single() -> ComparisonReport:
    return _report(
        "base/scorecard-run1.json",
        "cand/scorecard-run1.json",
        "totalCalls>=+100%",
        "opaqueCallPct > 0.2",
        f"{FROM_ZERO} >= +10%",
    )


def test_a_failed_threshold_fails_every_output_and_the_exit_code(single: ComparisonReport) -> None:
    assert single.failed and single.exit_code == THRESHOLD_FAILED
    assert single.summary == "3 of 3 threshold(s) failed"
    doc = _strict(single.texts["json"])
    assert (doc["thresholdsFailed"], doc["passed"]) == (3, False)
    assert [t["failed"] for t in doc["thresholds"]] == [True, True, True]
    assert "**Thresholds: 3 of 3 threshold(s) failed**" in single.texts["markdown"]
    assert "  3 of 3 threshold(s) failed" in single.texts["console"]
    assert single.texts["console"].count("  FAIL  ") == 3


def test_a_change_from_zero_is_said_so_and_never_infinity(single: ComparisonReport) -> None:
    doc = _strict(single.texts["json"])
    (metric,) = [m for m in doc["metrics"] if m["name"] == FROM_ZERO]
    assert (metric["changePct"], metric["fromZero"], metric["change"]) == (None, True, 50.0)
    (threshold,) = [t for t in doc["thresholds"] if t["metric"] == FROM_ZERO]
    assert (threshold["observed"], threshold["fromZero"]) == (None, True)
    assert re.search(rf"{re.escape(FROM_ZERO)} +0 +50 +\+50 +from 0\n", single.texts["console"])
    assert f"| `{FROM_ZERO}` | 0 | 50 | +50 | from 0 |" in single.texts["markdown"]


def _console_rows(text: str) -> set[str]:
    return {m.group(1) for m in re.finditer(r"^  ((?:[a-zA-Z]|operations\[)\S*) ", text, re.M)}


def test_the_console_and_the_markdown_show_the_same_metrics(single: ComparisonReport) -> None:
    markdown = set(re.findall(r"^\| `([^`]+)` \|", single.texts["markdown"], re.M))
    markdown -= {t["expression"] for t in _strict(single.texts["json"])["thresholds"]}
    assert markdown == _console_rows(single.texts["console"]) - {
        "metric",
        "baseline",
        "candidate",
        "FAIL",
    }
    assert {"totalCalls", "rateLimited.refusedCalls", FROM_ZERO} <= markdown


def test_directories_of_runs_say_what_the_runs_say_and_no_threshold_passes() -> None:
    report = _report("base", "cand")
    assert (report.failed, report.exit_code) == (False, 0)
    assert report.summary == "all 0 threshold(s) passed"
    assert (
        "Thresholds" not in report.texts["console"] and "Thresholds" not in report.texts["markdown"]
    )
    header = next(line for line in report.texts["console"].splitlines() if "change %" in line)
    assert header.rstrip().endswith("runs say")
    doc = _strict(report.texts["json"])
    assert (doc["baseline"]["runs"], doc["candidate"]["runs"]) == (4, 4)
    assert {m["verdict"] for m in doc["metrics"]} <= {
        "within spread",
        "beyond spread",
        "too few runs",
        "no data",
        "no change",
    }
