"""AO's config search order and project schema, on real files."""

from pathlib import Path

import pytest

from ghbench.drivers.project import find_config, load_project, session_prefix
from ghbench.errors import ConfigError

CONFIG = "projects:\n  todo-app: {repo: acme/todo, path: ~/dev/todo-app}\n"


def _write(path: Path, text: str = CONFIG) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("name", "prefix"),
    [
        ("todo-app", "ta"),
        ("api", "api"),
        ("todo", "todo"),
        ("MyCoolApp", "mca"),
        ("snake_case_repo", "scr"),
        ("orchestrator", "orc"),
    ],
)
def test_session_prefix_follows_ao(name: str, prefix: str) -> None:
    assert session_prefix(name) == prefix


def test_env_path_wins_over_walk_up(tmp_path: Path) -> None:
    explicit = _write(tmp_path / "elsewhere" / "ao.yaml")
    _write(tmp_path / "work" / "agent-orchestrator.yaml")
    found = find_config({"AO_CONFIG_PATH": str(explicit)}, tmp_path / "work", tmp_path / "home")
    assert found == explicit


def test_walk_up_finds_yml_in_a_parent(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "repo" / "agent-orchestrator.yml")
    deep = tmp_path / "repo" / "a" / "b"
    deep.mkdir(parents=True)
    assert find_config({}, deep, tmp_path / "home") == cfg


def test_global_then_home_dotfile(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    dot = _write(home / ".agent-orchestrator.yaml")
    assert find_config({}, cwd, home) == dot
    xdg = _write(tmp_path / "xdg" / "agent-orchestrator" / "config.yaml")
    assert find_config({"XDG_CONFIG_HOME": str(tmp_path / "xdg")}, cwd, home) == xdg


def test_missing_config_says_where_it_looked(tmp_path: Path) -> None:
    (tmp_path / "cwd").mkdir()
    with pytest.raises(ConfigError, match=r"no agent-orchestrator\.yaml found.*--config"):
        find_config({}, tmp_path / "cwd", tmp_path / "home")


def test_bad_env_path_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="AO_CONFIG_PATH"):
        find_config({"AO_CONFIG_PATH": str(tmp_path / "nope.yaml")}, tmp_path, tmp_path)


def test_project_fields_and_derived_prefix(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "agent-orchestrator.yaml")
    project = load_project("todo-app", env={}, cwd=tmp_path, home=tmp_path)
    assert project.repo == "acme/todo"
    assert project.default_branch == "main"
    assert project.path == Path("~/dev/todo-app").expanduser()
    assert project.session_prefix == "ta"
    assert project.config_path == cfg.resolve()


def test_unknown_project_lists_the_known_ones(tmp_path: Path) -> None:
    _write(tmp_path / "agent-orchestrator.yaml")
    with pytest.raises(ConfigError, match=r"unknown project 'nope' \(known: todo-app\)"):
        load_project("nope", env={}, cwd=tmp_path, home=tmp_path)


def test_repo_must_be_owner_name(tmp_path: Path) -> None:
    _write(tmp_path / "agent-orchestrator.yaml", "projects:\n  p: {repo: nope, path: /x}\n")
    with pytest.raises(ConfigError, match=r"projects\.p\.repo: 'nope' is not owner/name"):
        load_project("p", env={}, cwd=tmp_path, home=tmp_path)
