"""What the commands' tests share: the real entry point in-process, a project to run in,
and the shape of a refusal."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.harness.helpers import make_project

from ghbench.cli import main


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def ghbench(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Any:
    """The real entry point in-process (the imports are paid once), in ``tmp_path``."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> Ran:
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        out = capsys.readouterr()
        return Ran(code, out.out, out.err)

    return run


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
