"""ghbench.drivers.base: what every driver shares: where a window's agents' rows go,
tracing reports added up, and a driver whose orchestrator is one child process
(stopped leader first, crashed by SIGKILL, or never started)."""

from __future__ import annotations

import signal
from pathlib import Path

from ghbench.drivers.base import OwnsProcess, StopResult, TraceSink, TracingReport
from ghbench.procs import ManagedProcess, start_process
from ghbench.trace.files import agent_trace_path
from ghbench.trace.writer import TraceLoss


class _OneChild(OwnsProcess):
    def __init__(self, proc: ManagedProcess | None) -> None:
        self._proc = proc


def test_the_agents_rows_go_beside_the_window_trace(tmp_path: Path) -> None:
    sink = TraceSink(tmp_path / "gh-trace-bench-1.jsonl")
    assert sink.agents == agent_trace_path(sink.path) and sink.agents != sink.path
    assert sink.agents.parent == tmp_path


def test_tracing_reports_add_up_in_order() -> None:
    lost = TraceLoss(trace="t", rows=2, reason="No space left on device")
    total = TracingReport(("a",), (lost,)) + TracingReport() + TracingReport(("b",))
    assert total == TracingReport(("a", "b"), (lost,))


def test_a_driver_never_started_has_nothing_to_stop() -> None:
    driver = _OneChild(None)
    assert driver.stop(1.0) == StopResult(None, killed=False)
    assert not driver.alive() and driver.exit_code() is None
    driver.kill()  # nothing to crash


def test_the_orchestrator_stops_on_sigterm_and_a_crash_is_a_sigkill(tmp_path: Path) -> None:
    polite = _OneChild(start_process(["sleep", "60"], env={"PATH": "/usr/bin:/bin"}, name="o"))
    assert polite.alive() and polite.exit_code() is None
    stopped = polite.stop(10.0)
    assert stopped == StopResult(-signal.SIGTERM, killed=False)
    assert not polite.alive() and polite.exit_code() == -signal.SIGTERM
    crashed = _OneChild(start_process(["sleep", "60"], env={"PATH": "/usr/bin:/bin"}, name="o"))
    crashed.kill()
    assert crashed.exit_code() == -signal.SIGKILL
