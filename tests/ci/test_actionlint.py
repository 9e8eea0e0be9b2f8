"""actionlint on the action, the example workflow in docs/ci.md and ``matrix plan``'s output.

actionlint checks a local action (``uses: ./``) only inside a git repository, so each
check lays out a throwaway repository: ``action.yml`` at its root and the workflow
under ``.github/workflows``. A deliberate mistake in each is caught too, so the checks
cannot pass by checking nothing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import REPO


def documented_workflows() -> list[str]:
    """docs/ci.md's yaml blocks, each a whole workflow: the gate, then the history's."""
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    assert len(blocks) == 3, "docs/ci.md holds three workflows: the gate, Bencher, gab"
    return blocks


def example_workflow() -> str:
    """The budget gate's workflow: the first of docs/ci.md."""
    return documented_workflows()[0]


def lint(actionlint: str, root: Path, workflow: str) -> subprocess.CompletedProcess[str]:
    """actionlint on ``workflow``, in a git repository at ``root`` holding our action."""
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    shutil.copy(REPO / "action.yml", root / "action.yml")
    path = root / ".github" / "workflows" / "ghbench.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(workflow, encoding="utf-8")
    return subprocess.run(
        [actionlint, "-no-color", str(path.relative_to(root))],
        cwd=root,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_documented_workflows_and_the_action_pass(
    actionlint: str, tmp_path: Path, index: int
) -> None:
    proc = lint(actionlint, tmp_path, documented_workflows()[index])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == ""


def test_a_wrong_input_to_the_action_is_caught(actionlint: str, tmp_path: Path) -> None:
    broken = example_workflow().replace(
        "          baseline: baseline\n", "          baseline: baseline\n          basline: x\n"
    )
    proc = lint(actionlint, tmp_path, broken)
    assert proc.returncode == 1
    assert 'input "basline" is not defined in action "ghbench budget gate"' in proc.stdout


def test_an_input_the_action_requires_is_caught(actionlint: str, tmp_path: Path) -> None:
    proc = lint(
        actionlint, tmp_path, example_workflow().replace("          baseline: baseline\n", "")
    )
    assert proc.returncode == 1 and 'missing input "baseline"' in proc.stdout


def _plan(*selection: str) -> dict[str, object]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ghbench",
            "matrix",
            "plan",
            *selection,
            "--format",
            "github-actions",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    plan: dict[str, object] = json.loads(proc.stdout)
    return plan


def plan_workflow(plan: dict[str, object], keys: list[str]) -> str:
    """A workflow whose matrix is the plan itself, using each of ``keys``."""
    env = "\n".join(f"          {k.upper()}: ${{{{ matrix.{k} }}}}" for k in keys)
    names = " ".join(f'"${k.upper()}"' for k in keys)
    return f"""on: push
jobs:
  cell:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix: {json.dumps(plan)}
    steps:
      - run: echo {names}
        env:
{env}
"""


@pytest.mark.parametrize("selection", [["--priority"], ["--all"], ["--cells", "S4-T2-10"]])
def test_matrix_plan_output_is_a_matrix_with_the_keys_jobs_use(
    actionlint: str, tmp_path: Path, selection: list[str]
) -> None:
    workflow = plan_workflow(
        _plan(*selection), ["cell", "scenario", "topology", "scale", "priority"]
    )
    proc = lint(actionlint, tmp_path, workflow)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_key_the_plan_does_not_have_is_caught(actionlint: str, tmp_path: Path) -> None:
    proc = lint(actionlint, tmp_path, plan_workflow(_plan("--priority"), ["cell", "runner"]))
    assert proc.returncode == 1 and 'property "runner" is not defined' in proc.stdout


def test_the_workflows_run_scripts_are_shellchecked(
    actionlint: str, shellcheck: str, tmp_path: Path
) -> None:
    quoted = 'cat merged/baseline.md >> "$GITHUB_STEP_SUMMARY"'
    assert quoted in example_workflow()
    unquoted = example_workflow().replace(quoted, "cat merged/baseline.md >> $GITHUB_STEP_SUMMARY")
    proc = lint(actionlint, tmp_path, unquoted)
    assert proc.returncode == 1 and "SC2086" in proc.stdout and "[shellcheck]" in proc.stdout


def test_the_actions_own_scripts_pass_shellcheck(shellcheck: str, tmp_path: Path) -> None:
    steps = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]
    scripts = [s["run"] for s in steps if "run" in s]
    assert len(scripts) == 5
    for i, script in enumerate(scripts):
        path = tmp_path / f"step{i}.sh"
        path.write_text(f"#!/usr/bin/env bash\nset -eo pipefail\n{script}")
        proc = subprocess.run([shellcheck, "-s", "bash", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout
