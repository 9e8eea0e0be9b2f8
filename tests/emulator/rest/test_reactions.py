"""Reactions over REST (httpx over the in-process core) on an issue, a pull request
(through its issue), an issue comment and a review comment: a second identical reaction
answers the first with 200, ``content`` filters, and each subject's reactions are its own."""

from __future__ import annotations

import httpx
import pytest

from ghbench.emulator.core import Emulator

from .helpers import REPO


def test_react_list_filter_and_delete(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_issue("acme/todo", "T")
    path = f"{REPO}/issues/{number}/reactions"
    first = api.post(path, json={"content": "+1"})
    assert first.status_code == 201 and first.json()["user"]["login"] == "octo"
    again = api.post(path, json={"content": "+1"})
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    api.post(path, json={"content": "rocket"})
    assert [r["content"] for r in api.get(path).json()] == ["+1", "rocket"]
    assert [r["content"] for r in api.get(path, params={"content": "rocket"}).json()] == ["rocket"]
    assert api.delete(f"{path}/{first.json()['id']}").status_code == 204
    assert [r["content"] for r in api.get(path).json()] == ["rocket"]
    assert api.delete(f"{path}/{first.json()['id']}").status_code == 404


@pytest.mark.parametrize("content", ["thumbsup", "", "+2"])
def test_an_unknown_content_is_a_422(emulator: Emulator, api: httpx.Client, content: str) -> None:
    number = emulator.create_issue("acme/todo", "T")
    refused = api.post(f"{REPO}/issues/{number}/reactions", json={"content": content})
    assert refused.status_code == 422


def test_comments_have_their_own_reactions(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_pull("acme/todo", "feat/x")
    comment = api.post(f"{REPO}/issues/{number}/comments", json={"body": "hi"}).json()["id"]
    review = api.post(
        f"{REPO}/pulls/{number}/comments", json={"body": "nit", "path": "a.py", "line": 1}
    ).json()["id"]
    on_comment = f"{REPO}/issues/comments/{comment}/reactions"
    on_review = f"{REPO}/pulls/comments/{review}/reactions"
    assert api.post(on_comment, json={"content": "heart"}).status_code == 201
    assert api.post(on_review, json={"content": "eyes"}).status_code == 201
    assert api.post(f"{REPO}/issues/{number}/reactions", json={"content": "laugh"}).is_success
    assert [r["content"] for r in api.get(on_comment).json()] == ["heart"]
    assert [r["content"] for r in api.get(on_review).json()] == ["eyes"]
    assert [r["content"] for r in api.get(f"{REPO}/issues/{number}/reactions").json()] == ["laugh"]
    assert api.get(f"{REPO}/issues/comments/999999/reactions").status_code == 404
    emulator.create_repo("acme/other")  # a comment id is only found in its own repository
    assert api.get(f"/repos/acme/other/issues/comments/{comment}/reactions").status_code == 404
