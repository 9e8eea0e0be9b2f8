"""``ghbench matrix plan|run|merge`` as commands: the plan as printed, and the refusals
made before anything is written. A matrix's runs, resumes and merges are tests/matrix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.commands.conftest import one_line_error


def test_the_plan_in_run_order(ghbench: Any) -> None:
    ran = ghbench("matrix", "plan", "--cells", "S2-T1-5,S1-T2-10", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    cells = json.loads(ran.stdout)["cells"]
    assert [c["cell"] for c in cells] == ["S2-T1-5", "S1-T2-10"]
    assert [c["priority"] for c in cells] == [True, False]


def test_github_actions_plan_is_one_job_per_cell(ghbench: Any) -> None:
    ran = ghbench("matrix", "plan", "--priority", "--format", "github-actions")
    assert ran.returncode == 0, ran.stderr
    jobs = json.loads(ran.stdout)["include"]
    assert jobs and all(job["priority"] for job in jobs)


def test_resume_takes_no_selection(ghbench: Any, tmp_path: Path) -> None:
    ran = ghbench("matrix", "run", "--resume", "--cells", "S2-T1-1", "--out", "m")
    one_line_error(ran, 2, "--resume continues the stored selection", "--cells")
    assert not (tmp_path / "m").exists()


def test_resume_needs_a_stored_matrix(ghbench: Any, tmp_path: Path) -> None:
    ran = ghbench("matrix", "run", "--resume", "--out", "m")
    one_line_error(ran, 2, "--resume", "start the matrix without --resume first")


def test_an_unknown_cell_names_the_valid_ones(ghbench: Any, tmp_path: Path) -> None:
    ran = ghbench("matrix", "run", "--cells", "S2-T1-2", "--out", "m")
    one_line_error(ran, 2, "unknown cell 'S2-T1-2'", "S2-T1-1")
    assert not (tmp_path / "m").exists()


def test_merge_refuses_a_directory_without_runs(ghbench: Any, tmp_path: Path) -> None:
    (tmp_path / "job").mkdir()
    ran = ghbench("matrix", "merge", "job", "--out", "merged")
    one_line_error(ran, 2, "job has no runs/ directory")
