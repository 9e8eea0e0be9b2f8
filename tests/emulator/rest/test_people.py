"""Assignees and requested reviewers over REST (httpx over the in-process core): users
GitHub cannot assign are dropped silently; a review request for the author is refused,
one for an unknown user or a team is GitHub's "not a collaborator" 422; a collaborator's
permission."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

from .helpers import REPO


def logins(users: list[dict[str, object]]) -> list[object]:
    return [u["login"] for u in users]


def test_assignees_added_checked_and_removed(emulator: Emulator, api: httpx.Client) -> None:
    emulator.create_user("alice", ["t-alice"])
    number = emulator.create_issue("acme/todo", "T")
    path = f"{REPO}/issues/{number}/assignees"
    added = api.post(path, json={"assignees": ["alice", "nobody", "octo"]})
    assert added.status_code == 201
    assert sorted(logins(added.json()["assignees"])) == ["alice", "octo"]  # nobody: dropped
    assert api.get(f"{path}/alice").status_code == 204
    assert api.get(f"{REPO}/assignees/nobody").status_code == 404
    assert "alice" in logins(api.get(f"{REPO}/assignees").json())
    left = api.request("DELETE", path, json={"assignees": ["alice"]})
    assert logins(left.json()["assignees"]) == ["octo"]
    assert api.post(f"{REPO}/issues/999/assignees", json={"assignees": ["octo"]}).status_code == 404


def test_review_requests(emulator: Emulator, api: httpx.Client) -> None:
    emulator.create_user("alice", ["t-alice"])
    number = emulator.create_pull("acme/todo", "feat/x", author="octo")
    path = f"{REPO}/pulls/{number}/requested_reviewers"
    asked = api.post(path, json={"reviewers": ["alice"]})
    assert asked.status_code == 201 and logins(asked.json()["requested_reviewers"]) == ["alice"]
    assert api.get(path).json() == {"users": asked.json()["requested_reviewers"], "teams": []}
    author = api.post(path, json={"reviewers": ["octo"]})
    assert author.status_code == 422
    assert author.json()["message"] == "Review cannot be requested from pull request author."
    for body in ({"reviewers": ["nobody"]}, {"team_reviewers": ["t"]}):
        refused = api.post(path, json=body)
        assert refused.status_code == 422, body
        assert "not a collaborator" in refused.text, body
    assert api.post(path, json={}).status_code == 422
    withdrawn = api.request("DELETE", path, json={"reviewers": ["alice"]})
    assert withdrawn.json()["requested_reviewers"] == []


def test_collaborator_permission(emulator: Emulator, api: httpx.Client) -> None:
    emulator.create_user("alice", ["t-alice"])
    emulator.create_repo("octo/dots")
    owner = api.get("/repos/octo/dots/collaborators/octo/permission").json()
    assert (owner["permission"], owner["user"]["permissions"]["admin"]) == ("admin", True)
    other = api.get("/repos/octo/dots/collaborators/alice/permission").json()
    assert (other["permission"], other["user"]["permissions"]["admin"]) == ("write", False)
    assert api.get(f"{REPO}/collaborators/nobody/permission").status_code == 404
