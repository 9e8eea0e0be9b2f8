"""The text reports' parts: numbers with separators and ``-`` for none, shares of
nothing, tables aligned and cut at ``max_rows``, and ``read_report``'s text and strict
JSON for a trace file, a rate under 10 minutes marked as extrapolated."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from ghbench.analysis.text import SHORT_MARK, num, pct, read_report, summary_lines, table
from ghbench.trace.schema import TraceRow

from .conftest import rows_fixture


def test_numbers_and_shares() -> None:
    assert (num(1234567), num(1234.5, 1), num(None), num(0.0, 2)) == (
        "1,234,567",
        "1,234.5",
        "-",
        "0.00",
    )
    assert (pct(1, 3), pct(0, 0), pct(5, 0)) == ("33.3%", "-", "-")  # no whole: no share


def test_a_table_aligns_its_columns_and_says_how_many_rows_it_left_out() -> None:
    rows = [("gh.pr.view", "1,200"), ("gh.api", "7"), ("gh.pr.list", "30")]
    assert table(("operation", "calls"), rows, max_rows=2) == [
        "  operation   calls",
        "  gh.pr.view  1,200",
        "  gh.api          7",
        "  … 1 more",
    ]
    assert len(table(("a", "b"), rows, max_rows=None)) == 4  # no limit: every row
    assert table(("a", "b"), []) == ["  a  b"]


def test_a_row_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ValueError):
        table(("a", "b"), [("only one",)])


def _refuse(constant: str) -> None:
    raise AssertionError(f"{constant} in the JSON")


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    path = tmp_path / "trace.jsonl"
    path.write_bytes(b"\n".join(msgspec.json.encode(r) for r in rows_fixture()) + b"\n")
    return path


def test_a_summary_of_a_trace_as_text_and_as_strict_json(trace: Path) -> None:
    report = read_report(trace, "summarize")
    text = report.text(title="Summary of t", as_json=False)
    assert text.splitlines()[0] == "Summary of t"
    assert f"{SHORT_MARK} under 10m 0s: extrapolated, read as rough" in text
    doc = json.loads(report.text(title="ignored", as_json=True), parse_constant=_refuse)
    assert doc["kind"] == "summary" and doc["rows"] == len(report.frame) - 1  # control row out
    assert summary_lines(report.result)[0] == "Trace summary"  # type: ignore[arg-type]


def test_an_analysis_of_a_trace_reads_the_columns_it_needs(trace: Path) -> None:
    report = read_report(trace, "analyze")
    text = report.text(title="Trace analysis", as_json=False)
    assert "Rate limits\n  none ran out or refused a call" in text
    failures = text.split("Failures by httpStatus\n")[1].split("\n\n")[0].splitlines()
    assert failures == [
        "  status    calls",
        "  (opaque)      1",
        "  304           1",
        "  502           1",
    ]
    assert json.loads(report.text(title="", as_json=True))["kind"] == "analysis"


def test_a_row_refused_by_a_rate_limit_is_named_in_the_analysis(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    refused = TraceRow(
        timestamp="2026-04-16T14:00:00.000Z",
        operation="gh.api.graphql",
        ok=False,
        httpStatus=403,
        rateLimitResource="core",
        rateLimitRemaining=0,
        rateLimitLimit=5000,
        rateLimitReset=1776351600,
    )
    path.write_bytes(msgspec.json.encode(refused) + b"\n")
    text = read_report(path, "analyze").text(title="t", as_json=False)
    assert "  ! " in text and "none ran out" not in text
