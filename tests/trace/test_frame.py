"""The frame: a projection's unread columns are placeholders that cost nothing and that a
computation needing them refuses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ghbench.analysis.analyze import analyze
from ghbench.scorecard import SCORECARD_COLUMNS
from ghbench.trace.frame import NA
from ghbench.trace.reader import read_trace


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    return path


def test_a_computation_refuses_a_frame_without_its_columns(tmp_path: Path) -> None:
    path = _write(tmp_path, b'{"timestamp":"2026-04-16T14:00:00Z","operation":"gh.pr.view"}\n')
    frame = read_trace(path, SCORECARD_COLUMNS)
    with pytest.raises(ValueError, match="exit_code"):
        analyze(frame)


def test_take_keeps_placeholders_cheap(tmp_path: Path) -> None:
    lines = [f'{{"timestamp":"2026-04-16T14:00:0{i}Z","httpStatus":{200 + i}}}' for i in range(5)]
    frame = read_trace(_write(tmp_path, "\n".join(lines).encode()), ("ts_ms", "http_status"))
    taken = frame.take(np.array([True, False, True, False, True]))
    assert taken.http_status.tolist() == [200, 202, 204]
    assert taken.graphql_cost.tolist() == [NA, NA, NA]
    assert taken.graphql_cost.strides == (0,)
    assert taken.columns == frame.columns
