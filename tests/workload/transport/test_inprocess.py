"""The in-process transport's latency when the emulator gives none."""

import random

from ghbench.workload.ghmap import HttpRequest, HttpResponse
from ghbench.workload.transport.inprocess import fallback_latency


class _Edge(random.Random):
    """The jitter's two ends, to check the bounds exactly."""

    def __init__(self, end: float) -> None:
        super().__init__(0)
        self.end = end

    def uniform(self, a: float, b: float) -> float:
        return a if self.end == 0 else b


def _latency(path: str, status: int, body: bytes | None = None, end: float = 0) -> float:
    request = HttpRequest("POST" if body else "GET", path, {}, body)
    return fallback_latency(request, HttpResponse(status, [], b""), _Edge(end))


def test_a_304_is_quicker_than_a_200_and_graphql_grows_with_its_body() -> None:
    assert _latency("/repos/o/r", 304) == 0.30 * 0.8
    assert _latency("/repos/o/r", 200, end=1) == 0.45 * 1.25
    assert _latency("/graphql", 200, b"x" * 40_000) == (0.70 + 1.0) * 0.8
    assert _latency("/graphql", 200) == 0.70 * 0.8


def test_the_jitter_comes_from_the_random_source_given() -> None:
    request = HttpRequest("GET", "/user", {})
    response = HttpResponse(200, [], b"")
    one = [fallback_latency(request, response, random.Random(4)) for _ in range(2)]
    assert one[0] == one[1] and 0.36 <= one[0] <= 0.5625
