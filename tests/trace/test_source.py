"""Where a trace's bytes come from: files, real pipes and FIFOs (read once, as they
stream), over-long lines, and the line numbers warnings carry."""

from __future__ import annotations

import gzip
import json
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ghbench.cli import main as ghbench_main
from ghbench.errors import TraceError
from ghbench.trace import source
from ghbench.trace.reader import CUT_SHORT, read_rows, read_trace
from ghbench.trace.source import MAX_LINE_BYTES, line_numbers, open_trace

ROW = b'{"timestamp":"2026-04-16T14:00:%02d.000Z","operation":"gh.pr.list","ok":true}'


def _rows(n: int) -> bytes:
    return b"".join(ROW % (i % 60) + b"\n" for i in range(n))


@contextmanager
def _pipe(data: bytes) -> Iterator[Path]:
    """A real pipe that a thread fills with ``data``; its path is ``/dev/fd/N``."""
    read_end, write_end = os.pipe()

    def fill() -> None:
        with os.fdopen(write_end, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=fill)
    writer.start()
    try:
        yield Path(f"/dev/fd/{read_end}")
    finally:
        writer.join()
        os.close(read_end)


def test_a_pipe_is_read_once_as_it_streams(tmp_path: Path) -> None:
    data = _rows(50) + b"garbage\n" + (ROW % 1)[:30]
    with _pipe(data) as path:
        frame = read_trace(path)
    assert (len(frame), frame.skipped_lines) == (50, 2)
    assert [(w.line, w.message == CUT_SHORT) for w in frame.warnings] == [(51, False), (52, True)]
    with _pipe(_rows(3)) as path:
        assert len(read_rows(path)) == 3


def test_a_fifo_is_read_once(tmp_path: Path) -> None:
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)

    def fill() -> None:
        with open(fifo, "wb") as out:
            out.write(_rows(7))

    writer = threading.Thread(target=fill)
    writer.start()
    frame = read_trace(fifo)
    writer.join()
    assert len(frame) == 7


def test_an_empty_pipe_says_so() -> None:
    with _pipe(b"") as path, pytest.raises(TraceError, match=r"\(a pipe\) gave no data"):
        read_trace(path)


def test_the_copy_of_a_pipe_is_gone_after_the_read() -> None:
    with _pipe(_rows(2)) as path, open_trace(path) as opened:
        copy = opened.path
        assert opened.streamed and copy.is_file() and copy != path
    assert not copy.exists()


@pytest.mark.parametrize("streamed", [False, True], ids=["file", "pipe"])
def test_a_line_longer_than_a_row_may_be_is_skipped_unread(tmp_path: Path, streamed: bool) -> None:
    huge = b'{"timestamp":"2026-04-16T14:00:00Z","args":["' + b"a" * (MAX_LINE_BYTES + 10) + b'"]}'
    data = b"\n".join([ROW % 1, huge, ROW % 2, b"", ROW % 3, huge])  # no newline at the end
    if streamed:
        with _pipe(data) as path:
            frame = read_trace(path)
    else:
        path = tmp_path / "long.jsonl"
        path.write_bytes(data)
        frame = read_trace(path)
    assert (len(frame), frame.skipped_lines, frame.lines_read) == (3, 2, 5)
    message = f"line is {len(huge):,} bytes, longer than a trace row may be (16 MiB)"
    assert [(w.line, w.message) for w in frame.warnings] == [(2, message), (6, message)]


def test_line_numbers_count_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"a\n\n  \r\nb\nc\n\t\nd")
    assert line_numbers(path, [0, 1, 3], rows=4) == [1, 4, 7]
    path.write_bytes(b"a\nb\nc")
    assert line_numbers(path, [2], rows=3) == [3]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing.jsonl", "does not exist"),
        (lambda p: p, "is a directory"),
        (lambda p: _socket(p / "s.sock"), "is not a file or a pipe"),
    ],
)
def test_unusable_paths_say_what_is_wrong(tmp_path: Path, make: object, message: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(TraceError, match=message) as info:
        read_trace(path, empty_ok=True)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def _socket(path: Path) -> Path:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()
    assert stat.S_ISSOCK(path.stat().st_mode)
    return path


def test_an_unreadable_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(_rows(1))
    path.chmod(0)
    if os.access(path, os.R_OK):  # root reads anything: ask as a user without the right
        monkeypatch.setattr(source.os, "access", lambda p, mode: False)
    with pytest.raises(TraceError, match=r"cannot read trace .*: permission denied"):
        read_trace(path)


# --- the commands, on a real pipe -----------------------------------------------------


def _command(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        ghbench_main(argv)
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


@pytest.mark.needs("bash", "gzip")
def test_report_reads_a_process_substitution(tmp_path: Path) -> None:
    # the issue's own case: --trace <(zcat t.gz) said "is empty" with 50 rows in the pipe
    gzipped = tmp_path / "t.jsonl.gz"
    gzipped.write_bytes(gzip.compress(_rows(50)))
    out = tmp_path / "out"
    command = f'"{sys.executable}" -m ghbench report --json --out "{out}" --trace'
    script = f'{command} <(gzip -dc "{gzipped}")'
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scorecard"]["totalCalls"] == 50


@pytest.mark.parametrize("command", [["summarize", "--json"], ["analyze", "--json"]])
def test_summarize_and_analyze_read_a_pipe(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with _pipe(_rows(50) + b"oops\n") as path:
        code, out, err = _command([*command, str(path)], capsys)
    assert code == 0, err
    assert json.loads(out)["rows"] == 50
    assert "skipped 1 unreadable line(s)" in err and "line 51: not a JSON object" in err


@pytest.mark.parametrize("command", [["report", "--trace"], ["summarize"], ["analyze"]])
def test_commands_on_an_empty_pipe_say_it_gave_nothing(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with _pipe(b"") as path:
        code, out, err = _command([*command, str(path)], capsys)
    assert code == 1 and out == ""
    assert err == f"error: trace {path} (a pipe) gave no data; did the command feeding it fail?\n"
