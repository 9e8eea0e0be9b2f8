"""A trace writer's losses, told to the process that started it.

A writer counts the rows it could not write (``TraceWriter.loss``). One that runs in a
child process (the workload model, ``ghbench workload run``) tells its parent over a
pipe: the parent opens a ``LossPipe`` and passes its write end to the child, named by
number in ``GHBENCH_TRACE_LOSS_FD``; the child's ``LossReporter`` writes one JSON line
per lost row, the running ``TraceLoss``, so the last line read is the loss even when the
child is killed. A pipe needs no disk: the report gets through when the disk is what
failed.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Mapping

import msgspec

from ghbench.trace.writer import TraceLoss

__all__ = ["LOSS_FD_ENV", "LossPipe", "LossReporter"]

LOSS_FD_ENV = "GHBENCH_TRACE_LOSS_FD"
_JOIN_S = 5.0  # after the child exited: how long its last lines may take to be read


class LossReporter:
    """The child's end: ``report`` never blocks and never raises (a parent that is gone
    or not reading loses the report, never the run)."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd
        os.set_blocking(fd, False)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LossReporter | None:
        """The reporter the parent asked for in ``env``, if it asked and the pipe is open."""
        text = env.get(LOSS_FD_ENV, "")
        if not text.isdigit():
            return None
        try:
            return cls(int(text))
        except OSError:  # not an open descriptor: nobody to tell
            return None

    def report(self, loss: TraceLoss) -> None:
        if self._fd is None:
            return
        try:
            os.write(self._fd, msgspec.json.encode(loss) + b"\n")  # < PIPE_BUF: whole
        except BlockingIOError:
            return  # the parent is behind; a later line carries the running total
        except OSError:
            self.close()

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)


class LossPipe:
    """The parent's end: a thread reads the child's reports until end-of-file (the
    child has exited); ``losses`` is the last report per trace."""

    def __init__(self) -> None:
        self._read, write = os.pipe()
        self._write: int | None = write
        self._latest: dict[str, TraceLoss] = {}
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name="trace-losses", daemon=True)
        self._thread.start()

    @property
    def child_fd(self) -> int:
        """The descriptor to pass to the child (``pass_fds``), and its variable."""
        assert self._write is not None, "passed to one child, before it started"
        return self._write

    def child_env(self) -> dict[str, str]:
        return {LOSS_FD_ENV: str(self.child_fd)}

    def child_started(self) -> None:
        """The child holds the write end now: the parent's copy is closed, so the
        child's exit is the pipe's end."""
        if self._write is not None:
            fd, self._write = self._write, None
            os.close(fd)

    def _drain(self) -> None:
        decoder = msgspec.json.Decoder(TraceLoss)
        pending = b""
        try:
            while chunk := os.read(self._read, 65536):
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    try:
                        loss = decoder.decode(line)
                    except msgspec.DecodeError:
                        continue
                    with self._lock:
                        self._latest[loss.trace] = loss
        finally:
            os.close(self._read)

    def losses(self) -> list[TraceLoss]:
        """Once the child has exited: every trace's loss it reported."""
        self.child_started()  # a child that never started: the pipe ends here
        self._thread.join(_JOIN_S)
        with self._lock:
            return list(self._latest.values())
