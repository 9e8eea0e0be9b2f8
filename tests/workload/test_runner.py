"""The runner keeps the model's time: in virtual time each call starts at the lane's
cursor and lasts the latency the emulator gives it (here a fixed 0.5 s), parallel lanes
start together, the emulator sees their calls in time order and the phase ends with the
slowest; in real time lanes run one after another."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from ghbench.clock import Clock, SystemClock
from ghbench.emulator.config import EmulatorConfig
from ghbench.emulator.core import Emulator
from ghbench.simulation.world import SimWorld
from ghbench.timefmt import parse_iso
from ghbench.trace.schema import TraceRow
from ghbench.workload import calls as ao
from ghbench.workload.calls import parse_api_output
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import CallRunner, Lane, LaneClock
from ghbench.workload.transport.inprocess import InProcessTransport

TOKEN = "ghp_runnertests0000000000000000000000000"
REPO = "acme/todo"
T0 = 1_000.0
LATENCY = 0.5


@dataclass
class Model:
    runner: CallRunner
    clock: Clock
    rows: list[TraceRow]

    def finished(self) -> list[float]:
        return [parse_iso(r.timestamp) for r in self.rows]


def _model(clock: Clock) -> Model:
    config = EmulatorConfig()
    config.faults.update({"latency": "fixed", "latency_ms": LATENCY * 1000})
    emulator = Emulator(
        config=config, clock=clock if isinstance(clock, LaneClock) else None, seed=0
    )
    emulator.create_user("ao-bot", [TOKEN])
    emulator.create_repo(REPO)
    emulator.create_pull(REPO, "feat/a", title="A")
    world = SimWorld.around(emulator, clock, TOKEN)  # type: ignore[arg-type]
    transport = InProcessTransport(world.handle, token=TOKEN, rng=random.Random(0))
    rows: list[TraceRow] = []
    return Model(CallRunner(transport, clock, rows.append, RowSettings()), clock, rows)


@pytest.fixture
def model() -> Model:
    return _model(LaneClock(T0))


def _lane(calls: int, repo: str = REPO) -> Callable[[], Lane]:
    def lane() -> Lane:
        for _ in range(calls):
            yield ao.guard_commit(repo, "main", "status", None)

    return lane


def test_calls_follow_one_another_from_the_ticks_start(model: Model) -> None:
    model.runner.start_at(T0 + 30)
    model.runner.call(ao.guard_pr_list(REPO, None))
    model.runner.call(ao.guard_pr_list(REPO, None))
    assert model.finished() == [T0 + 30.5, T0 + 31.0]
    assert [r.durationMs for r in model.rows] == [500.0, 500.0]
    assert model.runner.now() == model.clock.now() == T0 + 31.0
    assert model.runner.calls_made == 2
    model.runner.start_at(T0)  # a tick never starts before the last call ended
    assert model.runner.now() == T0 + 31.0
    model.runner.start_at(T0 + 60)
    assert model.runner.now() == model.clock.now() == T0 + 60


def test_parallel_lanes_start_together_and_end_with_the_slowest(model: Model) -> None:
    model.runner.start_at(T0)
    model.runner.parallel([_lane(3), _lane(1, "acme/other"), _lane(0)])
    # the emulator saw them in time order: both lanes' first calls, then the rest
    assert [r.endpoint.split("/")[2] for r in model.rows] == ["todo", "other", "todo", "todo"]
    assert model.finished() == [T0 + 0.5, T0 + 0.5, T0 + 1.0, T0 + 1.5]
    assert model.runner.now() == model.clock.now() == T0 + 1.5
    model.runner.parallel([])  # nothing to run: time stays
    assert model.runner.now() == T0 + 1.5


def test_a_lane_gets_each_answer_back(model: Model) -> None:
    seen: list[int | None] = []

    def lane() -> Lane:
        etag = None
        for _ in range(2):
            result = yield ao.guard_pr_list(REPO, etag)
            answer = parse_api_output(result.stdout)
            seen.append(answer.status)
            etag = answer.headers.get("etag")

    model.runner.start_at(T0)
    model.runner.parallel([lane])
    assert seen == [200, 304]  # the second call sent the first one's ETag
    assert [r.httpStatus for r in model.rows] == [200, 304]


def test_in_real_time_lanes_run_one_after_another() -> None:
    real = _model(SystemClock())
    assert not real.runner.virtual
    real.runner.parallel([_lane(2), _lane(1, "acme/other")])
    assert [r.endpoint.split("/")[2] for r in real.rows] == ["todo", "todo", "other"]
    finished = real.finished()
    assert finished == sorted(finished)  # each row is stamped when its call returned
