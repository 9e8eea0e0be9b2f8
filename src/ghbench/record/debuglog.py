"""Split gh's ``GH_DEBUG=api`` stderr into HTTP exchanges and what the user should see.

gh logs each HTTP round trip through httpretty as a block (``ghbench.record.exchange``
shows one). Everything from a ``* Request at`` to the ``* Request took`` that ends the
last request in flight is debug output (requests gh makes concurrently interleave their
writes, read by ``ghbench.record.interleaved``); everything else on stderr is gh's own
and passes through byte for byte, in order.

What is shown depends on what the *user* asked for (``DebugMode``): nothing extra
(``OFF``: every block and gh's ``[git …]`` command echo are stripped), gh's
short form (``BASIC``: the ``*`` lines only, as ``GH_DEBUG=1`` prints them), or
everything (``VERBOSE``: the user set ``GH_DEBUG=api`` themselves).

Pure: bytes in, bytes and ``Exchange`` values out. No files, no clock.
"""

from __future__ import annotations

import enum
import re

from ghbench.record.exchange import BLOCK_END, BLOCK_START, Exchange, parse_block
from ghbench.record.interleaved import parse_overlapping

__all__ = [
    "DebugLogSplitter",
    "DebugMode",
    "debug_mode",
    "split_debug_log",
]

# gh echoes each git (or other) subprocess it runs as ``[git remote -v]`` when debug is on.
_COMMAND_ECHO = re.compile(rb"\[[^\s\]][^\n]*\]\r?\n")
# "*" lines httpretty writes only while logging bodies (absent with GH_DEBUG=1).
_BODY_NOTES = (
    b"* body is too long",
    b"* cannot read body",
    b"* body cannot be formatted",
    b"* error on request body filter",
    b"* error on response body filter",
    b"* panic while",
)
_FALSY_GH_DEBUG = frozenset({"", "0", "false", "no"})
_TRUTHY_LEGACY_DEBUG = frozenset({"true", "1", "yes", "api"})


class DebugMode(enum.Enum):
    """How much of gh's debug log the user asked to see."""

    OFF = "off"
    BASIC = "basic"
    VERBOSE = "verbose"


def debug_mode(gh_debug: str | None, legacy_debug: str | None) -> DebugMode:
    """What gh itself would log for these ``GH_DEBUG``/``DEBUG`` values (None = unset).

    ``GH_DEBUG`` wins when set, even to a false value; the legacy ``DEBUG`` is read
    only when ``GH_DEBUG`` is unset. A value containing ``api`` logs headers and bodies.
    """
    if gh_debug is None:
        value = legacy_debug or ""
        enabled = value in _TRUTHY_LEGACY_DEBUG
    else:
        value = gh_debug
        enabled = value not in _FALSY_GH_DEBUG
    if not enabled:
        return DebugMode.OFF
    return DebugMode.VERBOSE if "api" in value else DebugMode.BASIC


class DebugLogSplitter:
    """Incremental splitter: ``feed`` gh's stderr, get back what the user should see.

    A debug group opens at ``* Request at`` and closes when every request opened in it
    has logged ``* Request took``; everything in between is debug output, even when
    concurrent requests interleave their lines. Exchanges accumulate in
    ``exchanges``. Call ``finish`` once at EOF: it returns any held bytes and closes a
    group the log cut short (gh killed mid-request). A partial line outside a group is
    held only while it could still become a debug line, so gh's prompts and progress
    output reach the user without waiting for a newline.
    """

    def __init__(self, mode: DebugMode) -> None:
        self.mode = mode
        self.exchanges: list[Exchange] = []
        self._pending = b""
        self._streaming = False  # the current line is gh's own and already flowing out
        self._group: list[bytes] | None = None
        self._open = 0  # requests started in the group and not finished yet
        self._started = 0  # requests started in the group

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        buf = self._pending + data if self._pending else data
        self._pending = b""
        pos, n = 0, len(buf)
        while pos < n:
            nl = buf.find(b"\n", pos)
            if self._streaming:
                end = n if nl < 0 else nl + 1
                out += buf[pos:end]
                pos = end
                self._streaming = nl < 0
                continue
            if nl < 0:
                rest = buf[pos:]
                if self._group is None and not self._may_become_debug(rest):
                    out += rest
                    self._streaming = True
                else:
                    self._pending = rest
                break
            out += self._take_line(buf[pos : nl + 1])
            pos = nl + 1
        return bytes(out)

    def finish(self) -> bytes:
        out = bytearray()
        if self._pending:
            tail, self._pending = self._pending, b""
            out += self._take_line(tail)
        if self._group is not None:
            self._close_group(complete=False)
        return bytes(out)

    def _may_become_debug(self, partial: bytes) -> bool:
        probe = partial[: len(BLOCK_START)]
        if BLOCK_START.startswith(probe):
            return True
        return self.mode is DebugMode.OFF and partial.startswith(b"[") and b"\n" not in partial

    def _take_line(self, line: bytes) -> bytes:
        if self._group is None:
            if line.startswith(BLOCK_START):
                self._group = []
            elif self.mode is DebugMode.OFF and _COMMAND_ECHO.fullmatch(line):
                return b""
            else:
                return line
        assert self._group is not None
        self._group.append(line)
        if line.startswith(BLOCK_START):
            self._open += 1
            self._started += 1
        elif line.startswith(BLOCK_END):
            self._open -= 1
            if self._open <= 0:
                self._close_group(complete=True)
        return self._shown(line)

    def _shown(self, line: bytes) -> bytes:
        if self.mode is DebugMode.VERBOSE:
            return line
        if self.mode is DebugMode.BASIC and line.startswith(b"* "):
            # GH_DEBUG=1 prints the "*" lines (times, URL, transport errors) but not
            # the notes about bodies, which only the header/body logging adds.
            return b"" if line.startswith(_BODY_NOTES) else line
        return b""

    def _close_group(self, complete: bool) -> None:
        raw, started = self._group or [], self._started
        self._group, self._open, self._started = None, 0, 0
        if started == 1:
            self.exchanges.append(parse_block(raw, complete))
        elif started > 1:
            self.exchanges.extend(parse_overlapping(raw, complete))


def split_debug_log(data: bytes, mode: DebugMode) -> tuple[list[Exchange], bytes]:
    """Split a whole captured stderr at once: (exchanges, what the user should see)."""
    splitter = DebugLogSplitter(mode)
    shown = splitter.feed(data) + splitter.finish()
    return splitter.exchanges, shown
