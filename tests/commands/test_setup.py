"""``ghbench setup``'s bad input: one line saying what to do, a non-zero exit, and nothing
written; and ``--help`` loads no flow."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from tests.commands.conftest import one_line_error
from tests.harness.helpers import WORKLOAD_FLAGS, clean_env, ghbench

SETUP = ["setup", "--project", "todo-app", "--sessions", "2", "--issues", "1,2", "--out", "out"]


def test_missing_config(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    proc = ghbench(*SETUP, *WORKLOAD_FLAGS, cwd=tmp_path, env=clean_env(tmp_path))
    one_line_error(proc, 2, "agent-orchestrator.yaml", "--config")
    assert not (tmp_path / "out").exists()


def test_unknown_project(root: Path) -> None:
    args = [a if a != "todo-app" else "nope" for a in SETUP]
    proc = ghbench(*args, *WORKLOAD_FLAGS, cwd=root, env=clean_env(root))
    one_line_error(proc, 2, "unknown project 'nope'", "--project")
    assert not (root / "out").exists()


def test_issue_session_mismatch(root: Path) -> None:
    args = [*SETUP[:-4], "--issues", "1-3", "--out", "out"]
    proc = ghbench(*args, *WORKLOAD_FLAGS, cwd=root, env=clean_env(root))
    one_line_error(proc, 2, "--issues lists 3 issues but --sessions is 2")
    assert not (root / "out").exists()


def test_missing_gh_for_the_gh_transport(root: Path, tmp_path: Path) -> None:
    flags = [f if f != "http" else "gh" for f in WORKLOAD_FLAGS]
    env = clean_env(root, PATH=str(tmp_path / "empty-bin"))
    proc = ghbench(*SETUP, *flags, cwd=root, env=env)
    one_line_error(proc, 1, "gh", "install")
    assert not (root / "out").exists()


def test_missing_ao(root: Path, tmp_path: Path) -> None:
    env = clean_env(root, PATH=str(tmp_path / "empty-bin"))
    proc = ghbench(*SETUP, "--driver", "ao", "--github", "emulator", cwd=root, env=env)
    one_line_error(proc, 1, "AO's CLI was not found", "--ao")
    assert not (root / "out").exists()


def test_missing_tmux_for_ao(root: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_ao = bin_dir / "ao"
    fake_ao.write_text("#!/bin/sh\nexit 0\n")
    fake_ao.chmod(0o755)
    env = clean_env(root, PATH=str(bin_dir))
    proc = ghbench(*SETUP, "--driver", "ao", "--github", "emulator", cwd=root, env=env)
    one_line_error(proc, 1, "tmux is not installed")
    assert not (root / "out").exists()


def test_missing_node_for_an_ao_checkout(root: Path, tmp_path: Path) -> None:
    checkout = tmp_path / "ao-checkout"
    entry = checkout / "packages" / "cli" / "dist" / "index.js"
    entry.parent.mkdir(parents=True)
    entry.write_text("")
    env = clean_env(root, PATH=str(tmp_path / "empty-bin"))
    proc = ghbench(
        *SETUP, "--driver", "ao", "--ao", str(checkout), "--github", "emulator", cwd=root, env=env
    )
    one_line_error(proc, 1, "node is not installed")


@pytest.mark.needs("gh")  # for 'gh auth token'
def test_no_token_for_real_github(root: Path, tmp_path: Path) -> None:
    gh_config = tmp_path / "gh-config"
    gh_config.mkdir()
    env = clean_env(root, GH_CONFIG_DIR=str(gh_config))
    assert "GH_TOKEN" not in env and "GITHUB_TOKEN" not in env
    flags = ["--driver", "workload", "--transport", "http"]
    proc = ghbench(*SETUP, *flags, cwd=root, env=env)
    one_line_error(proc, 1, "no GitHub token", "GH_TOKEN", "gh auth login")
    assert not (root / "out").exists()


def test_help_stays_light() -> None:
    code = (
        "import sys\nfrom ghbench.cli import main\n"
        "for c in ('setup', 'measure', 'demo'):\n"
        "    try:\n        main([c, '--help'])\n    except SystemExit:\n        pass\n"
        "heavy = [m for m in ('numpy', 'matplotlib', 'starlette', 'duckdb', 'rich')"
        " if m in sys.modules]\nprint(heavy, file=sys.stderr)\n"
    )
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert proc.stderr.strip().splitlines()[-1] == "[]"
