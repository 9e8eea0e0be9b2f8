"""ghbench.signals: handlers set for a block and put back after it, signals held off
during cleanup, and the names of the signals a child died of (real signals, raised
in this process)."""

from __future__ import annotations

import signal
from types import FrameType

import pytest

from ghbench.signals import handling, signal_name, uninterruptible


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
