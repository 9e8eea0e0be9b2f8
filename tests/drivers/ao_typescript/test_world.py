"""ghbench.drivers.ao_typescript.world: the user's AO config reduced to one project in
ghbench's private world (pure), and a config AO could not read refused with its file.
(The world cloned and derived on real git: tests/drivers/ao_typescript/test_runtime.py.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ghbench.drivers.ao_typescript.world import AoWorld, derived_config
from ghbench.drivers.project import Project
from ghbench.errors import ConfigError

PROJECT = Project("todo-app", Path("/u/todo-app"), "acme/todo", "main", "ta", Path("/u/ao.yaml"))


def test_only_the_project_is_kept_pointed_at_the_clone_without_notifiers() -> None:
    raw = {
        "port": 3000,
        "notifiers": {"slack": {"webhookUrl": "https://hooks.example/x"}},
        "notificationRouting": {"urgent": ["slack"]},
        "defaults": {"agent": "claude-code", "notifiers": ["slack"]},
        "projects": {
            "todo-app": {"path": "/u/todo-app", "agent": "codex", "sessionPrefix": "old"},
            "other": {"path": "/u/other"},
        },
    }
    derived = derived_config(raw, PROJECT, Path("/w/checkout/todo-app"))
    assert derived == {
        "port": 3000,
        "defaults": {"agent": "claude-code", "notifiers": []},
        "projects": {
            "todo-app": {
                "path": "/w/checkout/todo-app",
                "agent": "codex",
                "sessionPrefix": "ta",
                "repo": "acme/todo",
                "defaultBranch": "main",
            }
        },
    }
    assert raw["defaults"] == {"agent": "claude-code", "notifiers": ["slack"]}  # untouched


def test_a_config_without_projects_still_gets_the_project() -> None:
    for raw in ({}, {"projects": None}):
        derived = derived_config(raw, PROJECT, Path("/w/c"))
        assert list(derived["projects"]) == ["todo-app"]
        assert derived["projects"]["todo-app"]["path"] == "/w/c"


@pytest.mark.needs("git")
@pytest.mark.parametrize(
    ("text", "said"),
    [("projects: [unclosed", "not valid YAML"), ("- a list\n", "the top level must be a mapping")],
)
def test_a_config_ao_could_not_read_names_its_file(text: str, said: str, tmp_path: Path) -> None:
    checkout = tmp_path / "todo-app"
    checkout.mkdir()
    subprocess.run(["git", "-C", str(checkout), "init", "-q", "-b", "main"], check=True)
    config = tmp_path / "agent-orchestrator.yaml"
    config.write_text(text)
    project = Project("todo-app", checkout, "acme/todo", "main", "ta", config)
    with pytest.raises(ConfigError, match=f"^{config}: {said}"):
        AoWorld(tmp_path / "world", project).prepare(None)
