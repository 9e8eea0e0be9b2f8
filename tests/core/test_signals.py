"""ghbench.signals: SIGTERM and SIGHUP raising StopSignal, handlers set for a block and
put back after it, signals held off during cleanup, signals forwarded to a child, and
the names of the signals a child died of (real signals, raised in this process)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType

import pytest

from ghbench.proctable import start_time
from ghbench.signals import (
    STOP_SIGNALS,
    SignalForwarder,
    StopSignal,
    handling,
    signal_name,
    stop_on_signals,
    uninterruptible,
)


@pytest.fixture
def saved_handlers() -> Iterator[None]:
    saved = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def test_sigterm_and_sighup_raise_stop_signal(saved_handlers: None) -> None:
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)
    stop_on_signals()
    for sig in STOP_SIGNALS:
        with pytest.raises(StopSignal):
            signal.raise_signal(sig)


def test_a_signal_started_ignored_stays_ignored(saved_handlers: None) -> None:
    """``nohup ghbench measure ...``: the terminal's SIGHUP is not a stop."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    stop_on_signals()
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    signal.raise_signal(signal.SIGHUP)  # ignored: the test goes on
    with pytest.raises(StopSignal):
        signal.raise_signal(signal.SIGTERM)


def test_a_blocks_handler_runs_and_the_previous_one_is_back_after_it() -> None:
    seen: list[int] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        seen.append(signum)

    before = signal.getsignal(signal.SIGUSR1)
    with handling((signal.SIGUSR1,), handler):
        signal.raise_signal(signal.SIGUSR1)
        assert signal.getsignal(signal.SIGUSR1) is handler
    assert seen == [signal.SIGUSR1]
    assert signal.getsignal(signal.SIGUSR1) is before


def test_the_previous_handler_is_back_when_the_block_fails() -> None:
    before = signal.getsignal(signal.SIGUSR2)
    with pytest.raises(RuntimeError), handling((signal.SIGUSR2,), signal.SIG_IGN):
        raise RuntimeError("the block failed")
    assert signal.getsignal(signal.SIGUSR2) is before


def test_cleanup_without_defer_ignores_a_second_stop_signal() -> None:
    before = signal.getsignal(signal.SIGHUP)
    with uninterruptible(defer=False):
        signal.raise_signal(signal.SIGHUP)  # ignored: the test process lives on
    assert signal.getsignal(signal.SIGHUP) is before


def test_signal_names_of_returncodes() -> None:
    assert signal_name(-15) == "SIGTERM"
    assert signal_name(-9) == "SIGKILL"
    assert signal_name(0) is None and signal_name(3) is None
    assert signal_name(-200) == "SIG200"


def test_cleanup_defers_the_first_signal_until_it_ends() -> None:
    seen: list[int] = []

    def outside(signum: int, _frame: FrameType | None) -> None:
        seen.append(signum)

    with handling((signal.SIGTERM, signal.SIGHUP), outside):
        with uninterruptible():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGHUP)
            assert seen == []  # held off while the block runs
        assert seen == [signal.SIGTERM]  # the first one, once, to the handler outside


def test_outside_the_main_thread_nothing_is_held_or_installed(saved_handlers: None) -> None:
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, *STOP_SIGNALS)}
    ran: list[bool] = []

    def work() -> None:
        stop_on_signals()
        with uninterruptible():
            ran.append(True)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert ran == [True]
    assert {sig: signal.getsignal(sig) for sig in before} == before


def test_a_signal_before_the_child_is_attached_reaches_it_then() -> None:
    before = signal.getsignal(signal.SIGUSR1)
    forwarder = SignalForwarder()
    try:
        signal.raise_signal(signal.SIGUSR1)  # the child is still starting
        assert forwarder.arrived == [signal.SIGUSR1]
        child = subprocess.Popen(["sleep", "60"])
        forwarder.attach(child)
        assert child.wait(10) == -signal.SIGUSR1
        signal.raise_signal(signal.SIGUSR2)  # the child is gone: nothing to send, no error
    finally:
        forwarder.restore()
    assert signal.getsignal(signal.SIGUSR1) is before


def test_a_group_forwarder_signals_the_childs_whole_group() -> None:
    forwarder = SignalForwarder(group=True)
    leader = subprocess.Popen(
        ["sh", "-c", "sleep 60 & echo $!; wait"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert leader.stdout is not None
        grandchild = int(leader.stdout.readline())
        forwarder.attach(leader)  # type: ignore[arg-type]
        signal.raise_signal(signal.SIGTERM)
        assert leader.wait(10) == -signal.SIGTERM
        deadline = time.monotonic() + 10
        while start_time(grandchild) is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert start_time(grandchild) is None  # the group's other member went too
    finally:
        forwarder.restore()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(leader.pid, signal.SIGKILL)
        leader.wait()
        if leader.stdout is not None:
            leader.stdout.close()


@pytest.mark.parametrize("returncode", [3, -15, -9])
def test_exit_like_ends_as_the_child_ended(returncode: int) -> None:
    """A child killed by SIGKILL (the OOM killer) ends us by SIGKILL too, not exit 137."""
    code = f"from ghbench.signals import exit_like; exit_like({returncode})"
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == returncode
