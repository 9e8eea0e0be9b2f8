"""``git_head`` and ``run_git`` on real git checkouts: the sha and branch, None for what
git cannot say, and a one-line error when git is not installed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ghbench.errors import ToolMissingError
from ghbench.gitinfo import git_head, run_git


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("checkout")
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (
        ["init", "-q", "-b", "feature/x"],
        [*ident, "commit", "-q", "--allow-empty", "-m", "one"],
    ):
        assert run_git(*args, cwd=path).returncode == 0
    return path


def test_the_sha_and_branch_of_a_checkout(checkout: Path) -> None:
    sha, branch = git_head(checkout)
    assert sha is not None and re.fullmatch(r"[0-9a-f]{40}", sha)
    assert branch == "feature/x"


def test_a_detached_head_has_a_sha_and_no_branch(checkout: Path, tmp_path: Path) -> None:
    sha, _ = git_head(checkout)
    assert sha is not None
    assert (
        run_git(
            "worktree", "add", "-q", "--detach", str(tmp_path / "d"), sha, cwd=checkout
        ).returncode
        == 0
    )
    assert git_head(tmp_path / "d") == (sha, None)


def test_what_git_cannot_say_is_none(tmp_path: Path) -> None:
    assert git_head(tmp_path / "missing") == (None, None)
    (tmp_path / "file").write_text("")
    assert git_head(tmp_path / "file") == (None, None)
    assert run_git("init", "-q", cwd=tmp_path).returncode == 0
    assert git_head(tmp_path) == (None, None)  # no commit yet


def test_run_git_captures_and_takes_the_whole_environment(checkout: Path) -> None:
    done = run_git(
        "config", "--get", "x.y", cwd=checkout, env={"GIT_CONFIG_PARAMETERS": "'x.y'='z'"}
    )
    assert (done.returncode, done.stdout) == (0, "z\n")
    missing = run_git("rev-parse", "nothing-here", cwd=checkout)
    assert missing.returncode != 0 and "nothing-here" in missing.stderr


def test_a_missing_git_is_a_tool_missing_error(tmp_path: Path) -> None:
    with pytest.raises(ToolMissingError, match=r"^git is not installed; install it"):
        run_git("--version", env={"PATH": str(tmp_path)})
