"""PyGithub, unchanged, against the emulator over a real socket: the calls the issue
names (get_commit, get_combined_status, get_check_runs, pr.get_commits, get_labels,
get_branches, get_branch, get_contents, get_workflow_runs, compare) and the rest of a bot's
day (labels, assignees, review requests, reviews, comments, search, users, merge).
"""

from __future__ import annotations

from typing import Any

import pytest
from github import Auth, Github, GithubException

REPO = "acme/todo"
HUBOT = "ghp_hubot000000000000000000000000000000002"


@pytest.fixture
def github(emulator_server: Any) -> Github:
    emu = emulator_server.emulator
    emu.create_user("hubot", [HUBOT])
    emu.create_issue(REPO, "Bug", body="details", author="octo", labels=["bug"])
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo", labels=["bug"])
    emu.push(REPO, "feat/a", "Second commit", files={"a.txt": "a\n"})
    emu.set_ci(REPO, "failure", pr=2)
    client = _client(emulator_server.token, emulator_server.url)
    client.hubot = _client(HUBOT, emulator_server.url)  # type: ignore[attr-defined]
    return client


def _client(token: str, url: str) -> Github:
    # PyGithub spaces its requests out (0.25 s, writes 1 s) by default, to be kind to
    # github.com; the emulator needs no such kindness and the suite no such waits
    return Github(
        auth=Auth.Token(token), base_url=url, seconds_between_requests=0, seconds_between_writes=0
    )


def test_commits_ci_branches_contents_and_actions(github: Github) -> None:
    repo = github.get_repo(REPO)
    pull = repo.get_pull(2)
    assert [c.commit.message for c in pull.get_commits()] == ["Feature A", "Second commit"]
    commit = repo.get_commit(pull.head.sha)
    assert commit.sha == pull.head.sha and commit.files[0].filename == "a.txt"
    assert commit.get_combined_status().state == "failure"
    assert [(r.name, r.conclusion) for r in commit.get_check_runs()] == [("ci", "failure")]
    assert [b.name for b in repo.get_branches()] == ["feat/a", "main"]
    assert repo.get_branch("feat/a").commit.sha == pull.head.sha
    assert repo.get_contents("README.md").decoded_content == b"# todo\n"  # type: ignore[union-attr]
    runs = list(repo.get_workflow_runs())
    assert [(r.name, r.head_branch, r.conclusion) for r in runs] == [("CI", "feat/a", "failure")]
    assert [(j.name, j.conclusion) for j in runs[0].jobs()] == [("ci", "failure")]
    assert [w.path for w in repo.get_workflows()] == [".github/workflows/ci.yml"]
    assert list(repo.get_releases()) == []


def test_compare_says_ahead_behind_and_diverged_from_git(
    github: Github, emulator_server: Any
) -> None:
    repo = github.get_repo(REPO)
    head = repo.get_pull(2).head.sha
    ahead = repo.compare("main", "feat/a")
    assert (ahead.status, ahead.ahead_by, ahead.behind_by) == ("ahead", 2, 0)
    assert [c.commit.message for c in ahead.commits] == ["Feature A", "Second commit"]
    assert "a.txt" in [f.filename for f in ahead.files]
    assert ahead.merge_base_commit.sha == repo.get_branch("main").commit.sha
    assert repo.compare("feat/a", "main").status == "behind"
    assert repo.compare(head, head).status == "identical"
    emulator_server.emulator.push(REPO, "main", "Elsewhere", files={"m.txt": "m\n"})
    diverged = repo.compare("main", "feat/a")
    assert (diverged.status, diverged.ahead_by, diverged.behind_by) == ("diverged", 2, 1)
    with pytest.raises(GithubException) as unknown:
        repo.compare("main", "no-such-branch")
    assert unknown.value.status == 404


def test_labels_assignees_reviews_and_merge(github: Github) -> None:
    repo = github.get_repo(REPO)
    pull = repo.get_pull(2)
    assert [label.name for label in pull.get_labels()] == ["bug"]
    assert [label.name for label in repo.get_labels()][:2] == ["bug", "documentation"]
    repo.create_label("triage", "00ff00", "to sort")
    repo.get_label("triage").edit("triaged", "ff0000", "sorted")
    pull.add_to_labels("triaged")
    pull.remove_from_labels("bug")
    assert [label.name for label in pull.get_labels()] == ["triaged"]
    pull.as_issue().add_to_assignees("hubot")
    pull.create_review_request(reviewers=["hubot"])
    users, teams = pull.get_review_requests()
    assert [u.login for u in users] == ["hubot"] and list(teams) == []
    pull.create_issue_comment("ready for a look")
    assert [c.body for c in pull.get_issue_comments()] == ["ready for a look"]
    with pytest.raises(GithubException) as own:
        pull.create_review(event="APPROVE")
    assert own.value.status == 422
    assert own.value.data["errors"] == ["Can not approve your own pull request"]
    theirs = github.hubot.get_repo(REPO).get_pull(2)  # type: ignore[attr-defined]
    assert theirs.create_review(event="APPROVE").state == "APPROVED"
    assert [u.login for u in pull.get_review_requests()[0]] == []  # the review answered it
    fresh = repo.get_pull(2)
    assert [a.login for a in fresh.assignees] == ["hubot"]
    assert fresh.mergeable_state == "unstable"  # failing CI, nothing required
    assert fresh.merge(merge_method="squash").merged


def test_issues_search_and_users(github: Github) -> None:
    repo = github.get_repo(REPO)
    issue = repo.get_issue(1)
    issue.edit(title="Bug!", labels=["question"], assignees=["hubot"])
    issue = repo.get_issue(1)
    assert (issue.title, [x.name for x in issue.labels]) == ("Bug!", ["question"])
    assert [a.login for a in issue.assignees] == ["hubot"]
    assert [i.number for i in github.search_issues("repo:acme/todo assignee:hubot")] == [1]
    assert [r.full_name for r in github.search_repositories("todo")] == [REPO]
    assert [u.login for u in github.search_users("hub")] == ["hubot"]
    assert [c.commit.message for c in github.search_commits("repo:acme/todo initial")] == [
        "Initial commit"
    ]
    assert github.get_user().login == "octo"
    assert github.get_user("hubot").login == "hubot"
    assert [r.full_name for r in github.get_user().get_repos()] == [REPO]
    assert github.get_rate_limit().resources.core.limit == 5000


def test_a_path_git_cannot_hold_is_refused_as_github_refuses_it(github: Github) -> None:
    """Issue 23 case 7: ``PUT contents/x%00y`` was a 201 (git's trees hold no NUL)."""
    repo = github.get_repo(REPO)
    for path, message in [
        ("x\x00y", "path contains a malformed path component"),
        (".git/hooks/post-checkout", "path contains a malformed path component"),
        ("/x", "path cannot start with a slash"),
    ]:
        with pytest.raises(GithubException) as refused:
            repo.create_file(path, "add", "content", branch="main")
        assert refused.value.status == 422
        assert refused.value.data["message"] == message
        assert refused.value.data["errors"] == [
            {"resource": "Commit", "code": "invalid", "field": "path"}
        ]
    assert [c.path for c in repo.get_contents("")] == ["README.md"]  # nothing written
