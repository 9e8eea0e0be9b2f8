"""The front's tests' shared fixture: a test's own trace from the module's ``front``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghbench.front import Front

from .front_helpers import traced


@pytest.fixture
def trace(front: Front, emulator_server: Any, tmp_path: Path) -> Iterator[Path]:
    """This test's trace and counts (the front switched to it), its emulator plugged in."""
    with traced(front, tmp_path) as path:
        yield path
