"""Running git on a bare repository: none of the caller's git setup applies, a failure
names the command and git's last line, an expected exit code is not a failure."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ghbench.emulator.git.command import GitFailed, git_env, run_git

pytestmark = pytest.mark.needs("git")


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    repo = tmp_path / "r.git"
    subprocess.run(["git", "init", "-q", "--bare", str(repo)], check=True)
    return repo


def test_the_callers_git_variables_never_reach_git(
    bare: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_DIR", "/elsewhere")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Caller")
    env = git_env(bare, {"GIT_AUTHOR_NAME": "Emulator"})
    assert env["GIT_DIR"] == str(bare) and env["GIT_AUTHOR_NAME"] == "Emulator"
    assert env["GIT_CONFIG_GLOBAL"] == "/dev/null" and env["GIT_CONFIG_NOSYSTEM"] == "1"
    assert "GIT_AUTHOR_NAME" not in git_env(bare)


def test_run_git_answers_stdout_and_takes_input(bare: Path) -> None:
    code, out = run_git(bare, ["hash-object", "-w", "--stdin"], input=b"hello\n")
    assert code == 0 and out.strip() == b"ce013625030ba8dba906f756967f9e9ca394464a"
    assert run_git(bare, ["cat-file", "-p", out.strip().decode()])[1] == b"hello\n"


def test_a_failure_names_the_command_and_gits_last_line(bare: Path) -> None:
    with pytest.raises(GitFailed) as failed:
        run_git(bare, ["rev-parse", "--verify", "refs/heads/nope"])
    assert failed.value.returncode == 128
    assert str(failed.value) == (
        "git rev-parse --verify failed (128): fatal: Needed a single revision"
    )
    assert "Needed a single revision" in failed.value.stderr


def test_exit_codes_the_caller_expects_are_answers(bare: Path) -> None:
    # show-ref --verify exits 1 for a missing ref: an answer, not an error, when asked for
    code, out = run_git(bare, ["show-ref", "--quiet", "--verify", "refs/heads/x"], ok=(0, 1))
    assert (code, out) == (1, b"")
