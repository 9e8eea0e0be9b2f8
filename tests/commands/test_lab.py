"""``ghbench lab`` as a command: the table, then where its page and Markdown went; the
table alone as JSON; the out directory held. What each policy does to a fleet is
tests/analysis/test_lab.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ghbench.data import example_trace_path


def test_the_table_then_where_its_page_and_markdown_went(ghbench: Any, tmp_path: Path) -> None:
    ran = ghbench("lab", "--trace", str(example_trace_path()), "--policies", "cache")
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert [line.split()[0] for line in lines[-4:-2]] == ["none", "cache"]
    page, markdown = (
        tmp_path / "ghbench-out" / f"lab-example-trace{ext}" for ext in (".html", ".md")
    )
    assert lines[-2:] == [
        f"Report: {page.relative_to(tmp_path)}",
        f"Markdown: {markdown.relative_to(tmp_path)}",
    ]
    assert page.is_file() and markdown.is_file()


def test_json_is_the_table_alone(ghbench: Any) -> None:
    ran = ghbench("lab", "--trace", str(example_trace_path()), "--policies", "cache", "--json")
    assert ran.returncode == 0, ran.stderr
    doc = json.loads(ran.stdout)
    assert doc["kind"] == "lab" and doc["trace"] == str(example_trace_path())


def test_a_missing_trace_is_one_line(ghbench: Any, tmp_path: Path) -> None:
    ran = ghbench("lab", "--trace", str(tmp_path / "none.jsonl"))
    assert ran.returncode == 2
    assert ran.stderr.startswith("error: ") and "--trace" in ran.stderr
    assert not (tmp_path / "ghbench-out").exists()
