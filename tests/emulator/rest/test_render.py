"""GitHub's REST representations of the records (``rest/render.py``), on the store:
URLs on the request's API base and the configured web base (a label's name quoted),
the reaction rollup, ``assignee`` as the first of ``assignees``, a reply's
``in_reply_to_id`` and a review's ``submitted_at`` only when there is one, a pull
request's full shape after a merge and ``auto_merge`` once enabled, and the minimal
repository a combined status carries."""

from __future__ import annotations

import pytest
from emu_helpers import repo_named, user_named

from ghbench.emulator.core import Emulator
from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.state import PullRequest, Store

API = "http://api.test:8080"
WEB = "https://ghe.test"
R = RestRenderer(API, WEB)


@pytest.fixture
def store(emulator: Emulator) -> Store:
    emulator.create_user("hubot")
    return emulator.store


def _pull(emulator: Emulator, store: Store) -> PullRequest:
    pull = store.pull(repo_named(store), emulator.create_pull("acme/todo", "feat/x", author="octo"))
    assert pull is not None
    return pull


def test_urls_are_on_the_api_and_web_bases(store: Store) -> None:
    octo = R.user(user_named(store, "octo"))
    assert octo["url"] == f"{API}/users/octo" and octo["html_url"] == f"{WEB}/octo"
    assert octo["repos_url"] == f"{API}/users/octo/repos"
    repo = R.repo(store, repo_named(store))
    assert repo["html_url"] == f"{WEB}/acme/todo"
    assert repo["clone_url"] == f"{WEB}/acme/todo.git"
    assert repo["issues_url"] == f"{API}/repos/acme/todo/issues{{/number}}"
    assert "allow_squash_merge" not in repo
    full = R.repo(store, repo_named(store), full=True)
    assert full["allow_squash_merge"] is True and full["delete_branch_on_merge"] is False
    with_space = store.create_label(repo_named(store), "needs triage")
    label_url = R.label(repo_named(store), with_space)["url"]
    assert label_url == f"{API}/repos/acme/todo/labels/needs%20triage"
    minimal = R.minimal_repo(store, repo_named(store))
    assert minimal["full_name"] == "acme/todo" and "default_branch" not in minimal
    assert "permissions" not in minimal and minimal["owner"]["login"] == "acme"


def test_an_issue_with_reactions_assignees_and_comments(emulator: Emulator, store: Store) -> None:
    repo = repo_named(store)
    number = emulator.create_issue("acme/todo", "T", labels=["bug"])
    issue = store.issue(repo, number)
    assert issue is not None
    octo, hubot = user_named(store, "octo"), user_named(store, "hubot")
    with emulator.db.transaction():
        store.set_assignees(issue, [hubot, octo])
        store.add_issue_comment(repo, number, hubot, "hi")
        for user in (octo, hubot):
            store.react(repo.id, issue.node_id, user, "+1")
        store.react(repo.id, issue.node_id, octo, "rocket")
    shown = R.issue(store, repo, issue)
    assert shown["assignee"]["login"] == "hubot"
    assert [a["login"] for a in shown["assignees"]] == ["hubot", "octo"]
    assert [label["name"] for label in shown["labels"]] == ["bug"]
    assert shown["comments"] == 1 and shown["closed_at"] is None
    rollup = shown["reactions"]
    assert (rollup["total_count"], rollup["+1"], rollup["rocket"], rollup["heart"]) == (3, 2, 1, 0)
    assert rollup["url"] == f"{API}/repos/acme/todo/issues/{number}/reactions"
    assert shown["html_url"] == f"{WEB}/acme/todo/issues/{number}"
    assert R.assignees(store, []) == {"assignee": None, "assignees": []}


def test_replies_and_reviews_say_only_what_they_have(emulator: Emulator, store: Store) -> None:
    repo, pull = repo_named(store), _pull(emulator, store)
    hubot = user_named(store, "hubot")
    with emulator.db.transaction():
        first = store.add_review_comment(pull, hubot, "nit", line=1)
        reply = store.add_review_comment(pull, hubot, "ok", in_reply_to=first.id)
        pending = store.add_review(pull, hubot, "PENDING")
        approved = store.add_review(pull, hubot, "APPROVED", body="lgtm")
    assert "in_reply_to_id" not in R.review_comment(store, repo, first)
    shown = R.review_comment(store, repo, reply)
    assert shown["in_reply_to_id"] == first.id
    assert shown["html_url"] == f"{WEB}/acme/todo/pull/{pull.number}#discussion_r{reply.id}"
    assert "submitted_at" not in R.review(store, repo, pending)
    review = R.review(store, repo, approved)
    assert review["state"] == "APPROVED" and review["submitted_at"].endswith("Z")


def test_a_pulls_full_shape_and_auto_merge(emulator: Emulator, store: Store) -> None:
    repo, pull = repo_named(store), _pull(emulator, store)
    octo = user_named(store, "octo")
    short = R.pull(store, repo, pull)
    assert "merged" not in short and short["auto_merge"] is None
    assert short["head"]["label"] == "acme:feat/x" and short["base"]["ref"] == "main"
    draft = store.pull(repo_named(store), emulator.create_pull("acme/todo", "feat/y", draft=True))
    assert draft is not None
    with emulator.db.transaction():  # a draft waits: auto-merge stays enabled
        store.enable_auto_merge(draft, octo, "squash")
    auto = R.pull(store, repo, draft)["auto_merge"]
    assert auto is not None
    assert (auto["merge_method"], auto["enabled_by"]["login"]) == ("squash", "octo")
    with emulator.db.transaction():
        store.merge_pull(pull, octo)
    full = R.pull(store, repo, pull, full=True)
    assert (full["merged"], full["merged_by"]["login"], full["state"]) == (True, "octo", "closed")
    assert full["commits"] == 1 and full["changed_files"] == 1 and full["additions"] >= 1
    assert full["merge_commit_sha"] == pull.merge_commit_sha and full["merged_at"]


def test_a_combined_status_and_a_ref(emulator: Emulator, store: Store) -> None:
    repo, pull = repo_named(store), _pull(emulator, store)
    emulator.set_ci("acme/todo", "failure", pr=pull.number)
    combined = R.combined_status(store, repo, pull.head_sha)
    assert combined["state"] == "failure" and combined["total_count"] == 1
    assert "creator" not in combined["statuses"][0]
    assert combined["url"] == f"{API}/repos/acme/todo/commits/{pull.head_sha}/status"
    ref = next(r for r in store.refs_with_prefix(repo, "heads/feat/x"))
    shown = R.ref(repo, ref)
    assert shown["ref"] == "refs/heads/feat/x" and shown["object"]["sha"] == pull.head_sha
