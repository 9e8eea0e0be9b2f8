"""Work simulated in a second lane: a forked child runs its share of a matrix's cells
while this process runs the rest, on a second core; then both take the jobs that follow
the cells (a matrix's capacity searches) from one queue until none is left.

Each cell is its own world (its seed, its emulator, its clock), and so is each job, so
where one runs changes nothing it produces. The child is a fork of this process (the
specs and jobs are known; nothing is written to pass them on), leads a process group of
its own and is named to the lifeline, so the reaper stops it if ghbench dies; it writes
each cell's artifacts into the cell's own directory, as this process would, and sends
back what ``simulate_cell`` returned and what each job it took returned. A thread here
reads them as they come, so the child never waits on this process to go on. The jobs
are shared through a counter both processes take the next index from: whichever lane is
free takes the next one, so the two end together. ``stop`` ends the child (SIGTERM to
its group, a deadline, SIGKILL) whatever ended the matrix.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.sharedctypes import Synchronized
from typing import Any

from ghbench.errors import GhbenchError
from ghbench.procs import as_forked_child, forking, guard, unguard
from ghbench.runspec.spec import RunSpec
from ghbench.simulation.simulate import SimulationResult, simulate_cell

__all__ = ["Job", "SideLane"]

_STOP_S = 5.0  # how long the child may take to stop on SIGTERM
_DONE = "done"  # the child's last message: every cell and job it took is sent

Job = Callable[[], Any]  # a job's result is sent back pickled: a plain value


def _take(counter: Synchronized[int], total: int) -> int | None:
    """The next job's index for whichever lane asks, or None when all are taken."""
    with counter.get_lock():
        index = counter.value
        if index >= total:
            return None
        counter.value = index + 1
    return index


def _failure(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def _child(
    send: Connection, specs: Sequence[RunSpec], jobs: Sequence[Job], counter: Synchronized[int]
) -> None:
    """The lane's cells, one after another, then jobs while any is left; each result, or
    why it failed, goes back over ``send`` as ``(kind, key, ok, result or message)``."""
    as_forked_child()
    for spec in specs:
        try:
            send.send(("cell", spec.cell.id, True, simulate_cell(spec)))
        except Exception as exc:  # the parent records the cell as failed
            send.send(("cell", spec.cell.id, False, _failure(exc)))
    while (index := _take(counter, len(jobs))) is not None:
        try:
            send.send(("job", index, True, jobs[index]()))
        except Exception as exc:  # the parent raises it
            send.send(("job", index, False, _failure(exc)))
    send.send((_DONE, None, True, None))
    send.close()


class SideLane:
    """A forked child simulating ``specs`` in order, then taking ``jobs`` beside this
    process; ``result`` waits for a cell, ``job_results`` runs this process's share of
    the jobs and waits for the child's."""

    def __init__(self, specs: Sequence[RunSpec], jobs: Sequence[Job] = ()) -> None:
        self.cells = [spec.cell.id for spec in specs]
        self._jobs = list(jobs)
        context = multiprocessing.get_context("fork")
        self._counter: Synchronized[int] = context.Value("i", 0)
        self._receive, send = context.Pipe(duplex=False)
        self._child: BaseProcess = context.Process(
            target=_child, args=(send, list(specs), self._jobs, self._counter), daemon=True
        )
        with forking():
            self._child.start()
            assert self._child.pid is not None
            # as the child does, whichever runs first
            with contextlib.suppress(PermissionError, ProcessLookupError):
                os.setpgid(self._child.pid, self._child.pid)
            guard(self._child.pid)
        send.close()
        self._got: dict[tuple[str, Any], tuple[bool, Any]] = {}
        self._ended = False  # the child sent its last message, or its pipe closed
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, name="side-lane", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Every message of the child as it comes (so it never waits to send)."""
        while True:
            try:
                kind, key, ok, value = self._receive.recv()
            except (EOFError, OSError):
                kind = _DONE
            with self._arrived:
                if kind == _DONE:
                    self._ended = True
                else:
                    self._got[(kind, key)] = (ok, value)
                self._arrived.notify_all()
            if kind == _DONE:
                return

    def _wait(self, kind: str, key: Any, what: str) -> Any:
        with self._arrived:
            self._arrived.wait_for(lambda: (kind, key) in self._got or self._ended)
            if (kind, key) not in self._got:
                raise GhbenchError(f"{what}: the second lane ended without its result")
            ok, value = self._got.pop((kind, key))
        if not ok:
            raise GhbenchError(f"{what}: {value}")
        return value

    def has(self, cell_id: str) -> bool:
        return cell_id in self.cells

    def result(self, cell_id: str) -> SimulationResult:
        """Cell ``cell_id``'s result."""
        result = self._wait("cell", cell_id, cell_id)
        assert isinstance(result, SimulationResult)
        return result

    def job_results(self) -> list[Any]:
        """Every job's result, in order: those this process takes from the queue run here
        (a failure raised as it is), the others are the child's (its failure raised as a
        ``GhbenchError`` with its message)."""
        mine: dict[int, Any] = {}
        while (index := _take(self._counter, len(self._jobs))) is not None:
            mine[index] = self._jobs[index]()
        total = len(self._jobs)
        return [
            mine[i] if i in mine else self._wait("job", i, f"job {i + 1} of {total}")
            for i in range(total)
        ]

    def stop(self) -> None:
        pid = self._child.pid
        if pid is not None and self._child.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)
            self._child.join(_STOP_S)
            if self._child.is_alive():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
        self._child.join()
        self._reader.join()  # the child is gone: its pipe reads end
        self._receive.close()
        if pid is not None:
            unguard(pid)
