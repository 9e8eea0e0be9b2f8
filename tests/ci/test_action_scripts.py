"""The composite action's own scripts, run with bash as a GitHub runner runs them.

Each ``run:`` step of ``action.yml`` gets the environment the runner would give it:
its ``env:`` with its expressions filled in (inputs, the event, earlier steps'
outputs), ``GITHUB_OUTPUT``, ``GITHUB_STEP_SUMMARY`` and ``GITHUB_ACTION_PATH``, and
runs under ``bash -e -o pipefail`` when its ``if:`` holds. The ``uses:`` steps
(setup-python, the upload) and the install step are the runner's business: ghbench is
already installed in this venv. Everything else is real: the cell runs with ``ghbench
matrix run`` and the comparison is ``ghbench compare``. tests/ci/test_act.py runs the
whole action, its ``uses:`` steps included, in a workflow under ``act``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import REPO

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
STEP_NAMES = [s.get("name") for s in ACTION["runs"]["steps"]]
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_COMPARISON = re.compile(r"^([\w.-]+) (==|!=) '([^']*)'$")


def _inputs(given: dict[str, str]) -> dict[str, str]:
    declared: dict[str, Any] = ACTION["inputs"]
    assert set(given) <= set(declared), set(given) - set(declared)
    return {name: given.get(name, str(spec.get("default", ""))) for name, spec in declared.items()}


def _value(expr: str, context: dict[str, str]) -> str:
    """A context value (``inputs.cell``, ``steps.compare.outputs.markdown``), or the first
    non-empty of ``a || b``: the expressions the action uses, no more."""
    for name in expr.split(" || "):
        assert name in context or name.startswith(("inputs.", "steps.")), (
            f"this test knows no expression like {expr!r}"
        )
        if context.get(name, ""):
            return context[name]
    return ""


def _condition(expr: str | None, context: dict[str, str]) -> bool:
    """``a == 'x' && b != ''``: the conditions the action uses, no more."""
    if expr is None:
        return True
    for part in expr.split(" && "):
        m = _COMPARISON.match(part.strip())
        assert m is not None, f"this test knows no condition like {expr!r}"
        name, op, literal = m.groups()
        if (_value(name, context) == literal) != (op == "=="):
            return False
    return True


def run_action(workdir: Path, event: str = "push", **given: str) -> tuple[int, dict[str, str], str]:
    """Run the action's steps in ``workdir`` as a runner would on ``event``; (exit code,
    outputs, job summary). ``uses:`` steps (setup-python, the upload) and the install are
    the runner's business: ghbench is already installed in this venv."""
    inputs = _inputs({k.replace("_", "-"): v for k, v in given.items()})
    context = {f"inputs.{k}": v for k, v in inputs.items()}
    context |= {"github.event_name": event, "github.event.pull_request.number": ""}
    summary = workdir / "step-summary"
    summary.write_text("")
    base = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(workdir),
        "LANG": "C.UTF-8",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_ACTION_PATH": str(REPO),
    }
    code = 0
    outputs: dict[str, str] = {}
    for i, step in enumerate(ACTION["runs"]["steps"]):
        if "run" not in step or step.get("name") == "Install ghbench":
            continue
        if not _condition(step.get("if"), context):
            continue
        assert step["shell"] == "bash"
        env = {
            k: _EXPR.sub(lambda m, known=dict(context): _value(m.group(1), known), v)
            for k, v in step.get("env", {}).items()
        }
        assert not _EXPR.search(step["run"]), "inputs reach scripts through env only"
        output = workdir / f"github-output-{i}"
        output.write_text("")
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step["run"]],
            cwd=workdir,
            env={**base, **env, "GITHUB_OUTPUT": str(output)},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        written = dict(
            line.split("=", 1) for line in output.read_text().splitlines() if "=" in line
        )
        if "id" in step:
            outputs |= written
            context |= {f"steps.{step['id']}.outputs.{k}": v for k, v in written.items()}
        code = proc.returncode
        if code != 0:
            break
    return code, outputs, summary.read_text()


def test_steps_are_the_ones_this_test_runs() -> None:
    assert STEP_NAMES == [
        None,
        "Install ghbench",
        "Run the cell",
        "Compare with the baseline",
        "Comment on the pull request",
        "Upload the HTML pages",
        "Fail when a threshold failed",
    ]


@pytest.fixture(scope="module")
def head_baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """main's artifact: the cell run by the action itself, with the head profile."""
    work = tmp_path_factory.mktemp("main")
    code, outputs, summary = run_action(
        work, baseline="none-yet", cell="S2-T1-5", run_args="--profile head"
    )
    assert code == 0 and outputs["passed"] == "true"
    assert "No baseline at `none-yet`" in summary
    assert (work / outputs["markdown"]).read_text() == summary
    cards = list((work / "ghbench-compare" / "candidate").rglob("scorecard-*.json"))
    assert len(cards) == 1
    return cards[0].parent


@pytest.mark.slow  # head_baseline runs a real-time matrix cell
def test_a_regression_fails_the_job_with_exit_3_and_fills_the_summary(
    head_baseline: Path, tmp_path: Path
) -> None:
    code, outputs, summary = run_action(
        tmp_path,
        baseline=str(head_baseline),
        cell="S2-T1-5",
        run_args="--profile pre-b1",
        fail="  graphqlPointsPerHr>+10%\n\nopaqueCallPct > 0.99  \n",
    )
    assert code == 3
    assert outputs["passed"] == "false" and outputs["exit-code"] == "3"
    assert summary.startswith("### ghbench compare: `quiet-steady.single-repo.5`")
    assert "| ❌ fail | `graphqlPointsPerHr>+10%` |" in summary
    assert "| ✅ pass | `opaqueCallPct > 0.99` |" in summary
    assert Path(tmp_path / outputs["json"]).read_text().count('"failed": true') == 1
    assert Path(tmp_path / outputs["markdown"]).read_text() == summary
    page = Path(tmp_path / outputs["html"]).read_text()
    assert 'data-page="compare"' in page and "1 of 2 threshold(s) failed" in page


@pytest.mark.slow  # head_baseline runs a real-time matrix cell
def test_a_scorecard_given_is_compared_without_running_a_cell(
    head_baseline: Path, tmp_path: Path
) -> None:
    code, outputs, _ = run_action(
        tmp_path,
        baseline=str(head_baseline),
        scorecard=str(head_baseline),
        fail="graphqlPointsPerHr>+10%",
    )
    assert code == 0 and outputs["passed"] == "true"
    assert not (tmp_path / "ghbench-compare" / "candidate").exists()


@pytest.mark.slow  # head_baseline runs a real-time matrix cell
def test_a_missing_baseline_fails_when_asked(tmp_path: Path, head_baseline: Path) -> None:
    code, outputs, summary = run_action(
        tmp_path, baseline="nowhere", scorecard=str(head_baseline), if_no_baseline="fail"
    )
    assert code == 1 and "passed" not in outputs and summary == ""


@pytest.mark.slow  # head_baseline runs a real-time matrix cell
def test_a_malformed_threshold_fails_with_exit_2(tmp_path: Path, head_baseline: Path) -> None:
    code, _, summary = run_action(
        tmp_path, baseline=str(head_baseline), scorecard=str(head_baseline), fail="graphql>>1"
    )
    assert code == 2 and summary == ""


@pytest.mark.slow  # head_baseline runs a real-time matrix cell
@pytest.mark.needs("bash")
def test_inputs_with_shell_characters_stay_data(tmp_path: Path, head_baseline: Path) -> None:
    marker = tmp_path / "pwned"
    code, _, _ = run_action(
        tmp_path,
        baseline=str(head_baseline),
        scorecard=str(head_baseline),
        fail=f"x>1; touch {marker}",
    )
    assert code == 2 and not marker.exists()
