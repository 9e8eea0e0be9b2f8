"""Environments that point real clients at an emulator: what gh and git are given, and
that git (the real one) reads them as meant: remotes rewritten, the proxy for the
emulator's host only, the token from the environment and from no helper but ours."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ghbench.emulator.client_env import (
    GITHUB_REMOTE_PREFIXES,
    credential_entries,
    gh_enterprise_environment,
    gh_environment,
    git_config_environment,
    git_environment,
)

URL = "http://127.0.0.1:8765"


def test_gh_goes_through_the_emulator_as_a_proxy() -> None:
    env = gh_environment(URL, "ghp_x")
    assert env["GH_HOST"] == "github.localhost" and env["GH_TOKEN"] == "ghp_x"
    assert {env[k] for k in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")} == {URL}
    assert env["NO_PROXY"] == env["no_proxy"] == ""  # a user's NO_PROXY cannot bypass it
    assert "HOME" not in env


def test_gh_without_a_token_and_with_a_private_home(tmp_path: Path) -> None:
    env = gh_environment(URL, None, tmp_path)
    assert "GH_TOKEN" not in env
    assert env["HOME"] == str(tmp_path)
    assert env["GH_CONFIG_DIR"] == str(tmp_path / ".config" / "gh")
    assert env["TMPDIR"] == str(tmp_path / "tmp")


def test_git_config_entries_follow_a_callers_own() -> None:
    env = git_config_environment([("a.b", "1"), ("c.d", "2")], {"GIT_CONFIG_COUNT": "2"})
    assert env == {
        "GIT_CONFIG_KEY_2": "a.b",
        "GIT_CONFIG_VALUE_2": "1",
        "GIT_CONFIG_KEY_3": "c.d",
        "GIT_CONFIG_VALUE_3": "2",
        "GIT_CONFIG_COUNT": "4",
        "GIT_TERMINAL_PROMPT": "0",
    }
    assert git_config_environment([], {"GIT_CONFIG_COUNT": ""})["GIT_CONFIG_COUNT"] == "0"


def test_the_credential_list_is_reset_before_our_helper() -> None:
    (reset, helper) = credential_entries("http://h/", "MY_TOKEN")
    assert reset == ("credential.http://h/.helper", "")
    assert helper[0] == "credential.http://h/.helper" and '"$MY_TOKEN"' in helper[1]


def _git(env: dict[str, str], home: Path, *args: str, stdin: str = "") -> str:
    full = {"PATH": os.environ["PATH"], "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"} | env
    done = subprocess.run(
        ["git", *args], env=full, input=stdin, capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.mark.needs("git")
def test_git_rewrites_every_github_remote_and_proxies_only_the_emulator(tmp_path: Path) -> None:
    env = git_environment(URL)
    for prefix in GITHUB_REMOTE_PREFIXES:
        remote = _git(env, tmp_path, "ls-remote", "--get-url", f"{prefix}acme/todo.git")
        assert remote.strip() == "http://github.localhost/acme/todo.git"
    proxy = _git(
        env, tmp_path, "config", "--get-urlmatch", "http.proxy", "http://github.localhost/x"
    )
    assert proxy.strip() == URL
    other = subprocess.run(
        ["git", "config", "--get-urlmatch", "http.proxy", "https://gitlab.com/x"],
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)} | env,
        capture_output=True,
    )
    assert other.returncode == 1  # no proxy for anyone else


@pytest.mark.needs("git")
def test_git_asks_our_helper_alone_and_it_answers_the_variables_token(tmp_path: Path) -> None:
    (tmp_path / ".gitconfig").write_text("[credential]\n\thelper = store\n")  # the user's own
    (tmp_path / ".git-credentials").write_text("http://x:users-secret@github.localhost\n")
    env = git_environment(URL, token_variable="EMU_TOKEN") | {"EMU_TOKEN": "ghp_emu"}
    answer = _git(env, tmp_path, "credential", "fill", stdin="url=http://github.localhost/a/b\n\n")
    assert "username=x-access-token\npassword=ghp_emu\n" in answer
    assert "users-secret" not in answer


def test_enterprise_gh_dials_the_unix_socket_from_a_private_config(tmp_path: Path) -> None:
    socket_path = tmp_path / "emu.sock"
    env = gh_enterprise_environment("ghe.example.com", socket_path, "ghp_ent", tmp_path / "home")
    config = tmp_path / "home" / ".config" / "gh" / "config.yml"
    assert config.read_text() == f"http_unix_socket: {socket_path}\n"
    assert env["GH_HOST"] == "ghe.example.com" and env["GH_CONFIG_DIR"] == str(config.parent)
    assert env["GH_ENTERPRISE_TOKEN"] == "ghp_ent" and "GH_TOKEN" not in env
    assert (tmp_path / "home" / "tmp").is_dir()
    again = gh_enterprise_environment("ghe.example.com", socket_path, None, tmp_path / "home")
    assert "GH_ENTERPRISE_TOKEN" not in again  # and a second call over the same home works
