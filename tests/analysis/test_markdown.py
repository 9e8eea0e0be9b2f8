"""The one Markdown table: its lines by hand, and what a GitHub-flavoured Markdown reader
makes of them (markdown-it-py with its table rule, as GitHub renders a PR comment): the
alignment each column asks for, a ``|`` inside a cell kept as text, and the golden
reports reading the same whichever way their separator rows are spelled."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt
from tests.golden_files import GOLDEN

from ghbench.analysis.markdown import markdown_table, md_escape

READER = MarkdownIt("commonmark").enable("table")


def test_the_lines_by_hand() -> None:
    assert markdown_table(["metric", "value", "note"], [["calls", "1,204", "a|b"]], "lr") == [
        "| metric | value | note |",
        "|---|---:|---|",
        "| calls | 1,204 | a\\|b |",
    ]
    assert markdown_table(["only"], []) == ["| only |", "|---|"]
    assert md_escape("`a|b`") == "`a\\|b`"


@pytest.mark.parametrize("align", ["lrr", "x", "c"])
def test_an_alignment_that_does_not_fit_the_columns_is_refused(align: str) -> None:
    with pytest.raises(ValueError, match="one letter, l or r, for each of 2 columns"):
        markdown_table(["a", "b"], [], align)


def test_a_reader_sees_the_alignment_and_the_cells() -> None:
    html = READER.render("\n".join(markdown_table(["a", "b"], [["x|y", "`p|q`"]], "lr")))
    assert '<th>a</th>\n<th style="text-align:right">b</th>' in html
    assert '<td>x|y</td>\n<td style="text-align:right"><code>p|q</code></td>' in html


def _respelled(text: str) -> str:
    """Every separator row spaced, right alignment as ``--:``: how compare spelled it."""

    def respell(row: re.Match[str]) -> str:
        cells = row.group(0).strip("|").split("|")
        return "| " + " | ".join("--:" if c.endswith(":") else "---" for c in cells) + " |"

    return re.sub(r"(?m)^\|(?:-{3,}:?\|)+$", respell, text)


@pytest.mark.parametrize("name", ["compare-single.md", "compare-runs.md", "matrix-baseline.md"])
def test_the_separator_spelling_changes_nothing_a_reader_sees(name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    assert _respelled(text) != text
    assert READER.render(_respelled(text)) == READER.render(text)
