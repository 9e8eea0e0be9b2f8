"""What a command prints on stdout: ``--format`` against its shorthands, a trend
tracker's document alone on stdout, and the console scorecard with its files."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghbench.commands.history import resolve_format
from ghbench.errors import UsageError
from ghbench.runspec.flags import HISTORY_FORMATS


def test_the_format_or_the_one_shorthand_or_the_default() -> None:
    assert resolve_format(None, "text") == "text"
    assert resolve_format(None, "text", json=True, markdown=False) == "json"
    assert resolve_format("bmf", "text", json=False) == "bmf"
    assert resolve_format("json", "text", json=True) == "json"  # they agree


@pytest.mark.parametrize(
    ("fmt", "shorthands", "message"),
    [
        ("bmf", {"json": True}, "--json and --format bmf: choose one output"),
        (None, {"json": True, "markdown": True}, "--json and --markdown: choose one output"),
    ],
)
def test_two_outputs_that_disagree_are_a_usage_error(
    fmt: str | None, shorthands: dict[str, bool], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        resolve_format(fmt, "text", **shorthands)


@pytest.mark.parametrize("fmt", HISTORY_FORMATS)
def test_a_trackers_format_is_the_one_document_on_stdout(ghbench: Any, fmt: str) -> None:
    ran = ghbench("report", "--example", "--format", fmt, "--out", "out")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)
    assert [line.split(":")[0] for line in ran.stderr.splitlines()] == ["scorecard", "report page"]


def test_the_console_scorecard_ends_with_where_its_files_are(ghbench: Any) -> None:
    ran = ghbench("report", "--example", "--out", "out")
    assert ran.returncode == 0, ran.stderr
    assert "\x1b[" not in ran.stdout  # no colour off a terminal
    for label in ("Trace", "Scorecard", "Report"):
        assert f"{label}:" in ran.stdout
    assert ran.stderr == ""


def test_json_is_the_artifact_as_its_file_holds_it(ghbench: Any, tmp_path: Any) -> None:
    ran = ghbench("report", "--example", "--json", "--out", "out")
    assert ran.returncode == 0, ran.stderr
    (card,) = (tmp_path / "out").glob("scorecard-*.json")
    assert ran.stdout.encode() == card.read_bytes()
