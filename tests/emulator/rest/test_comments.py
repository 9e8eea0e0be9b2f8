"""Comments by id (``rest/comments.py``): an issue or pull request comment (a bot's
sticky comment, edited in place) and review comments (edits, deletions, replies), with
PyGithub over a real socket; and in-process, the repository-wide lists' order and
``since``, and what is refused: another repository's id, a bad body, no token, a reply
to another pull request's comment."""

from __future__ import annotations

import httpx
from emu_helpers import ClientFactory
from github import Github

from ghbench.emulator.core import Emulator
from ghbench.timefmt import iso_s

from .helpers import REPO


def test_sticky_comments_and_review_comment_replies(bot_github: Github) -> None:
    repo = bot_github.get_repo("acme/todo")
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


def test_the_repositorys_comments_by_created_or_updated_and_since(
    emulator: Emulator, api: httpx.Client
) -> None:
    first = emulator.create_issue("acme/todo", "One")
    second = emulator.create_issue("acme/todo", "Two")
    ids = [api.post(f"{REPO}/issues/{first}/comments", json={"body": "a"}).json()["id"]]
    emulator.advance_clock(60)
    ids.append(api.post(f"{REPO}/issues/{second}/comments", json={"body": "b"}).json()["id"])
    emulator.advance_clock(60)
    edited_at = iso_s(emulator.clock.now())
    assert api.patch(f"{REPO}/issues/comments/{ids[0]}", json={"body": "a2"}).is_success
    listed = f"{REPO}/issues/comments"

    def order(**query: str) -> list[int]:
        answer = api.get(listed, params=query)
        assert answer.status_code == 200, answer.text
        return [c["id"] for c in answer.json()]

    assert order() == ids
    assert order(direction="desc") == ids[::-1]
    assert order(sort="updated") == ids[::-1]  # the first was edited last
    assert order(sort="updated", direction="desc") == ids
    assert order(since=edited_at) == [ids[0]]  # updated at or after
    assert api.get(listed, params={"since": "yesterday"}).status_code == 422
    assert api.get(f"{REPO}/pulls/comments").json() == []


def test_another_repositorys_comment_and_bad_edits_are_refused(
    emulator: Emulator, api: httpx.Client, make_client: ClientFactory
) -> None:
    number = emulator.create_issue("acme/todo", "One")
    comment = api.post(f"{REPO}/issues/{number}/comments", json={"body": "a"}).json()["id"]
    one = f"{REPO}/issues/comments/{comment}"
    emulator.create_repo("acme/other")
    elsewhere = f"/repos/acme/other/issues/comments/{comment}"
    assert api.get(elsewhere).status_code == 404
    assert api.patch(elsewhere, json={"body": "x"}).status_code == 404
    assert api.delete(elsewhere).status_code == 404
    assert api.get(f"{REPO}/issues/comments/abc").status_code == 404
    assert api.patch(one, json={}).status_code == 422
    assert api.patch(one, json={"body": 5}).status_code == 422
    anonymous = make_client(token=None)
    assert anonymous.patch(one, json={"body": "x"}).status_code == 401
    assert anonymous.delete(one).status_code == 401
    assert api.get(one).json()["body"] == "a"  # nothing refused changed it
    assert api.delete(one).status_code == 204
    assert api.get(one).status_code == 404


def test_a_reply_joins_its_threads_first_comment(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_pull("acme/todo", "feat/x")
    other = emulator.create_pull("acme/todo", "feat/y")
    comments = f"{REPO}/pulls/{number}/comments"
    first = api.post(comments, json={"body": "nit", "path": "a.py", "line": 1}).json()["id"]
    reply = api.post(f"{comments}/{first}/replies", json={"body": "done"})
    assert reply.status_code == 201 and reply.json()["in_reply_to_id"] == first
    again = api.post(f"{comments}/{reply.json()['id']}/replies", json={"body": "thanks"})
    assert again.json()["in_reply_to_id"] == first  # a reply to a reply: the thread's first
    wrong = api.post(f"{REPO}/pulls/{other}/comments/{first}/replies", json={"body": "?"})
    assert wrong.status_code == 404
    assert api.post(f"{comments}/{first}/replies", json={}).status_code == 422
    listed = api.get(f"{REPO}/pulls/comments").json()
    assert [c["body"] for c in listed] == ["nit", "done", "thanks"]
    assert "in_reply_to_id" not in listed[0]
