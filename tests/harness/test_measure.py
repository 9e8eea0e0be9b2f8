"""A run watches its own health: the real emulator process stopped (SIGSTOP) inside the
window, and again across its end, while the real workload model polls it. The run
completes, and its scorecard and console say what skewed it: calls that hung, a gap in
the trace, a late after-snapshot. The bounds are the test's (``HealthBounds``), small
enough for a window of seconds; the defaults are documented in docs/scorecard.md.
"""

from __future__ import annotations

import io
import os
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ghbench.clock import SystemClock
from ghbench.drivers.project import Project
from ghbench.drivers.workload.driver import WorkloadDriver
from ghbench.emulator import start_emulator_process
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import LineProgress
from ghbench.harness.setup import run_setup
from ghbench.harness.window import Measurement, WindowPlan, WindowTrigger
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.scorecard.health import HealthBounds

from .helpers import clean_env

pytestmark = pytest.mark.slow

TOKEN = "ghp_" + "5t0p" * 9
TICK_S = 0.5
BOUNDS = HealthBounds(hung_call_s=1.5, gap_polls=2, late_snapshot_s=1.0)


class Stalls:
    """SIGSTOP of a process for a while, from a window trigger; SIGCONT by a timer (and
    at the end, whatever happened)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.timers: list[threading.Timer] = []

    def trigger(self, at_s: float, seconds: float) -> WindowTrigger:
        def stop(_: Measurement) -> None:
            os.kill(self.pid, signal.SIGSTOP)
            timer = threading.Timer(seconds, os.kill, (self.pid, signal.SIGCONT))
            self.timers.append(timer)
            timer.start()

        return WindowTrigger(at_s, f"the emulator stopped for {seconds:g} s", stop)

    def release(self) -> None:
        for timer in self.timers:
            timer.cancel()
        os.kill(self.pid, signal.SIGCONT)


@dataclass
class World:
    """A project's setup on a real emulator process, the model to drive, the stalls."""

    project: Project
    backend: EmulatorBackend
    spec: RunSpec
    stalls: Stalls
    env: dict[str, str]

    def driver(self) -> WorkloadDriver:
        work_dir = self.spec.out_dir / "state" / "workload"
        return WorkloadDriver(self.project, work_dir, self.backend, self.spec, base_env=self.env)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    clock = SystemClock()
    out = tmp_path / "out"
    state = out / "state" / "emulator"
    emulator = start_emulator_process(state, tokens=[TOKEN])
    backend = EmulatorBackend.attach(
        emulator.url, TOKEN, clock, state, control_key=emulator.control_key
    )
    project = Project("todo-app", tmp_path / "todo-app", "acme/todo", "main", "ta", None)
    spec = RunSpec(
        driver="workload",
        backend="emulator",
        transport="http",
        tick=Duration(TICK_S, "0.5s"),
        cell=Cell("S2", "T1", 1),
        warmup=Duration(0.0, "0s"),
        duration=Duration(6.0, "6s"),
        issues=(1,),
        poll_interval=Duration(1.0, "1s"),
        setup_timeout=Duration(60.0, "60s"),
        out_dir=out,
    )

    world = World(project, backend, spec, Stalls(emulator.pid), clean_env(tmp_path))
    try:
        yield world
    finally:
        world.stalls.release()
        emulator.stop()


def test_a_stalled_api_is_reported_with_what_to_do(world: World) -> None:
    spec, backend, stalls = world.spec, world.backend, world.stalls
    clock = SystemClock()
    progress = LineProgress(io.StringIO())
    setup = run_setup(
        spec, world.project, driver=world.driver(), backend=backend, clock=clock, progress=progress
    )
    plan = WindowPlan(
        plot=False,
        supplemental=False,
        health=BOUNDS,
        # 2.5 s inside the window; 3 s from 0.5 s before its end
        triggers=(stalls.trigger(1.0, 2.5), stalls.trigger(spec.duration.seconds - 0.5, 3.0)),
    )
    result = run_measure(
        spec,
        setup.setup,
        driver=world.driver(),
        backend=backend,
        clock=clock,
        progress=progress,
        plan=plan,
    )
    result.raise_for_outcome()  # a stall loses nothing: the run succeeds
    card = result.scorecard
    assert not card.incomplete
    by_kind = {w.kind: w for w in card.warnings}
    # its window is a few seconds: its hourly figures are extrapolated, and it says so
    health = {"hung-calls", "trace-gap", "late-snapshot"}
    assert set(by_kind) == {"short-window", *health}, card.warnings
    hung, gap, late = by_kind["hung-calls"], by_kind["trace-gap"], by_kind["late-snapshot"]
    assert hung.count and hung.seconds is not None and hung.seconds >= BOUNDS.hung_call_s
    assert gap.seconds is not None and gap.seconds > BOUNDS.gap_polls * TICK_S
    assert late.message.startswith("the after-snapshot answered")
    assert late.seconds is not None and late.seconds > BOUNDS.late_snapshot_s
    assert late.at == card.window.end
    for warning in card.warnings:
        assert warning.action  # what to do, always
        assert f"! {warning.kind}:" in result.console
