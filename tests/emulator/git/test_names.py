"""ghbench.emulator.git.names: the ref names git check-ref-format refuses and the tree
paths GitHub's contents API refuses, and both refused at the emulator's doors (the
REST API's refs and the control API's push) before anything is written on disk."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from ghbench.clock import VirtualClock
from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.core import Emulator
from ghbench.emulator.git.names import path_problem, ref_problem
from ghbench.emulator.thread_server import EmulatorServer

from ..emu_helpers import TOKEN


@pytest.mark.parametrize("name", ["heads/main", "heads/feat/a-1", "tags/v1.0", "heads/x@y"])
def test_names_git_takes(name: str) -> None:
    assert ref_problem(name) is None


@pytest.mark.parametrize(
    "name",
    [
        "heads/../../x",
        "heads/a..b",
        "heads/.hidden",
        "heads/a.lock",
        "heads/a/",
        "heads/a.",
        "heads//a",
        "heads/a b",
        "heads/a:b",
        "heads/a\x01",
        "heads/a@{1}",
        "heads/a~1",
        "",
    ],
)
def test_names_git_refuses(name: str) -> None:
    assert ref_problem(name) is not None


@pytest.mark.parametrize("path", ["README.md", "src/a.py", "a/b/c.txt", ".github/x.yml"])
def test_paths_a_tree_holds(path: str) -> None:
    assert path_problem(path) is None


@pytest.mark.parametrize(
    "path", ["/etc/x", "../x", "a/../b", "a//b", "./a", ".git/config", "a\x00b"]
)
def test_paths_a_tree_cannot_hold(path: str) -> None:
    assert path_problem(path) is not None


def test_bad_names_are_422s_and_nothing_reaches_the_disk(tmp_path: Path) -> None:
    emulator = Emulator(state_dir=tmp_path / "state", clock=VirtualClock())
    control = {CONTROL_KEY_HEADER: emulator.control_key}
    auth = {"Authorization": f"token {TOKEN}"}
    seed = {"users": {"octo": [TOKEN]}, "repos": [{"name": "acme/todo"}]}
    with EmulatorServer(emulator) as server, httpx.Client(base_url=server.url) as client:
        assert client.post("/_ghbench/seed", json=seed, headers=control).status_code == 200
        main = client.get("/repos/acme/todo/git/ref/heads/main", headers=auth).json()
        made = client.post(
            "/repos/acme/todo/git/refs",
            json={"ref": "refs/heads/../../../escaped", "sha": main["object"]["sha"]},
            headers=auth,
        )
        assert made.status_code == 422
        assert made.json()["message"] == "refs/heads/../../../escaped is not a valid ref name."
        for body in (
            {"branch": "a..b"},
            {"branch": "feat", "files": {"../outside.txt": "x"}},
            {"branch": "feat", "files": {"a\x00b": "x"}},
        ):
            pushed = client.post("/_ghbench/repos/acme/todo/push", json=body, headers=control)
            assert pushed.status_code == 422, (body, pushed.text)
        branches = client.get("/repos/acme/todo/branches", headers=auth).json()
        assert [b["name"] for b in branches] == ["main"]
    emulator.close()
    assert not list(tmp_path.rglob("escaped")) and not list(tmp_path.rglob("outside.txt"))
