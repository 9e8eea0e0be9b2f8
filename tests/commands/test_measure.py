"""``ghbench measure``'s bad input: a missing or unreadable setup artifact is refused
before anything starts, in one line, and nothing is written."""

from __future__ import annotations

from pathlib import Path

from tests.commands.conftest import one_line_error
from tests.harness.helpers import WORKLOAD_FLAGS, clean_env, ghbench

MEASURE = [
    "measure",
    "--project",
    "todo-app",
    "--sessions",
    "2",
    "--duration",
    "1m",
    "--out",
    "out",
]


def test_missing_setup_artifact(root: Path) -> None:
    proc = ghbench(*MEASURE, *WORKLOAD_FLAGS, cwd=root, env=clean_env(root))
    one_line_error(proc, 1, "no setup artifact", "ghbench setup")
    assert not (root / "out").exists()


def test_unreadable_setup_artifact(root: Path) -> None:
    out = root / "out"
    out.mkdir()
    bad = out / "setup-todo-app-quiet-steady.single-repo.2.json"
    bad.write_text('{"schemaVersion": 9}')
    proc = ghbench(*MEASURE, *WORKLOAD_FLAGS, cwd=root, env=clean_env(root))
    one_line_error(proc, 1, "schemaVersion 9 is not supported")
    assert sorted(p.name for p in out.iterdir()) == [bad.name]
