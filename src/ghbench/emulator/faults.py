"""Injected faults: latency, 5xx errors and timeouts, all drawn from the seeded RNG.

The core never sleeps: it returns the drawn delay with the response. The server
adapter awaits it (real time); the in-process path advances a virtual clock, or
sleeps on a real one. Control API paths (``/_ghbench/``) are never faulted.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields

__all__ = ["LATENCY_KINDS", "FaultConfig", "FaultDraw", "draw_fault"]

LATENCY_KINDS = ("none", "fixed", "uniform", "lognormal")
TIMEOUT_MESSAGE = (
    "We couldn't respond to your request in time. Sorry about that. Please try "
    "resubmitting your request and contact us if the problem persists."
)


@dataclass
class FaultConfig:
    """``latency``: none | fixed (``latency_ms``) | uniform (``latency_min_ms``..
    ``latency_ms``) | lognormal (median ``latency_ms``, shape ``latency_sigma``)."""

    latency: str = "none"
    latency_ms: float = 0.0
    latency_min_ms: float = 0.0
    latency_sigma: float = 0.5
    error_rate: float = 0.0  # share of requests answered with error_status
    error_status: int = 502
    timeout_rate: float = 0.0  # share of requests that hang timeout_s then fail
    timeout_s: float = 10.0

    def update(self, values: dict[str, object]) -> None:
        """Apply changes; raises KeyError (unknown key) or ValueError (bad value)."""
        kinds = {f.name: f.default for f in fields(self)}
        for key, value in values.items():
            if key not in kinds:
                raise KeyError(key)
            default = kinds[key]
            if isinstance(default, str):
                if value not in LATENCY_KINDS:
                    raise ValueError(f"latency must be one of {', '.join(LATENCY_KINDS)}")
                setattr(self, key, value)
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{key} must be a number")
            number = float(value)
            if number < 0 or (key.endswith("_rate") and number > 1):
                raise ValueError(f"{key} out of range")
            if key == "error_status" and not 500 <= number <= 599:
                raise ValueError("error_status must be a 5xx status")
            setattr(self, key, int(number) if isinstance(default, int) else number)

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
