"""Cells simulated in a second lane: a forked child runs its share of a matrix's
cells while this process runs the rest, on a second core.

Each cell is its own world (its seed, its emulator, its clock), so where it runs
changes nothing it produces. The child is a fork of this process (the specs are known;
nothing is written to pass them on), leads a process group of its own and is named to
the lifeline, so the reaper stops it if ghbench dies; it writes each cell's artifacts
into the cell's own directory, as this process would, and sends back what
``simulate_cell`` returned, in order. ``stop`` ends it (SIGTERM to its group, a
deadline, SIGKILL) whatever ended the matrix.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from ghbench.errors import GhbenchError
from ghbench.procs import guard, unguard
from ghbench.runspec.spec import RunSpec
from ghbench.simulation.simulate import SimulationResult, simulate_cell

__all__ = ["SideLane"]

_STOP_S = 5.0  # how long the child may take to stop on SIGTERM


def _child(send: Connection, specs: Sequence[RunSpec]) -> None:
    """The lane's cells, one after another; each result, or why it failed, goes back
    over ``send`` as ``(cell id, result or message)``."""
    os.setpgid(0, 0)
    # the parent stops it (SIGTERM to its group): it ends as a process does, quietly
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for spec in specs:
        try:
            result: SimulationResult | str = simulate_cell(spec)
        except Exception as exc:  # the parent records the cell as failed
            result = f"{type(exc).__name__}: {exc}"
        send.send((spec.cell.id, result))
    send.close()


class SideLane:
    """A forked child simulating ``specs`` in order; ``result`` waits for each."""

    def __init__(self, specs: Sequence[RunSpec]) -> None:
        self.cells = [spec.cell.id for spec in specs]
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._child: BaseProcess = context.Process(
            target=_child, args=(send, list(specs)), daemon=True
        )
        self._child.start()
        assert self._child.pid is not None
        # as the child does, whichever runs first
        with contextlib.suppress(PermissionError, ProcessLookupError):
            os.setpgid(self._child.pid, self._child.pid)
        guard(self._child.pid)
        send.close()

    def has(self, cell_id: str) -> bool:
        return cell_id in self.cells

    def result(self, cell_id: str) -> SimulationResult:
        """Cell ``cell_id``'s result (the lane's cells are asked for in its order)."""
        try:
            got, result = self._receive.recv()
        except EOFError:
            raise GhbenchError(f"{cell_id}: the second lane ended without its result") from None
        if got != cell_id:
            raise GhbenchError(f"{cell_id}: the second lane answered for {got} instead")
        if isinstance(result, str):
            raise GhbenchError(f"{cell_id}: {result}")
        assert isinstance(result, SimulationResult)
        return result

    def stop(self) -> None:
        self._receive.close()
        pid = self._child.pid
        if pid is None:
            return
        if self._child.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)
            self._child.join(_STOP_S)
            if self._child.is_alive():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
        self._child.join()
        unguard(pid)
