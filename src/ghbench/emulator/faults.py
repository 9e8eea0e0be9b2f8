"""Injected faults: latency, 5xx errors and timeouts, all drawn from the seeded RNG.

The core never sleeps: it returns the drawn delay with the response. The server
adapter awaits it (real time); the in-process path advances a virtual clock, or
sleeps on a real one. Control API paths (``/_ghbench/``) are never faulted.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal, get_args

import msgspec
from msgspec import Meta

from ghbench.validation import updated

__all__ = ["LATENCY_KINDS", "FaultConfig", "FaultDraw", "draw_fault"]

LatencyKind = Literal["none", "fixed", "uniform", "lognormal"]
LATENCY_KINDS: tuple[str, ...] = get_args(LatencyKind)
TIMEOUT_MESSAGE = (
    "We couldn't respond to your request in time. Sorry about that. Please try "
    "resubmitting your request and contact us if the problem persists."
)
_HOUR_MS = 3_600_000.0
Millis = Annotated[float, Meta(ge=0, le=_HOUR_MS)]
Share = Annotated[float, Meta(ge=0, le=1)]


class FaultConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``latency``: none | fixed (``latency_ms``) | uniform (``latency_min_ms``..
    ``latency_ms``) | lognormal (median ``latency_ms``, shape ``latency_sigma``).
    Every number is bounded (an hour at most), so no setting can hang the emulator."""

    latency: LatencyKind = "none"
    latency_ms: Millis = 0.0
    latency_min_ms: Millis = 0.0
    latency_sigma: Annotated[float, Meta(ge=0, le=10)] = 0.5
    error_rate: Share = 0.0  # share of requests answered with error_status
    error_status: Annotated[int, Meta(ge=500, le=599)] = 502
    timeout_rate: Share = 0.0  # share of requests that hang timeout_s then fail
    timeout_s: Annotated[float, Meta(ge=0, le=3600)] = 10.0

    def update(self, values: Mapping[str, object], *, source: str = "faults") -> None:
        """Apply changes, all or none; ConfigError names the key and what is allowed."""
        new = updated(self, values, source=source)
        for name in self.__struct_fields__:
            setattr(self, name, getattr(new, name))

    @property
    def active(self) -> bool:
        return self.latency != "none" or self.error_rate > 0 or self.timeout_rate > 0


@dataclass(frozen=True)
class FaultDraw:
    delay_s: float
    status: int | None  # None: answer normally
    message: str = ""


_NO_FAULT = FaultDraw(0.0, None)


def _latency_s(cfg: FaultConfig, rng: random.Random) -> float:
    if cfg.latency == "fixed":
        return cfg.latency_ms / 1000
    if cfg.latency == "uniform":
        return rng.uniform(cfg.latency_min_ms, max(cfg.latency_ms, cfg.latency_min_ms)) / 1000
    if cfg.latency == "lognormal" and cfg.latency_ms > 0:
        return rng.lognormvariate(math.log(cfg.latency_ms), cfg.latency_sigma) / 1000
    return 0.0


def draw_fault(cfg: FaultConfig, rng: random.Random) -> FaultDraw:
    """What happens to one request; consumes the RNG only when faults are on."""
    if not cfg.active:
        return _NO_FAULT
    delay = _latency_s(cfg, rng)
    roll = rng.random()
    if roll < cfg.timeout_rate:
        return FaultDraw(delay + cfg.timeout_s, 502, TIMEOUT_MESSAGE)
    if roll < cfg.timeout_rate + cfg.error_rate:
        return FaultDraw(delay, cfg.error_status, "Server Error")
    return FaultDraw(delay, None)
