"""``matrix run --resume``: the stored settings, conflicts, old plan files.

The CLI tests use the simulated backend (deterministic, about a second per cell): a
resumed run must measure exactly what the interrupted invocation would have.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.artifacts.models import Scorecard
from ghbench.errors import ArtifactError, UsageError
from ghbench.matrix.runs import load_runs
from ghbench.matrix.state import (
    STATE_FILE,
    STATE_SCHEMA_VERSION,
    MatrixPlan,
    describe_settings,
    load_plan,
    resume_plan,
    save_plan,
)
from ghbench.runspec.spec import Duration, RunSpec

GIVEN = RunSpec(backend="emulator", session_ids=False)  # as matrix run's flags build it


def _stored(**changes: Any) -> MatrixPlan:
    settings = {"duration_scale": 0.01, "transport": "http", "seed": 5, **changes}
    spec = msgspec.structs.replace(GIVEN, **settings)
    return MatrixPlan(matrix_run="m1", scales=[1], cells=["S2-T1-1"], spec=spec)


def test_resume_keeps_the_stored_settings_over_untyped_defaults(tmp_path: Path) -> None:
    stored = _stored()
    assert resume_plan(stored, GIVEN, set(), tmp_path / STATE_FILE) is stored


def test_a_typed_flag_equal_to_the_stored_value_is_fine(tmp_path: Path) -> None:
    given = msgspec.structs.replace(GIVEN, duration_scale=0.01, transport="http")
    stored = _stored()
    assert resume_plan(stored, given, {"duration_scale", "transport"}, tmp_path) is stored


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("duration_scale", 0.5, "--duration-scale 0.5 conflicts with the stored 0.01"),
        ("transport", "gh", "--transport gh conflicts with the stored http"),
        ("seed", 0, "--seed 0 conflicts with the stored 5"),
        ("backend", "github", "--backend github conflicts with the stored emulator"),
        ("repos", ("o/a",), "--repos o/a conflicts with the stored none"),
        ("tick", Duration(2.0, "2s"), "--tick 2s conflicts with the stored the profile's"),
        ("session_ids", True, "--session-ids on conflicts with the stored off"),
        ("agents", "claude-code", "--agents claude-code conflicts with the stored none"),
    ],
)
def test_a_conflicting_flag_names_itself_and_the_stored_value(
    tmp_path: Path, field: str, value: Any, message: str
) -> None:
    given = msgspec.structs.replace(GIVEN, **{field: value})
    with pytest.raises(UsageError, match="^--resume: " + message.replace("'", ".")):
        resume_plan(_stored(), given, {field}, tmp_path / STATE_FILE)


def _write_v1(out: Path, **fields: Any) -> None:
    """A plan file as the first version wrote it: no settings besides these."""
    out.mkdir(parents=True, exist_ok=True)
    doc = {
        "schemaVersion": 1,
        "matrixRun": "m-old",
        "backend": "simulated",
        "driver": "workload",
        "seed": 0,
        "scales": [1],
        "cells": ["S2-T1-1"],
        "sessionIds": False,
        "repos": [],
        **fields,
    }
    (out / STATE_FILE).write_text(json.dumps(doc))


def test_version_1_plans_stay_readable_and_take_unrecorded_flags(tmp_path: Path) -> None:
    _write_v1(tmp_path, seed=4)
    old = load_plan(tmp_path)
    assert not old.settings_recorded
    spec = old.run
    assert (spec.duration_scale, spec.transport, spec.tick, spec.ao_command) == (
        1.0,
        "gh",
        None,
        None,
    )
    given = RunSpec(backend="simulated", tick=Duration(15.0, "15s"), profile="ao-bench-1e73a505")
    new = resume_plan(old, given, {"tick", "profile"}, tmp_path / STATE_FILE)
    assert new.settings_recorded and (new.run.tick, new.run.profile, new.run.seed) == (
        Duration(15.0, "15s"),
        "ao-bench-1e73a505",
        4,
    )
    # what version 1 did record still wins over the command line
    with pytest.raises(UsageError, match="--seed 0 conflicts with the stored 4"):
        resume_plan(old, given, {"seed"}, tmp_path / STATE_FILE)
    save_plan(tmp_path, new)
    assert json.loads((tmp_path / STATE_FILE).read_text())["schemaVersion"] == STATE_SCHEMA_VERSION
    assert load_plan(tmp_path) == new


def test_a_version_3_plan_reads_as_its_spec(tmp_path: Path) -> None:
    doc = {
        "schemaVersion": 3, "matrixRun": "m", "backend": "emulator", "driver": "workload",
        "seed": 2, "scales": [1], "cells": ["S2-T1-1"], "sessionIds": False, "repos": [],
        "durationScale": 0.1, "transport": "http", "profile": "head", "tick": 7.0,
        "aoCommand": None, "agents": "claude-code-badge",
    }  # fmt: skip
    (tmp_path / STATE_FILE).write_text(json.dumps(doc))
    spec = load_plan(tmp_path).run
    assert (spec.backend, spec.seed, spec.duration_scale, spec.transport) == (
        "emulator",
        2,
        0.1,
        "http",
    )
    assert (spec.profile, spec.tick, spec.agents) == (
        "ao-main-60e8c881",
        Duration(7.0, "7s"),
        "claude-code-badge-gh-2.23",  # version 3's habit alone ran gh 2.23's requests
    )
    assert spec.poll_interval == Duration(1.0, "1s")  # the emulator answers at once


def test_a_version_3_plans_agents_ran_gh_2_23(tmp_path: Path) -> None:
    # before gh 2.102's capture, a profile named its habit alone and sent gh 2.23's
    # requests; today the habit's name alone is gh 2.102's
    for stored, now in [
        ("claude-code", "claude-code-gh-2.23"),
        ("claude-code-rest-checks", "claude-code-rest-checks-gh-2.23"),
        ("none", "none"),
    ]:
        _write_v1(tmp_path, schemaVersion=3, agents=stored)
        assert load_plan(tmp_path).run.agents == now
    # version 4 named the gh, in flat fields still
    _write_v1(tmp_path, schemaVersion=4, agents="claude-code-gh-2.102")
    assert load_plan(tmp_path).run.agents == "claude-code-gh-2.102"


def test_unknown_fields_are_ignored_and_unknown_versions_refused(tmp_path: Path) -> None:
    save_plan(tmp_path, _stored())
    doc = json.loads((tmp_path / STATE_FILE).read_text())
    doc["spec"]["futureSetting"] = 1
    (tmp_path / STATE_FILE).write_text(json.dumps({**doc, "futureField": [1, 2]}))
    assert load_plan(tmp_path) == _stored(out_dir=tmp_path)  # a plan's directory is its own
    (tmp_path / STATE_FILE).write_text(json.dumps({**doc, "schemaVersion": 6}))
    with pytest.raises(ArtifactError, match="schemaVersion 6 is not supported"):
        load_plan(tmp_path)


def test_describe_settings_names_what_is_not_the_default() -> None:
    text = describe_settings(_stored(ao_command=None, repos=("o/a", "o/b")))
    assert text == (
        "backend emulator, driver workload, seed 5, --transport http, --repos o/a,o/b,"
        " --duration-scale 0.01"
    )


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ghbench", "matrix", "run", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def _scorecard(out: Path, cell: str) -> Scorecard | None:
    (run,) = [r for r in load_runs(out) if r.cell == cell]
    assert run.status == "ok", run.reason
    return run.scorecard


FLAGS = ("--seed", "3", "--profile", "pre-b1", "--tick", "15s")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh ``matrix run`` of S2-T1-1 with FLAGS: the run a resumed one must equal
    (the tests only read it)."""
    root = tmp_path_factory.mktemp("fresh")
    assert _cli("--cells", "S2-T1-1", *FLAGS, "--out", str(root / "out"), cwd=root).returncode == 0
    return root / "out"


@pytest.mark.slow
def test_cli_resume_measures_what_the_interrupted_run_would_have(
    tmp_path: Path, fresh: Path
) -> None:
    resumed, plain = tmp_path / "resumed", tmp_path / "plain"
    assert _cli("--cells", "S2-T1-1", "--out", str(plain), cwd=tmp_path).returncode == 0
    # the state a first invocation leaves when it is stopped before its first cell
    first = load_plan(fresh)
    save_plan(resumed, msgspec.structs.replace(first, matrix_run="m-interrupted"))
    proc = _cli("--resume", "--operator", "someone", "--tick", "15", "--out", str(resumed),
                cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith(
        "resuming m-interrupted: 0 of 1 cell(s) done; backend simulated, driver workload,"
        " seed 3, --profile ao-bench-1e73a505, --tick 15s\n"
    )
    assert _scorecard(resumed, "S2-T1-1") == _scorecard(fresh, "S2-T1-1")
    assert _scorecard(resumed, "S2-T1-1") != _scorecard(plain, "S2-T1-1")
    assert "#### Run 1 — someone (simulated, seed 3)" in (resumed / "baseline.md").read_text()


def test_cli_conflicting_flag_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    plan = _stored()
    save_plan(tmp_path, msgspec.structs.replace(plan, spec=RunSpec(backend="simulated")))
    before = (tmp_path / STATE_FILE).read_bytes()
    proc = _cli("--resume", "--profile", "bench-era", "--out", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "error: --resume: --profile bench-era conflicts with the stored ao-0.12.6 of"
        f" this matrix ({tmp_path / STATE_FILE}); drop --profile to resume with the stored"
        " settings, or start a new matrix in another --out"
    ]
    assert (tmp_path / STATE_FILE).read_bytes() == before
    assert not (tmp_path / "runs").exists()


@pytest.mark.slow
def test_cli_version_1_plan_resumes_with_the_flags_given_again(tmp_path: Path, fresh: Path) -> None:
    _write_v1(tmp_path, seed=3)
    proc = _cli("--resume", "--profile", "pre-b1", "--tick", "15s", "--out", str(tmp_path),
                cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    plan = load_plan(tmp_path)
    assert plan.settings_recorded and (plan.run.profile, plan.run.tick, plan.run.seed) == (
        "ao-bench-1e73a505",
        Duration(15.0, "15s"),
        3,
    )
    assert _scorecard(tmp_path, "S2-T1-1") == _scorecard(fresh, "S2-T1-1")


def test_cli_merged_directory_cannot_be_resumed(tmp_path: Path) -> None:
    save_plan(tmp_path, msgspec.structs.replace(_stored(), matrix_run="merged"))
    proc = _cli("--resume", "--out", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: --resume: ") and "matrix merge" in proc.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--driver", "ao"), "error: --driver ao applies only with --backend emulator|github"),
        (("--duration-scale", "0.1"), "error: --duration-scale applies only with --backend"),
        (
            ("--backend", "emulator", "--repos", "o/a"),
            "error: --repos o/a: a list names repositories on GitHub",
        ),
        (("--backend", "emulator", "--driver", "ao", "--tick", "5s"), "error: --tick applies"),
        (("--ao", "/bin/true"), "error: --ao applies only with --driver ao"),
        (("--backend", "emulator", "--session-ids"), "error: --session-ids applies only"),
        (
            ("--backend", "emulator", "--agents", "default"),
            "error: --agents applies only with --backend simulated or --driver ao",
        ),
    ],
)
def test_cli_a_flag_the_run_would_ignore_is_refused(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    proc = _cli("--cells", "S2-T1-1", *args, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(message)
    assert not (tmp_path / "out").exists()
