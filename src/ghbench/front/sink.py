"""Where the front's rows go, and what it counted, phase by phase."""

from __future__ import annotations

from ghbench.front.settings import FrontCounts
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceWriter

__all__ = ["TraceSink"]


class TraceSink:
    """The current phase's trace (or none: untraced) and counts; ``switch`` ends a phase.

    Rows go through the project's ``TraceWriter``: one ``O_APPEND`` write per row, every
    string scrubbed of token shapes. A row that cannot be written is counted lost, and
    the first failure becomes a warning."""

    def __init__(self, path: str | None) -> None:
        self.counts = FrontCounts()
        self._writer: TraceWriter | None = None
        self._open(path)

    def _open(self, path: str | None) -> None:
        if path is not None:
            self._writer = TraceWriter(path, on_error=self._failed)

    def _failed(self, exc: OSError) -> None:
        where = self._writer.path if self._writer is not None else "the trace"
        self.warn(f"cannot write the trace {where} ({exc.strerror or exc}); rows are being lost")

    @property
    def traced(self) -> bool:
        return self._writer is not None

    @property
    def error(self) -> str | None:
        """Why the current trace cannot be written, if it cannot."""
        if self._writer is None or self._writer.error is None:
            return None
        exc = self._writer.error
        return f"cannot write the trace {self._writer.path}: {exc.strerror or exc}"

    def warn(self, message: str) -> None:
        """Add a warning once (the same problem seen again adds nothing)."""
        if message not in self.counts.warnings:
            self.counts.warnings.append(message)

    def write(self, row: TraceRow) -> None:
        if self._writer is None:
            return
        if self._writer.write(row):
            self.counts.rows_written += 1
        else:
            self.counts.rows_lost += 1

    def switch(self, path: str | None) -> FrontCounts:
        """Close the current trace, open ``path`` (None: untraced); the ended counts."""
        self.close()
        ended, self.counts = self.counts, FrontCounts()
        self._open(path)
        return ended

    def close(self) -> None:
        if self._writer is not None:
            writer, self._writer = self._writer, None
            writer.close()
