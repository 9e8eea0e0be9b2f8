"""ghbench.harness.lab: ``ghbench lab`` in process on the packaged example trace (and
an agents' trace beside it): the choices ``--policies`` names, the table on a budget's
limits, its page and Markdown written beside each other, and what is refused. (The
table's figures: tests/analysis/test_lab.py; on the real AO 0.12.6 daemon's trace:
tests/realao/test_ao_daemon.py.)

The lab's result as text (``LabResult.text``): the table, then where its page and
Markdown were written, and nothing more when nothing was."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.analysis.lab import LAB_CHOICES
from ghbench.analysis.lab_render import lab_text
from ghbench.budgets import Budget
from ghbench.data import example_trace_path
from ghbench.errors import UsageError
from ghbench.harness.lab import lab_choices, run_lab
from ghbench.policies.spec import Policies, parse_policies
from ghbench.trace.files import agent_trace_path


def test_policies_choices() -> None:
    assert lab_choices(" all ") == LAB_CHOICES
    assert lab_choices("none") == (Policies(),)
    assert lab_choices("cache+gate") == (Policies(), parse_policies("cache+gate"))
    with pytest.raises(UsageError, match="--policies"):
        lab_choices("cahce")


def test_the_table_on_a_budget_and_its_page_and_markdown(tmp_path: Path) -> None:
    trace = example_trace_path()
    plain = run_lab(trace, policies="cache", sessions=None, out_dir=None)
    assert (plain.page_path, plain.markdown_path) == (None, None)  # nothing written
    assert plain.table.limits == {"graphql": 5000.0, "core": 5000.0}  # a user's token
    assert [r.policies for r in plain.table.table] == ["none", "cache"]
    app = run_lab(
        trace,
        policies="cache",
        sessions=4,
        out_dir=tmp_path / "out",
        budget=Budget(kind="app", repos=40),
    )
    assert app.table.limits == {"graphql": 6000.0, "core": 6000.0}  # 5,000 + 50 per repo over 20
    assert app.table.sessions == 4
    assert app.page_path is not None and app.markdown_path is not None
    assert app.page_path.parent == app.markdown_path.parent == tmp_path / "out"
    assert (app.page_path.stem, app.markdown_path.stem) == ("lab-example-trace",) * 2
    again = run_lab(trace, policies="cache", sessions=4, out_dir=tmp_path / "out")
    assert again.page_path != app.page_path  # never over an earlier table


def test_the_agents_trace_beside_is_read_too(tmp_path: Path) -> None:
    trace = tmp_path / "gh-trace-bench-1.jsonl"
    lines = example_trace_path().read_text().splitlines(keepends=True)
    trace.write_text("".join(lines[:100]))
    alone = run_lab(trace, policies="none", sessions=None, out_dir=None).table.rows
    agent_trace_path(trace).write_text("".join(lines[100:]))
    both = run_lab(trace, policies="none", sessions=None, out_dir=None).table.rows
    assert both > alone


def test_a_trace_that_is_missing_or_has_nothing_to_price_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"--trace .*: no such file"):
        run_lab(tmp_path / "missing.jsonl", policies="all", sessions=None, out_dir=tmp_path)
    control = tmp_path / "control.jsonl"  # the harness's own calls: nothing of the fleet's
    control.write_text(
        '{"timestamp":"2026-12-06T10:00:00Z","component":"benchmark-control",'
        '"operation":"rest.rate_limit","ok":true}\n'
    )
    with pytest.raises(UsageError, match="no priced calls over a span of time"):
        run_lab(control, policies="all", sessions=None, out_dir=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_table_then_where_it_was_written(tmp_path: Path) -> None:
    result = run_lab(example_trace_path(), policies="cache", sessions=None, out_dir=tmp_path)
    table = lab_text(result.table.json())
    assert result.text() == (
        f"{table}Report: {result.page_path}\nMarkdown: {result.markdown_path}\n"
    )
    assert result.page_path is not None and result.page_path.parent == tmp_path


def test_without_a_directory_the_table_alone() -> None:
    result = run_lab(example_trace_path(), policies="cache", sessions=None, out_dir=None)
    assert result.text() == lab_text(result.table.json())
