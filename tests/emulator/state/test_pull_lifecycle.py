"""Pull requests whose state changes as GitHub's does (issue 21 cases 2, 3 and 4), driven
with real gh 2.23 and git over a socket.

2. A base that moves into a conflict makes the PR CONFLICTING / DIRTY (after GitHub's
   UNKNOWN while it computes), and REST says ``mergeable: false``.
3. Deleting an open PR's head branch closes it; reopening is GitHub's 422 until the
   branch is pushed again.
4. Merging a PR whose body says "Closes #N" closes issue N (completed, by the merge
   commit, as its events say).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gh_helpers import api, gh, ok
from git_helpers import base_env, commit_file, git, with_token

pytestmark = [pytest.mark.gh, pytest.mark.slow]

REPO = "acme/todo"


@pytest.fixture
def work(emulator_server: Any, tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A clone of acme/todo through the proxy address, with a token to push."""
    env = base_env(tmp_path / "home")
    env["http_proxy"] = emulator_server.url
    env = with_token(env, emulator_server.url, emulator_server.token, "github.localhost")
    checkout = tmp_path / "work"
    git(env, "clone", "-q", "http://github.localhost/acme/todo.git", str(checkout))
    return env, checkout


def _merge_state(gh_env: dict[str, str], number: int) -> tuple[str, str]:
    found = json.loads(
        ok(gh_env, "pr", "view", str(number), "-R", REPO, "--json", "mergeable,mergeStateStatus")
    )
    return found["mergeable"], found["mergeStateStatus"]


def test_a_base_that_moves_into_a_conflict_makes_the_pull_request_dirty(
    gh_env: dict[str, str], emulator_server: Any, work: tuple[dict[str, str], Path]
) -> None:
    env, checkout = work
    git(env, "checkout", "-q", "-b", "agent/x", cwd=checkout)
    commit_file(env, checkout, "README.md", "# todo, by the agent\n", "Reword the title")
    git(env, "push", "-q", "origin", "agent/x", cwd=checkout)
    ok(gh_env, "pr", "create", "-R", REPO, "-H", "agent/x", "-t", "Reword", "-b", "")
    assert _merge_state(gh_env, 1) == ("UNKNOWN", "UNKNOWN")  # computing
    assert _merge_state(gh_env, 1) == ("MERGEABLE", "CLEAN")
    # someone else changes the same line on main
    emulator_server.emulator.push(REPO, "main", "Retitle", files={"README.md": "# todo app\n"})
    assert _merge_state(gh_env, 1) == ("UNKNOWN", "UNKNOWN")
    assert _merge_state(gh_env, 1) == ("CONFLICTING", "DIRTY")
    rest = api(gh_env, f"repos/{REPO}/pulls/1")
    assert (rest["mergeable"], rest["mergeable_state"]) == (False, "dirty")
    refused = gh(gh_env, "pr", "merge", "1", "-R", REPO, "--merge")
    assert refused.returncode == 1
    assert "the merge commit cannot be cleanly created" in refused.stderr
    # the agent merges main in and resolves the conflict: mergeable again
    git(env, "pull", "-q", "--no-rebase", "origin", "main", cwd=checkout, check=False)
    commit_file(env, checkout, "README.md", "# todo app, by the agent\n", "Resolve")
    git(env, "push", "-q", "origin", "agent/x", cwd=checkout)
    assert _merge_state(gh_env, 1) == ("UNKNOWN", "UNKNOWN")
    assert _merge_state(gh_env, 1) == ("MERGEABLE", "CLEAN")


def test_deleting_the_head_branch_closes_the_pull_request(
    gh_env: dict[str, str], work: tuple[dict[str, str], Path]
) -> None:
    env, checkout = work
    git(env, "checkout", "-q", "-b", "agent/y", cwd=checkout)
    commit_file(env, checkout, "y.txt", "y\n", "Add y")
    git(env, "push", "-q", "origin", "agent/y", cwd=checkout)
    ok(gh_env, "pr", "create", "-R", REPO, "-H", "agent/y", "-t", "Y", "-b", "")
    git(env, "push", "-q", "origin", "--delete", "agent/y", cwd=checkout)
    viewed = json.loads(ok(gh_env, "pr", "view", "1", "-R", REPO, "--json", "state,closed"))
    assert viewed == {"state": "CLOSED", "closed": True}
    refused = gh(gh_env, "pr", "reopen", "1", "-R", REPO)
    assert refused.returncode == 1
    assert "state cannot be changed. The agent/y branch has been deleted." in refused.stderr
    events = [e["event"] for e in api(gh_env, f"repos/{REPO}/issues/1/events")]
    assert events == ["head_ref_deleted", "closed"]
    git(env, "push", "-q", "origin", "agent/y", cwd=checkout)  # the branch is back
    ok(gh_env, "pr", "reopen", "1", "-R", REPO)
    viewed = json.loads(ok(gh_env, "pr", "view", "1", "-R", REPO, "--json", "state"))
    assert viewed == {"state": "OPEN"}
    events = [e["event"] for e in api(gh_env, f"repos/{REPO}/issues/1/events")]
    assert events == ["head_ref_deleted", "closed", "head_ref_restored", "reopened"]


def test_a_merged_pull_request_closes_the_issues_it_names(
    gh_env: dict[str, str], work: tuple[dict[str, str], Path]
) -> None:
    env, checkout = work
    ok(gh_env, "issue", "create", "-R", REPO, "-t", "Parser splits wrong", "-b", "x")
    ok(gh_env, "issue", "create", "-R", REPO, "-t", "Untouched", "-b", "y")
    git(env, "checkout", "-q", "-b", "fix/1", cwd=checkout)
    commit_file(env, checkout, "fix.txt", "fixed\n", "Fix the parser")
    git(env, "push", "-q", "origin", "fix/1", cwd=checkout)
    body = "Splits on spaces.\n\nCloses #1"
    ok(gh_env, "pr", "create", "-R", REPO, "-H", "fix/1", "-t", "Fix the parser", "-b", body)
    ok(gh_env, "pr", "merge", "3", "-R", REPO, "--squash")
    issue = json.loads(ok(gh_env, "issue", "view", "1", "-R", REPO, "--json", "state"))
    assert issue == {"state": "CLOSED"}
    assert api(gh_env, f"repos/{REPO}/issues/1")["state_reason"] == "completed"
    other = json.loads(ok(gh_env, "issue", "view", "2", "-R", REPO, "--json", "state"))
    assert other == {"state": "OPEN"}
    merged = api(gh_env, f"repos/{REPO}/pulls/3")["merge_commit_sha"]
    closed = api(gh_env, f"repos/{REPO}/issues/1/events")
    assert [(e["event"], e["commit_id"]) for e in closed] == [("closed", merged)]
