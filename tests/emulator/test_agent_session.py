"""A coding agent's whole session with only gh 2.23 and git, against the emulator.

clone, branch, commit, push, ``pr create``, ``pr comment``, ``pr checks`` (failing,
then passing after a fix is pushed), ``pr view``, ``pr diff``, a review from a second
user (the author cannot approve their own PR, as on GitHub), ``pr merge --squash -d``,
and a pull of the merged main. ``main`` is protected (an approving review and the
``tests`` check required), so the merge waits for both, as on GitHub. The checkout's
origin is github.com's URL; git reaches the emulator through ``git_environment`` only,
gh through ``GH_HOST``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gh_helpers import protect
from git_helpers import base_env, commit_file, git

from ghbench.emulator.client_env import git_environment

pytestmark = pytest.mark.gh

REPO = "acme/todo"
REVIEWER = "ghp_reviewer0000000000000000000000000001"


def run_gh(env: dict[str, str], cwd: Path, *args: str, ok: bool = True) -> str:
    proc = subprocess.run(
        ["gh", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )
    if ok:
        assert proc.returncode == 0, f"gh {' '.join(args)}: {proc.stderr}"
    return proc.stdout + (proc.stderr if not ok else "")


@pytest.mark.slow
def test_a_coding_agents_session(
    gh_env: dict[str, str], emulator_server: Any, tmp_path: Path
) -> None:
    emu = emulator_server.emulator
    emu.create_user("reviewer", [REVIEWER])
    home = tmp_path / "agent"
    env = base_env(home) | gh_env | {"HOME": gh_env["HOME"]}
    env |= git_environment(emulator_server.url, existing=env)
    env["GH_TOKEN"] = emulator_server.token  # gh's token and git's credential helper's

    protect(
        gh_env,
        REPO,
        "main",
        required_status_checks={"strict": False, "contexts": ["tests"]},
        required_pull_request_reviews={"required_approving_review_count": 1},
    )
    git(env, "clone", "-q", "https://github.com/acme/todo.git", str(tmp_path / "work"))
    work = tmp_path / "work"
    git(env, "checkout", "-q", "-b", "fix/parser", cwd=work)
    commit_file(
        env, work, "src/parser.py", "def parse(text):\n    return text.split()\n", "Add parser"
    )
    git(env, "push", "-q", "-u", "origin", "fix/parser", cwd=work)

    url = run_gh(env, work, "pr", "create", "--title", "Add a parser", "--body", "Splits words.")
    assert url.strip() == "https://github.com/acme/todo/pull/1"
    run_gh(env, work, "pr", "comment", "--body", "Ready for review once CI passes.")

    # CI reports on the pushed head, as a CI service would
    head = git(env, "rev-parse", "HEAD", cwd=work).stdout.strip()
    emu.set_ci(REPO, "failure", sha=head, name="tests")
    failing = run_gh(env, work, "pr", "checks", ok=False)
    assert "tests\tfail" in failing
    commit_file(
        env, work, "src/parser.py", "def parse(text):\n    return text.split(' ')\n", "Fix split"
    )
    git(env, "push", "-q", cwd=work)
    fixed = git(env, "rev-parse", "HEAD", cwd=work).stdout.strip()
    emu.set_ci(REPO, "success", sha=fixed, name="tests")
    assert "tests\tpass" in run_gh(env, work, "pr", "checks")

    viewed = json.loads(
        run_gh(env, work, "pr", "view", "--json", "number,headRefOid,commits,comments,files")
    )
    assert viewed["number"] == 1 and viewed["headRefOid"] == fixed
    assert [c["messageHeadline"] for c in viewed["commits"]] == ["Add parser", "Fix split"]
    assert [c["body"] for c in viewed["comments"]] == ["Ready for review once CI passes."]
    assert [f["path"] for f in viewed["files"]] == ["src/parser.py"]
    diff = run_gh(env, work, "pr", "diff")
    assert "+++ b/src/parser.py" in diff and "+    return text.split(' ')" in diff

    def state() -> tuple[str, str]:
        fields = "reviewDecision,mergeStateStatus"
        found = json.loads(run_gh(env, work, "pr", "view", "--json", fields))
        return found["reviewDecision"], found["mergeStateStatus"]

    # GitHub computes mergeability when first asked: UNKNOWN, then the answer
    assert state() == ("REVIEW_REQUIRED", "UNKNOWN")
    assert state() == ("REVIEW_REQUIRED", "BLOCKED")
    blocked = run_gh(env, work, "pr", "merge", "--squash", ok=False)
    assert "is not mergeable: the base branch policy prohibits the merge" in blocked
    own = run_gh(env, work, "pr", "review", "--approve", ok=False)
    assert "Can not approve your own pull request" in own
    reviewer = env | {"GH_TOKEN": REVIEWER}
    run_gh(reviewer, work, "pr", "review", "--approve", "--body", "LGTM")
    assert state() == ("APPROVED", "CLEAN")

    run_gh(env, work, "pr", "merge", "--squash", "--delete-branch")
    assert git(env, "branch", "--show-current", cwd=work).stdout.strip() == "main"
    assert (work / "src/parser.py").read_text().endswith("split(' ')\n")
    log = git(env, "log", "--format=%s", "-2", cwd=work).stdout.splitlines()
    assert log[0] == "Add a parser (#1)" and log[1] == "Initial commit"
    merged = json.loads(run_gh(env, work, "pr", "view", "1", "--json", "state"))
    assert merged == {"state": "MERGED"}
    remote_branches = git(env, "ls-remote", "--heads", "origin", cwd=work).stdout
    assert "refs/heads/fix/parser" not in remote_branches
    # every GraphQL point the session spent is in the ledger under gh's operation names
    spent = {e.endpoint for e in emu.ledger_entries(resource="graphql")}
    assert {
        "PullRequestCreate",
        "CommentCreate",
        "PullRequestReviewAdd",
        "PullRequestMerge",
    } <= spent
