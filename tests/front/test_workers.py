"""ghbench.front.workers: listening sockets sharing a port, the meter shared across a
fork, the workers' segments merged into one reply, and workers reaped.
(The meter's readings against ``graphql.GraphqlMeter``'s: tests/front/test_graphql.py.)"""

from __future__ import annotations

import os
import socket

import msgspec
import pytest

from ghbench.front.settings import Cause, FrontCounts, Reply
from ghbench.front.workers import Child, SharedMeter, listen, merge, reap
from ghbench.trace.writer import TraceLoss


def test_workers_listen_on_one_port() -> None:
    socks = listen(0, 3)
    try:
        ports = {s.getsockname() for s in socks}
        assert len(ports) == 1 and next(iter(ports))[0] == "127.0.0.1"
        with socket.create_connection(socks[0].getsockname(), timeout=5):
            pass
    finally:
        for sock in socks:
            sock.close()


def test_a_port_that_is_taken_is_an_oserror_and_nothing_is_left_open() -> None:
    (taken,) = listen(0, 1)
    try:
        port = taken.getsockname()[1]
        before = len(os.listdir("/proc/self/fd"))
        with pytest.raises(OSError):
            listen(port, 2)  # the first holder did not ask to share the port
        assert len(os.listdir("/proc/self/fd")) == before
    finally:
        taken.close()


def test_an_exchange_in_another_process_is_an_overlap() -> None:
    """A ticket begun in a forked worker and not ended: this process's charge cannot be
    told from it."""
    meter = SharedMeter()
    assert meter.end(meter.begin(), 5000, 100, 1) is None  # the window's first reading
    pid = os.fork()
    if pid == 0:  # the worker: begins an exchange and leaves it in flight
        meter.begin()
        os._exit(0)
    os.waitpid(pid, 0)
    assert meter.end(meter.begin(), 5000, 100, 4) is None
    # and the worker's reading is the window's: a reading below it is no charge
    assert meter.end(meter.begin(), 5000, 100, 3) is None


def test_an_ended_ticket_in_another_process_shares_its_reading() -> None:
    meter = SharedMeter()
    pid = os.fork()
    if pid == 0:
        ticket = meter.begin()
        meter.end(ticket, 5000, 100, 7)
        os._exit(0)
    os.waitpid(pid, 0)
    assert meter.end(meter.begin(), 5000, 100, 10) == 3  # charged 10 - 7


def test_the_meter_keeps_a_few_windows_and_a_new_one_takes_the_oldest() -> None:
    meter = SharedMeter()
    for reset in range(1, 10):  # 9 windows: the first is forgotten
        meter.end(meter.begin(), 5000, reset, 1)
    assert meter.end(meter.begin(), 5000, 9, 3) == 2  # a kept window
    assert meter.end(meter.begin(), 5000, 1, 3) is None  # forgotten: no earlier reading


def _reply(error: str | None = None, **counts: int) -> Reply:
    return Reply(counts=FrontCounts(**counts), error=error)


def test_merge_sums_counts_per_trace_losses_and_causes() -> None:
    loss = TraceLoss(trace="/t/trace.jsonl", rows=2, reason="No space left on device")
    one = Reply(
        counts=FrontCounts(exchanges=3, rows_written=3, rows_lost=2, losses=[loss]),
        causes=[Cause(key="ca-gh", message="gh distrusts the CA", seen=2, examples=["a", "b"])],
    )
    two = Reply(
        counts=FrontCounts(
            exchanges=1, refused=4, rows_lost=5, losses=[msgspec.structs.replace(loss, rows=5)]
        ),
        causes=[
            Cause(key="ca-gh", message="gh distrusts the CA", seen=3, examples=["b", "c", "d"]),
            Cause(key="tunnel", message="a tunnel was abandoned", seen=1),
        ],
        error="cannot write the trace /t/next.jsonl: Permission denied",
    )
    merged = merge([one, two, _reply()])
    counts = merged.counts
    assert (counts.exchanges, counts.refused, counts.rows_written, counts.rows_lost) == (4, 4, 3, 7)
    assert counts.losses == [TraceLoss(trace="/t/trace.jsonl", rows=7, reason=loss.reason)]
    assert counts.warnings == [
        "gh distrusts the CA (seen 5 times; e.g. a, b, c)",
        "a tunnel was abandoned",
    ]
    assert merged.error == two.error


def test_merge_of_nothing_is_zero() -> None:
    merged = merge([])
    assert merged.counts == FrontCounts() and merged.error is None and merged.causes == []


def test_reap_waits_for_workers_whose_pipes_end() -> None:
    commands_r, commands_w = os.pipe()
    replies_r, replies_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # a worker: stops when its command pipe ends
        os.close(commands_w)
        os.read(commands_r, 1)
        os._exit(0)
    os.close(commands_r)
    os.close(replies_w)
    reap([Child(pid=pid, commands=commands_w, replies=replies_r)])
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left
