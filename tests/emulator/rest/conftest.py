"""REST test fixtures: a seeded repository."""

from __future__ import annotations

import pytest

from ghbench.emulator.core import Emulator


@pytest.fixture
def seeded(emulator: Emulator) -> Emulator:
    emulator.seed({"repos": [{"name": "acme/todo", "issues": 3, "pulls": 3, "ci": "success"}]})
    return emulator
