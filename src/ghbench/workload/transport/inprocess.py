"""The ``inprocess`` transport: the request gh would make, handed to the emulator core.

No socket, no subprocess, no asyncio: ``handler`` is the emulator's synchronous
``handle``. A call lasts the latency the emulator's model assigns (or, when it
assigns none, this module's small seeded model), which the runner adds to the
virtual clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ghbench.workload.calls import GhCall, GhResult
from ghbench.workload.ghmap import HttpRequest, HttpResponse, plan_call

__all__ = ["Handler", "InProcessTransport", "fallback_latency"]

Handler = Callable[[HttpRequest], HttpResponse]


def fallback_latency(request: HttpRequest, response: HttpResponse, rng: random.Random) -> float:
    """Seconds for one exchange when the emulator gives none: gh's process start
    plus a server time that grows with GraphQL work, jittered."""
    base = 0.30 if response.status == 304 else 0.45
    if request.path == "/graphql":
        base = 0.70 + len(request.body or b"") / 40_000
    return base * rng.uniform(0.8, 1.25)


class InProcessTransport:
    """Calls ``handler`` directly; deterministic for a seeded ``rng``."""

    def __init__(self, handler: Handler, *, token: str | None, rng: random.Random) -> None:
        self.handler = handler
        self._token = token
        self.rng = rng

    def exchange(self, request: HttpRequest) -> HttpResponse:
        """One request as gh sends it (the agents' captured requests); its latency set."""
        response = self.handler(request)
        if response.latency_s is None:
            latency = fallback_latency(request, response, self.rng)
            response = HttpResponse(response.status, response.headers, response.body, latency)
        return response

    def call(self, call: GhCall) -> GhResult:
        plan = plan_call(call.argv, self._token)
        response = self.handler(plan.request)
        code, out, err = plan.render(response)
        latency = response.latency_s
        if latency is None:
            latency = fallback_latency(plan.request, response, self.rng)
        return GhResult(code, out, err, latency, http_statuses=(response.status,))

    def close(self) -> None:
        return None
