"""Where a trace's bytes come from, and the line numbers of what the reader skipped.

``open_trace(path)`` checks the path, saying exactly what is wrong (missing, a
directory, unreadable, not a file or a pipe), and gives the reader a regular file:

- a regular file is read where it is;
- a pipe or FIFO (``--trace <(zcat t.gz)``) or a character device is read once, as it
  streams, into a private temporary copy that is gone when the read ends;
- a line longer than ``MAX_LINE_BYTES`` (no writer writes one) is never held: it is left
  blank in a copy and reported with its length.

DuckDB yields one row per non-blank line, in file order; ``line_numbers`` maps those
ordinals back to 1-based line numbers (counting blank lines only when there are some).
"""

from __future__ import annotations

import mmap
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ghbench.errors import TraceError

__all__ = ["MAX_LINE_BYTES", "TraceInput", "line_numbers", "open_trace"]

MAX_LINE_BYTES = 16 << 20  # longer lines are skipped (DuckDB's read buffers are this big)
_BLOCK = 1 << 20
_HINT = "pass the path of an AO_GH_TRACE_FILE trace"
_NEWLINE = ord("\n")
_BLANK = b" \t\r\x0b\x0c"  # what a blank line may hold (the whitespace DuckDB skips)
_BLANKS = frozenset(_BLANK)


@dataclass
class TraceInput:
    """A trace ready to read: ``path`` is a regular file holding its bytes."""

    name: Path  # the path as given, for messages
    path: Path
    size: int
    streamed: bool = False  # read from a pipe or device into a copy
    long_lines: dict[int, int] = field(default_factory=dict)  # line number -> bytes
    cut_short: bool = False  # the last line has no newline at its end

    def describe(self) -> str:
        return f"trace {self.name}" + (" (a pipe)" if self.streamed else "")


def _check(path: Path) -> os.stat_result:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise TraceError(f"trace {path} does not exist; {_HINT}") from None
    except OSError as exc:
        raise TraceError(f"cannot read trace {path}: {exc.strerror}; {_HINT}") from None
    if stat.S_ISDIR(st.st_mode):
        raise TraceError(f"trace {path} is a directory; {_HINT}")
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode)):
        raise TraceError(f"trace {path} is not a file or a pipe; {_HINT}")
    if not os.access(path, os.R_OK):
        raise TraceError(f"cannot read trace {path}: permission denied; {_HINT}")
    return st


@contextmanager
def open_trace(path: Path | str) -> Iterator[TraceInput]:
    """The trace at ``path`` as a regular file for the reader (a copy when it streams
    or has an over-long line); the copy is removed when the block ends."""
    path = Path(path)
    st = _check(path)
    regular = stat.S_ISREG(st.st_mode)
    if regular and not _has_long_line(path, st.st_size):
        yield TraceInput(path, path, st.st_size, cut_short=_cut_short(path, st.st_size))
        return
    with tempfile.TemporaryDirectory(prefix="ghbench-trace-") as tmp:
        copy = Path(tmp) / "trace.jsonl"
        try:
            with open(path, "rb") as src, open(copy, "wb") as dst:
                long_lines, size = _copy_lines(src, dst)
        except OSError as exc:
            raise TraceError(f"cannot read trace {path}: {exc.strerror}; {_HINT}") from None
        copied = copy.stat().st_size
        yield TraceInput(path, copy, size, not regular, long_lines, _cut_short(copy, copied))


def _cut_short(path: Path, size: int) -> bool:
    """Whether the text after the last newline is a line (not only blanks)."""
    with open(path, "rb") as fh:
        end = size
        while end > 0:
            start = max(0, end - 4096)
            fh.seek(start)
            for byte in reversed(fh.read(end - start)):
                if byte == _NEWLINE:
                    return False
                if byte not in _BLANKS:
                    return True
            end = start
    return False


def _copy_lines(src: BinaryIO, dst: BinaryIO) -> tuple[dict[int, int], int]:
    """Copy ``src`` to ``dst`` as it streams, each line longer than MAX_LINE_BYTES left
    blank; return those lines' lengths by line number, and the bytes read.

    Only a line that runs across blocks can be that long (a block is shorter), so each
    block is written whole but for the piece that continues the line before it."""
    long_lines: dict[int, int] = {}
    number = 1  # the line being copied: its number, length so far, and offset in dst
    length = start = written = size = 0
    while block := src.read(_BLOCK):
        size += len(block)
        newline = block.find(b"\n")
        head = block if newline < 0 else block[:newline]
        if length <= MAX_LINE_BYTES < length + len(head):  # too long: take it back
            dst.seek(start)
            dst.truncate()
            written = start
        length += len(head)
        if length <= MAX_LINE_BYTES:
            dst.write(head)
            written += len(head)
        if newline < 0:
            continue
        if length > MAX_LINE_BYTES:
            long_lines[number] = length
        rest = block[newline:]
        dst.write(rest)
        written += len(rest)
        number += rest.count(b"\n")
        length = len(rest) - rest.rfind(b"\n") - 1
        start = written - length
    if length > MAX_LINE_BYTES:
        long_lines[number] = length
    return long_lines, size


def _has_long_line(path: Path, size: int) -> bool:
    """Whether a line is longer than MAX_LINE_BYTES (True when it cannot be told).

    From each newline, the next must come within MAX_LINE_BYTES: searching each such
    window backwards finds one within a row's length, so a file costs a few searches
    per MAX_LINE_BYTES, not a pass over its lines."""
    if size <= MAX_LINE_BYTES:
        return False
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            last = -1  # the last newline seen
            while size - last - 1 > MAX_LINE_BYTES:
                last = mm.rfind(b"\n", last + 1, last + 2 + MAX_LINE_BYTES)
                if last < 0:
                    return True
            return False
    except (OSError, ValueError):
        return True


def line_numbers(path: Path, ordinals: Sequence[int], rows: int) -> list[int]:
    """The 1-based line number of each non-blank line ``ordinals`` names (0-based,
    ascending); ``rows`` is how many non-blank lines the file has."""
    if not ordinals:
        return []
    lines = 0
    with open(path, "rb") as fh:
        last = b""
        while block := fh.read(8 * _BLOCK):
            lines += block.count(b"\n")
            last = block[-1:]
    lines += bool(last) and last != b"\n"
    if lines == rows:  # no blank line: the ordinal is the line
        return [o + 1 for o in ordinals]
    found: list[int] = []
    wanted = iter(ordinals)
    target = next(wanted)
    ordinal = -1
    for number, line in enumerate(_lines(path), start=1):
        if line.strip(_BLANK):
            ordinal += 1
            while ordinal == target:
                found.append(number)
                target = next(wanted, -1)
            if target < 0:
                break
    return found


def _lines(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as fh:
        tail = b""
        while block := fh.read(8 * _BLOCK):
            parts = (tail + block).split(b"\n")
            tail = parts.pop()
            yield from parts
        if tail:
            yield tail
