"""The daemon's project: the checkout ghbench runs in, found as the registry finds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.drivers.ao_daemon.project import checkout_project, github_repo_of
from ghbench.drivers.registry import find_project
from ghbench.errors import ConfigError, UsageError
from ghbench.runspec.spec import RunSpec

from .helpers import daemon_build, make_checkout


@pytest.mark.needs("git")
def test_the_project_is_the_checkout_ghbench_runs_in(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path, "git@github.com:acme/todo-app.git")
    (checkout / "src").mkdir()
    spec = RunSpec(driver="ao", ao_command=str(daemon_build(tmp_path)), project="todo-app")
    project = find_project(spec, {"PATH": "/usr/bin:/bin"}, checkout / "src", tmp_path)
    assert (project.id, project.path, project.repo) == ("todo-app", checkout, "acme/todo-app")
    assert (project.default_branch, project.session_prefix) == ("trunk", "todo-app")
    with pytest.raises(UsageError, match=r"--config .*no agent-orchestrator\.yaml"):
        find_project(
            RunSpec(driver="ao", ao_command=spec.ao_command, project="x", ao_config=tmp_path),
            {"PATH": "/usr/bin:/bin"},
            checkout,
            tmp_path,
        )


@pytest.mark.needs("git")
def test_a_checkout_that_is_not_on_github_is_refused_without_its_credential(
    tmp_path: Path,
) -> None:
    elsewhere = make_checkout(tmp_path / "a", "https://bob:s3cr3tpass@gitlab.com/acme/todo.git")
    with pytest.raises(ConfigError) as refused:
        checkout_project("todo-app", elsewhere)
    assert "not a github.com repository" in str(refused.value)
    assert "s3cr3tpass" not in str(refused.value)
    with pytest.raises(ConfigError, match="no 'origin' remote"):
        checkout_project("todo-app", make_checkout(tmp_path / "b", None))
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(ConfigError, match="not in a git checkout"):
        checkout_project("todo-app", plain)
    with pytest.raises(ConfigError, match="may only use"):
        checkout_project("todo app", tmp_path)


@pytest.mark.parametrize(
    ("url", "repo"),
    [
        ("https://github.com/acme/todo.git", "acme/todo"),
        ("https://x-access-token:t@github.com/acme/todo", "acme/todo"),
        ("git@github.com:acme/todo.git", "acme/todo"),
        ("ssh://git@github.com/acme/todo.js.git", "acme/todo.js"),
        ("https://gitlab.com/acme/todo.git", None),
        ("https://github.com/acme", None),
    ],
)
def test_github_remotes(url: str, repo: str | None) -> None:
    assert github_repo_of(url) == repo
