"""What the commands' tests share: a project to run in and the shape of a refusal (the
real entry point in-process, ``ghbench``, is tests/conftest.py's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.harness.helpers import make_project


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A project (todo-app) with its agent-orchestrator.yaml, as a user has one."""
    return make_project(tmp_path)


def one_line_error(proc: object, code: int, *needles: str) -> None:
    """``proc`` exited ``code`` with one ``error: ...`` line holding every needle."""
    assert proc.returncode == code, proc.stderr  # type: ignore[attr-defined]
    lines = proc.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: ")
    for needle in needles:
        assert needle in lines[0]
