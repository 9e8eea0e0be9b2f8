"""The emulator as a simulation sees it: a spend, a refusal's round trip, the snapshot."""

from ghbench.clock import VirtualClock
from ghbench.simulation.world import SIM_START, SimWorld
from ghbench.workload.ghmap import HttpRequest


def test_a_refused_answer_takes_the_worlds_round_trip_and_a_spend_starts_the_window() -> None:
    # a real run's harness spends before its window; the model starts where it stood,
    # and an answer refused for the rate limit takes the world's latency (the emulator
    # refuses it before it draws one), not the gh transport's process start
    world = SimWorld(VirtualClock(SIM_START), seed=0, latency=(5.0, 0.1))
    world.emulator.set_limit("core", 2, 300)
    world.spend("core", 1)
    world.spend("graphql", 0)
    request = HttpRequest("GET", "/user", {"Authorization": f"token {world.token}"})
    answers = [world.handle(request) for _ in range(2)]
    assert [a.status for a in answers] == [200, 403]
    latency = answers[1].latency_s
    assert latency is not None and 0.003 < latency < 0.008
    world.spend("core", 5)  # nothing left to spend: no error
    core = world.rate_limit_snapshot().get("core")
    assert core is not None and core.remaining == 0 and core.reset == int(SIM_START) + 300
