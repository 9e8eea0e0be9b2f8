"""Where the front's rows go, and what it counted, phase by phase."""

from __future__ import annotations

from collections.abc import Hashable

import msgspec

from ghbench.front.settings import Cause, FrontCounts, Reply
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceWriter

__all__ = ["TraceSink"]


class TraceSink:
    """The current phase's trace (or none: untraced) and counts; ``switch`` ends a phase.

    A row whose client has a session goes to the agents' trace when the phase has one
    (an orchestrator's agents, split from the orchestrator's own calls as the
    scorecard reads them), else to the trace. Rows go through the project's
    ``TraceWriter``: one ``O_APPEND`` write per row, every string scrubbed of token
    shapes. A row that cannot be written is counted lost, and the first failure becomes
    a warning. Warnings are kept per cause, with how often each was seen: 300 clients
    failing alike are one line."""

    def __init__(self, path: str | None, agent_path: str | None = None) -> None:
        self.counts = FrontCounts()
        self._causes: dict[str, Cause] = {}
        self._writer: TraceWriter | None = None
        self._agents: TraceWriter | None = None
        self._open(path, agent_path)

    def _open(self, path: str | None, agent_path: str | None) -> None:
        if path is not None:
            self._writer = self._writing(path)
            if agent_path is not None:
                self._agents = self._writing(agent_path)

    def _writing(self, path: str) -> TraceWriter:
        # the path is bound here: a trace that cannot be opened fails inside the
        # writer's constructor, before it is one of ``_writers()``
        return TraceWriter(path, on_error=lambda exc: self._failed(path, exc))

    def _writers(self) -> list[TraceWriter]:
        return [w for w in (self._writer, self._agents) if w is not None]

    def _failed(self, path: str, exc: OSError) -> None:
        self.warn(
            ("trace", path),
            f"cannot write the trace {path} ({exc.strerror or exc}); rows are being lost",
        )

    @property
    def traced(self) -> bool:
        return self._writer is not None

    @property
    def error(self) -> str | None:
        """Why the current trace (or the agents') cannot be written, if it cannot."""
        for writer in self._writers():
            if writer.error is not None:
                exc = writer.error
                return f"cannot write the trace {writer.path}: {exc.strerror or exc}"
        return None

    def warn(self, cause: Hashable, message: str, example: str | None = None) -> None:
        """Count one more sighting of ``cause``: its line is ``message`` (the first
        one's), ``example`` names the client (a few are kept)."""
        key = repr(cause)
        found = self._causes.get(key)
        if found is None:
            found = self._causes[key] = Cause(key=key, message=message)
        found.add(1, [example] if example else [])

    def report(self, error: str | None = None) -> Reply:
        """The counts so far, each warning one line, and the causes behind them."""
        causes = list(self._causes.values())
        counts = msgspec.structs.replace(self.counts, warnings=[c.line() for c in causes])
        return Reply(counts=counts, error=error, causes=causes)

    def write(self, row: TraceRow) -> None:
        writer = self._agents if row.sessionId is not None and self._agents else self._writer
        if writer is None:
            return
        if writer.write(row):
            self.counts.rows_written += 1
        else:
            self.counts.rows_lost += 1
            self.counts.losses = [loss for w in self._writers() if (loss := w.loss())]

    def switch(self, path: str | None, agent_path: str | None = None) -> Reply:
        """Close the current traces, open ``path`` and ``agent_path`` (None: untraced);
        the ended segment's report (its ``error``: the new trace cannot be written)."""
        self.close()
        ended = self.report()
        self.counts, self._causes = FrontCounts(), {}
        self._open(path, agent_path)
        return msgspec.structs.replace(ended, error=self.error)

    def close(self) -> None:
        for writer in self._writers():
            writer.close()
        self._writer = self._agents = None
