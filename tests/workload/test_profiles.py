"""Profiles are named after the AO build each reproduces; the old names still work everywhere."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.matrix.state import STATE_FILE, load_plan
from ghbench.workload.config import parse_workload_config
from ghbench.workload.profiles import (
    PROFILE_ALIASES,
    PROFILE_CHOICES,
    PROFILE_NAMES,
    PROFILES,
    canonical_profile,
)


def test_every_profile_has_parameters_and_every_alias_a_profile() -> None:
    assert set(PROFILES) == set(PROFILE_NAMES)
    assert set(PROFILE_ALIASES.values()) <= set(PROFILE_NAMES)
    assert (*PROFILE_NAMES, *PROFILE_ALIASES) == PROFILE_CHOICES
    assert canonical_profile("head") == "ao-main-60e8c881"
    assert canonical_profile("pre-b1") == "ao-bench-1e73a505"
    assert canonical_profile("bench-era") == "bench-era"
    with pytest.raises(
        ValueError, match=r"unknown profile 'nope'; use one of ao-0\.12\.6, ao-0\.10\.3, ao-main"
    ):
        canonical_profile("nope")


@pytest.mark.parametrize(
    ("written", "name"), [("pre-b1", "ao-bench-1e73a505"), ("head", "ao-main-60e8c881")]
)
def test_a_config_may_name_a_profile_by_its_old_name(written: str, name: str) -> None:
    cfg = parse_workload_config(f"profile: {written}\nrepos: [a/b]\n")
    assert cfg.profile == name
    assert cfg.policy == PROFILES[name]  # type: ignore[index]


def test_a_config_with_an_unknown_profile_names_the_key() -> None:
    with pytest.raises(Exception, match=r"profile"):
        parse_workload_config("profile: nope\nrepos: [a/b]\n")


def test_a_matrix_plan_written_with_an_old_name_reads_as_the_profile(tmp_path: Path) -> None:
    doc = {
        "schemaVersion": 2, "matrixRun": "m", "backend": "simulated", "driver": "workload",
        "seed": 0, "scales": [1], "cells": ["S2-T1-1"], "profile": "pre-b1",
    }  # fmt: skip
    (tmp_path / STATE_FILE).write_text(json.dumps(doc))
    assert load_plan(tmp_path).run.profile == "ao-bench-1e73a505"


def _simulate(profile: str, out: Path) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", "simulate", "--sessions", "3", "--warmup", "30s",
         "--duration", "2m", "--profile", profile, "--json", "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert f"({canonical_profile(profile)}, seed 0)" in proc.stderr  # named by its build
    card: dict[str, object] = json.loads(proc.stdout)
    card.pop("trace")
    return card


@pytest.mark.slow
def test_the_flag_takes_an_old_name_as_the_profile_it_stands_for(tmp_path: Path) -> None:
    assert _simulate("pre-b1", tmp_path / "a") == _simulate("ao-bench-1e73a505", tmp_path / "b")


def test_an_unknown_profile_flag_lists_names_and_aliases(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", "simulate", "--profile", "nope", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2
    names = "'ao-0.10.3', 'ao-main-60e8c881', 'ao-bench-1e73a505', 'bench-era', 'head', 'pre-b1'"
    assert names in proc.stderr
    assert "Traceback" not in proc.stderr
