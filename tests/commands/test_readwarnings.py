"""What a trace reader skipped, on stderr: the count, the first lines by number, and how
many more (``report_read_problems``), through ``ghbench summarize`` and ``report``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from tests.analysis.conftest import rows_fixture

from ghbench.commands.readwarnings import SHOWN_READ_WARNINGS


def _trace(path: Path, bad: int) -> Path:
    enc = msgspec.json.Encoder()
    good = [enc.encode(r) for r in rows_fixture()]
    path.write_bytes(b"\n".join(good) + b"\n" + b"not json\n" * bad)
    return path


@pytest.mark.parametrize("bad", [1, SHOWN_READ_WARNINGS, SHOWN_READ_WARNINGS + 2])
def test_the_count_then_the_first_lines_then_how_many_more(
    ghbench: Any, tmp_path: Path, bad: int
) -> None:
    trace = _trace(tmp_path / "t.jsonl", bad)
    ran = ghbench("summarize", str(trace))
    assert ran.returncode == 0, ran.stderr
    lines = ran.stderr.splitlines()
    assert lines[0] == f"warning: skipped {bad:,} unreadable line(s) in {trace}"
    first = len(rows_fixture()) + 1
    shown = min(bad, SHOWN_READ_WARNINGS)
    assert [line.split(":")[0] for line in lines[1 : 1 + shown]] == [
        f"  line {n}" for n in range(first, first + shown)
    ]
    more = lines[1 + shown :]
    assert more == ([] if bad <= SHOWN_READ_WARNINGS else [f"  … {bad - shown} more"])


def test_report_says_where_the_rest_are_listed(ghbench: Any, tmp_path: Path) -> None:
    trace = _trace(tmp_path / "t.jsonl", SHOWN_READ_WARNINGS + 1)
    ran = ghbench("report", "--trace", str(trace), "--out", "out")
    assert ran.returncode == 0, ran.stderr
    assert "  … 1 more; the artifact's readWarnings lists them" in ran.stderr.splitlines()


def test_a_clean_trace_says_nothing(ghbench: Any, tmp_path: Path) -> None:
    ran = ghbench("summarize", str(_trace(tmp_path / "t.jsonl", 0)))
    assert ran.returncode == 0 and ran.stderr == ""
