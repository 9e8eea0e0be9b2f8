"""What bots and agents call beyond a PR's basics, with PyGithub over a real socket
(issue 21 cases 7, 9 and 11): a branch without protection, milestones, who an author
is to the repository; comments by id (a sticky comment edited in place), review-comment
replies and edits; git trees, commits and tags, "is it merged", updating a branch,
events and timeline, reactions and a collaborator's permission.
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
    emu.create_user("acme", ["ghp_acme0000000000000000000000000000000003"])
    emu.create_issue(REPO, "Bug", body="details", author="octo")
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    return Github(
        auth=Auth.Token(emulator_server.token),
        base_url=emulator_server.url,
        seconds_between_requests=0,
        seconds_between_writes=0,
    )


def test_protection_milestones_and_author_association(github: Github, emulator_server: Any) -> None:
    repo = github.get_repo(REPO)
    with pytest.raises(GithubException) as unprotected:
        repo.get_branch("main").get_protection()
    assert unprotected.value.status == 404
    assert unprotected.value.data["message"] == "Branch not protected"
    assert list(repo.get_milestones()) == []
    emulator_server.emulator.create_issue(REPO, "From the owner", author="acme")
    associations = {i.title: i.raw_data["author_association"] for i in repo.get_issues()}
    assert associations == {
        "Bug": "COLLABORATOR",
        "Feature A": "COLLABORATOR",
        "From the owner": "OWNER",
    }


def test_sticky_comments_and_review_comment_replies(github: Github) -> None:
    repo = github.get_repo(REPO)
    issue = repo.get_issue(1)
    sticky = issue.create_comment("coverage: 80%")
    fetched = repo.get_issue(1).get_comment(sticky.id)
    fetched.edit("coverage: 82%")
    assert [c.body for c in repo.get_issues_comments()] == ["coverage: 82%"]
    fetched.delete()
    assert list(issue.get_comments()) == []
    pull = repo.get_pull(2)
    first = pull.create_review_comment("nit", pull.get_commits()[0], "README.md", line=1)
    reply = pull.create_review_comment_reply(first.id, "fixed")
    assert reply.in_reply_to_id == first.id
    pull.get_review_comment(first.id).edit("nit: naming")
    assert [c.body for c in pull.get_review_comments()] == ["nit: naming", "fixed"]
    pull.get_review_comment(reply.id).delete()
    assert [c.body for c in pull.get_review_comments()] == ["nit: naming"]


def test_git_data_merges_events_reactions_and_permissions(
    github: Github, emulator_server: Any
) -> None:
    repo = github.get_repo(REPO)
    pull = repo.get_pull(2)
    tree = repo.get_git_tree(pull.head.sha, recursive=True)
    assert sorted(e.path for e in tree.tree) == [
        "README.md",
        "notes",
        "notes/feat",
        "notes/feat/a.md",
    ]
    commit = repo.get_git_commit(pull.head.sha)
    assert commit.message == "Feature A" and commit.tree.sha == tree.sha
    repo.create_git_ref("refs/tags/v1.0", pull.base.sha)
    assert [(t.name, t.commit.sha) for t in repo.get_tags()] == [("v1.0", pull.base.sha)]
    # main moves on: updating the branch merges it in
    emulator_server.emulator.push(REPO, "main", "Docs", files={"docs.md": "d\n"})
    assert pull.update_branch() is True
    head = repo.get_branch("feat/a").commit
    assert head.commit.message == "Merge branch 'main' into feat/a"
    assert pull.is_merged() is False
    assert pull.merge(merge_method="merge").merged is True
    assert repo.get_pull(2).is_merged() is True
    issue = repo.get_issue(1)
    issue.add_to_labels("bug")
    issue.edit(state="closed")
    assert [e.event for e in issue.get_events()] == ["labeled", "closed"]
    timeline = [e.event for e in repo.get_issue(2).get_timeline()]
    assert timeline[-2:] == ["merged", "closed"] and "committed" in timeline
    assert issue.create_reaction("heart").content == "heart"
    assert [r.content for r in issue.get_reactions()] == ["heart"]
    assert repo.get_collaborator_permission("hubot") == "write"
    assert repo.get_collaborator_permission("acme") == "admin"
