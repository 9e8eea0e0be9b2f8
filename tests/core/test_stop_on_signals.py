"""``ghbench.signals.stop_on_signals``: which handlers it installs."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from ghbench.signals import STOP_SIGNALS, StopSignal, stop_on_signals


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
