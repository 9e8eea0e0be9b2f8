"""A replay's parts run side by side: the first in this process, each other one in a
forked child of its own.

The copies of a recording share nothing but the token's buckets, which ``replay_merge``
reassembles, so a replay at ten times its sessions splits into parts that run on as
many cores (a million requests in half the time on two). A child is a fork of this
process (it has the plan already; nothing is written to pass it on), leads a process
group of its own and is named to the lifeline, so the reaper stops it if ghbench dies;
it sends its result back over a pipe. Whatever ends the replay early (an error, Ctrl-C,
SIGTERM) stops every child before it returns: SIGTERM to its group, a deadline, SIGKILL.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import signal
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

import msgspec

from ghbench.errors import GhbenchError
from ghbench.procs import as_forked_child, forking, guard, unguard
from ghbench.simulation.replay_run import Part, PartResult, run_part
from ghbench.trace.schema import TraceRow
from ghbench.workload.replay import ReplayPlan

__all__ = ["run_parts"]

_STOP_S = 5.0  # how long a child may take to stop on SIGTERM
_ROWS = msgspec.msgpack.Encoder()
_ROWS_DECODER = msgspec.msgpack.Decoder(tuple[list[TraceRow], list[TraceRow]])


def _child(send: Connection, plan: ReplayPlan, part: Part) -> None:
    """A part in a forked child, in a process group of its own; its result, or why it
    failed, goes back over ``send``."""
    as_forked_child()
    try:
        result = run_part(plan, part)
    except Exception as exc:  # the parent raises it; a child has no one else to tell
        send.send(f"{type(exc).__name__}: {exc}")
    else:
        # the rows as msgpack (a tenth of pickling a million structs), the rest pickled
        rows = _ROWS.encode((result.rows, result.agent_rows))
        send.send(dataclasses.replace(result, rows=[], agent_rows=[]))
        send.send_bytes(rows)
    send.close()


def _received(receive: Connection, number: int) -> PartResult:
    try:
        got = receive.recv()
        if isinstance(got, str):
            raise GhbenchError(f"replay: part {number} failed: {got}")
        rows, agent_rows = _ROWS_DECODER.decode(receive.recv_bytes())
    except EOFError:
        raise GhbenchError(f"replay: part {number} ended without its result") from None
    assert isinstance(got, PartResult)
    return dataclasses.replace(got, rows=rows, agent_rows=agent_rows)


def _stop(child: BaseProcess) -> None:
    pid = child.pid
    if pid is None:
        return
    if child.is_alive():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGTERM)
        child.join(_STOP_S)
        if child.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
    child.join()
    unguard(pid)


def run_parts(plan: ReplayPlan, parts: Sequence[Part]) -> list[PartResult]:
    """Every part's result, in ``parts``' order."""
    if len(parts) == 1:
        return [run_part(plan, parts[0])]
    context = multiprocessing.get_context("fork")
    children: list[tuple[BaseProcess, Connection]] = []
    try:
        for part in parts[1:]:
            receive, send = context.Pipe(duplex=False)
            child: BaseProcess = context.Process(
                target=_child, args=(send, plan, part), daemon=True
            )
            with forking():
                child.start()
                assert child.pid is not None
                # as the child does, whichever runs first (it may be in its group already,
                # or gone: its pipe will say)
                with contextlib.suppress(PermissionError, ProcessLookupError):
                    os.setpgid(child.pid, child.pid)
                guard(child.pid)
            send.close()
            children.append((child, receive))
        results = [run_part(plan, parts[0])]
        results += [_received(receive, n) for n, (_, receive) in enumerate(children, start=1)]
        return results
    finally:
        for child, receive in children:
            receive.close()
            _stop(child)
