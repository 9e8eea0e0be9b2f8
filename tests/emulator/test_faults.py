"""Fault injection (seeded): errors, latency and timeouts, and their settings."""

from __future__ import annotations

import httpx
import pytest
from emu_helpers import API, new_emulator

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport
from ghbench.errors import ConfigError

REPO = "/repos/acme/todo"


def _run(emulator: Emulator, n: int) -> list[int]:
    with httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=API,
        headers={"Authorization": "token ghp_test0000000000000000000000000000000001"},
    ) as api:
        return [api.get(REPO).status_code for _ in range(n)]


def test_errors_are_seeded_and_not_charged() -> None:
    runs = []
    for _ in range(2):
        emulator = new_emulator()
        emulator.set_faults(error_rate=0.3, error_status=503)
        statuses = _run(emulator, 60)
        assert set(statuses) == {200, 503}
        assert len(emulator.ledger_entries()) == statuses.count(200)
        runs.append(statuses)
    assert runs[0] == runs[1]


def test_latency_advances_the_virtual_clock() -> None:
    clock = VirtualClock()
    emulator = new_emulator(clock=clock)
    emulator.set_faults(latency="fixed", latency_ms=250)
    before = clock.now()
    _run(emulator, 4)
    assert clock.now() - before == pytest.approx(1.0)
    emulator.set_faults(latency="lognormal", latency_ms=40)
    before = clock.now()
    _run(emulator, 20)
    assert clock.now() > before


def test_timeouts_hang_then_fail() -> None:
    clock = VirtualClock()
    emulator = new_emulator(clock=clock)
    emulator.set_faults(timeout_rate=1.0, timeout_s=10)
    before = clock.now()
    assert _run(emulator, 1) == [502]
    assert clock.now() - before == pytest.approx(10)


def test_bad_fault_settings(emulator: Emulator) -> None:
    kinds = "fixed, lognormal, none, uniform"
    with pytest.raises(ConfigError, match=f"latency: 'gaussian' is not one of {kinds}"):
        emulator.set_faults(latency="gaussian")
    with pytest.raises(ConfigError, match="error_rate: must be at most 1, got 2"):
        emulator.set_faults(error_rate=2)
    with pytest.raises(ConfigError, match="timeout_s: must be at most 3600, got inf"):
        emulator.set_faults(timeout_s=float("inf"))
    with pytest.raises(ConfigError, match="unknown key jitter; known keys: latency"):
        emulator.set_faults(jitter=1, error_rate=0.5)
    assert emulator.config.faults.error_rate == 0  # all or nothing
