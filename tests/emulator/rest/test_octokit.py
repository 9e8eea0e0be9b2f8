"""@octokit/rest (node), unchanged, against the emulator over a real socket: CI by a
branch name with ``/``, the diff media type, labels, comments, review requests,
search, Actions (tests/node/octokit_calls.mjs makes the calls)."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

from github_descriptions import NODE_DIR, need_node

REPO = "acme/todo"


def test_octokit_calls(emulator_server: Any) -> None:
    node = need_node()
    emu = emulator_server.emulator
    emu.create_user("hubot")
    emu.create_issue(REPO, "Bug", author="octo")
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo", labels=["bug"])
    emu.set_ci(REPO, "failure", pr=2)
    env = os.environ | {"GHBENCH_URL": emulator_server.url, "GHBENCH_TOKEN": emulator_server.token}
    result = subprocess.run(
        [node, str(NODE_DIR / "octokit_calls.mjs")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["pulls.list"] == [[2, ["bug"]]]
    assert out["pulls.get diff"].startswith("diff --git ")
    assert out["combined status feat/a"] == "failure"
    assert out["check runs feat/a"] == ["failure"]
    assert out["commit feat/a"] == "Feature A"
    assert out["ref heads/feat/a"] == "refs/heads/feat/a"
    assert out["branches"] == ["feat/a", "main"]
    assert out["comment"] == 201
    assert out["add labels"] == ["bug", "triage"]
    assert out["request reviewers"] == ["hubot"]
    assert out["search"] == [2]
    assert out["workflow runs"] == 1
    assert out["missing run"]["status"] == 404
