"""The lab's result as text (``LabResult.text``): the table, then where its page and
Markdown were written, and nothing more when nothing was."""

from __future__ import annotations

from pathlib import Path

from ghbench.analysis.lab_render import lab_text
from ghbench.data import example_trace_path
from ghbench.harness.lab import run_lab


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
