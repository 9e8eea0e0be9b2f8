"""The exception hierarchy: each error's exit code, a stop signal that is a Ctrl-C to
every handler, and how a stop is named to the user."""

from __future__ import annotations

import signal

import pytest

from ghbench.errors import (
    ArtifactError,
    ConfigError,
    EmulatorError,
    GhbenchError,
    GitHubError,
    Interrupted,
    StopSignal,
    ToolMissingError,
    TraceError,
    UsageError,
    interrupt_signal,
    signal_label,
)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (GhbenchError, 1),
        (UsageError, 2),
        (ConfigError, 2),
        (TraceError, 1),
        (ArtifactError, 1),
        (EmulatorError, 1),
        (GitHubError, 1),
        (ToolMissingError, 1),
    ],
)
def test_each_error_exits_with_its_code(error: type[GhbenchError], code: int) -> None:
    raised = error("what to do")
    assert isinstance(raised, GhbenchError) and raised.exit_code == code
    assert str(raised) == "what to do"


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_an_interrupted_run_exits_128_plus_its_signal(signum: int, code: int) -> None:
    stopped = Interrupted("stopped", signum)
    assert (stopped.signum, stopped.exit_code) == (signum, code)
    assert Interrupted("stopped").exit_code == 130  # Ctrl-C unless told
    assert GhbenchError.exit_code == 1  # the instance's code is its own


def test_a_stop_signal_is_caught_where_ctrl_c_is_and_knows_its_signal() -> None:
    with pytest.raises(KeyboardInterrupt) as info:
        raise StopSignal(signal.SIGTERM)
    assert not isinstance(info.value, GhbenchError)  # the CLI does not print it as an error
    assert interrupt_signal(info.value) == signal.SIGTERM
    assert interrupt_signal(KeyboardInterrupt()) == signal.SIGINT


@pytest.mark.parametrize(
    ("signum", "label"),
    [
        (signal.SIGINT, "Ctrl-C"),
        (signal.SIGTERM, "SIGTERM"),
        (signal.SIGHUP, "SIGHUP"),
        (200, "signal 200"),
    ],
)
def test_a_stop_is_named_as_the_user_knows_it(signum: int, label: str) -> None:
    assert signal_label(signum) == label
