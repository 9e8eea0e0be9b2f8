"""A writer counts every row it could not write, and a child process's writer tells its
parent over a pipe. The faults are the operating system's own: a file-size limit
(RLIMIT_FSIZE cuts a write short, as a full disk does), /dev/full (no space left on
device), a child killed with SIGKILL."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec
import pytest

from ghbench.trace.losses import LOSS_FD_ENV, LossPipe, LossReporter
from ghbench.trace.reader import CUT_SHORT, read_trace
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceLoss, TraceWriter
from tools import coverage_env


def _row(n: int) -> TraceRow:
    return TraceRow(timestamp=f"2026-04-16T14:17:{n:02d}.000Z", operation=f"gh.api.op-{n}")


@contextmanager
def _file_size_limit(limit: int) -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_a_row_cut_short_is_lost_and_never_swallows_the_next(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    line = len(msgspec.json.encode(_row(1))) + 1  # every row here is as long
    with TraceWriter(path) as writer:
        with _file_size_limit(2 * line + line // 2):  # room for two rows and half a third
            assert writer.write(_row(1)) and writer.write(_row(2))
            assert not writer.write(_row(3))  # cut short
            assert not writer.write(_row(4))  # no room at all
        assert writer.write(_row(5))  # room again: on a line of its own
        assert (writer.rows_written, writer.rows_lost) == (3, 2)
        assert writer.loss() == TraceLoss(trace=str(path), rows=2, reason="File too large")
    lines = path.read_bytes().split(b"\n")
    assert msgspec.json.encode(_row(3)).startswith(lines[2])  # the partial row, ended
    frame = read_trace(path)
    assert [frame.operation.value(i) for i in range(len(frame))] == [
        "gh.api.op-1",
        "gh.api.op-2",
        "gh.api.op-5",
    ]
    assert frame.skipped_lines == 1


def test_a_row_cut_short_of_only_its_newline_is_a_row_and_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    line = len(msgspec.json.encode(_row(1))) + 1
    with TraceWriter(path) as writer:
        with _file_size_limit(2 * line - 1):  # the second row's newline finds no room
            assert writer.write(_row(1)) and writer.write(_row(2))
            assert not writer.write(_row(3))  # no room at all: lost
        assert writer.write(_row(4))
        assert (writer.rows_written, writer.rows_lost) == (3, 1)
    frame = read_trace(path)  # the reader agrees: three rows, none cut short
    assert [frame.operation.value(i) for i in range(len(frame))] == [
        "gh.api.op-1",
        "gh.api.op-2",
        "gh.api.op-4",
    ]
    assert frame.skipped_lines == 0


def test_a_trace_that_ends_cut_short_counts_only_its_whole_rows(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    line = len(msgspec.json.encode(_row(1))) + 1
    with _file_size_limit(2 * line + 10), TraceWriter(path) as writer:
        for n in range(1, 4):
            writer.write(_row(n))
    assert writer.rows_lost == 1
    frame = read_trace(path)
    assert len(frame) == 2 and frame.skipped_lines == 1
    assert [w.message for w in frame.warnings] == [CUT_SHORT]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_every_row_a_full_device_refuses_is_counted() -> None:
    with TraceWriter("/dev/full") as writer:
        assert writer.loss() is None
        for n in range(3):
            assert not writer.write(_row(n))
    assert writer.loss() == TraceLoss(trace="/dev/full", rows=3, reason="No space left on device")


def test_rows_for_a_trace_that_never_opened_are_lost(tmp_path: Path) -> None:
    writer = TraceWriter(tmp_path)  # a directory
    assert not writer.write(_row(1))
    loss = writer.loss()
    assert loss is not None and loss.rows == 1 and loss.reason == "Is a directory"


_CHILD = """
import os, sys, time
from ghbench.trace.losses import LossReporter
from ghbench.trace.schema import TraceRow
from ghbench.workload.process import open_trace_sink
write, writer = open_trace_sink(sys.argv[1], (), LossReporter.from_env(os.environ))
for n in range(4):
    write(TraceRow(timestamp="2026-04-16T14:17:00.000Z"))
print("written", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_child_tells_its_parent_each_lost_row_even_when_killed() -> None:
    pipe = LossPipe()
    env = {**coverage_env(), **pipe.child_env(), "PATH": os.environ.get("PATH", "")}
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, "/dev/full"],
        env=env,
        pass_fds=(pipe.child_fd,),
        stdout=subprocess.PIPE,
        text=True,
    )
    pipe.child_started()
    try:
        assert child.stdout is not None and child.stdout.readline() == "written\n"
    finally:
        child.send_signal(signal.SIGKILL)  # no exit handler runs: the last report stands
        child.wait()
        assert child.stdout is not None
        child.stdout.close()
    assert pipe.losses() == [TraceLoss(trace="/dev/full", rows=4, reason="No space left on device")]


def test_a_parent_that_asked_nothing_gets_no_reporter() -> None:
    assert LossReporter.from_env({}) is None
    assert LossReporter.from_env({LOSS_FD_ENV: "not-a-number"}) is None
    # a number that is no open descriptor: nobody to tell
    assert LossReporter.from_env({LOSS_FD_ENV: "999999"}) is None


def test_a_pipe_whose_child_never_started_ends_with_no_loss() -> None:
    assert LossPipe().losses() == []
