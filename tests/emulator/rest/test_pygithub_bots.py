"""What bots and agents call beyond a PR's basics, with PyGithub over a real socket
(issue 21 cases 7, 9 and 11): a branch without protection, milestones, who an author
is to the repository; "is it merged", updating a branch, events and timeline, reactions
and a collaborator's permission. (Comments by id: rest/test_comments.py; git trees,
commits and tags: rest/test_gitdata.py.)
"""

from __future__ import annotations

from typing import Any

import pytest
from github import Github, GithubException

REPO = "acme/todo"


def test_protection_milestones_and_author_association(
    bot_github: Github, emulator_server: Any
) -> None:
    repo = bot_github.get_repo(REPO)
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


def test_merges_events_reactions_and_permissions(bot_github: Github, emulator_server: Any) -> None:
    repo = bot_github.get_repo(REPO)
    pull = repo.get_pull(2)
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
