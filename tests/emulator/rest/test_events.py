"""An issue's or pull request's history (``rest/events.py``), in-process: each event
with its own fields (a label's color, who assigned whom, a rename, a lock's reason),
and the timeline interleaving events, comments, reviews and commits oldest first."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

from .helpers import REPO


def test_each_event_says_what_changed(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_issue("acme/todo", "Old")
    emulator.create_user("hubot")
    issue = f"{REPO}/issues/{number}"
    assert api.post(f"{issue}/labels", json={"labels": ["bug"]}).is_success
    assert api.post(f"{issue}/assignees", json={"assignees": ["hubot"]}).is_success
    assert api.patch(issue, json={"title": "New"}).is_success
    assert api.put(f"{issue}/lock", json={"lock_reason": "spam"}).status_code == 204
    closed = {"state": "closed", "state_reason": "not_planned"}
    assert api.patch(issue, json=closed).is_success
    events = api.get(f"{issue}/events").json()
    assert [e["event"] for e in events] == ["labeled", "assigned", "renamed", "locked", "closed"]
    labeled, assigned, renamed, locked, closing = events
    bug = api.get(f"{REPO}/labels/bug").json()
    assert labeled["label"] == {"name": "bug", "color": bug["color"]}
    assert (assigned["assignee"]["login"], assigned["assigner"]["login"]) == ("hubot", "octo")
    assert renamed["rename"] == {"from": "Old", "to": "New"}
    assert locked["lock_reason"] == "spam"
    assert "state_reason" not in closing  # the timeline's closed events say why
    for event in events:
        assert event["actor"]["login"] == "octo"
        assert event["url"] == f"{api.base_url}{REPO}/issues/events/{event['id']}"
        assert event["commit_id"] is None and event["commit_url"] is None
    timeline = api.get(f"{issue}/timeline").json()
    assert timeline[-1]["state_reason"] == "not_planned"
    paged = api.get(f"{issue}/events", params={"per_page": 2, "page": 3}).json()
    assert [e["event"] for e in paged] == ["closed"]


def test_a_deleted_labels_event_keeps_its_name(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_issue("acme/todo", "T")
    api.post(f"{REPO}/issues/{number}/labels", json={"labels": ["temporary"]})
    assert api.delete(f"{REPO}/labels/temporary").status_code == 204
    api.post(f"{REPO}/issues/{number}/labels", json={"labels": ["bug"]})
    labels = [e.get("label") for e in api.get(f"{REPO}/issues/{number}/events").json()]
    bug = api.get(f"{REPO}/labels/bug").json()["color"]
    # GitHub's default gray for a label that is gone
    assert labels[-2:] == [
        {"name": "temporary", "color": "ededed"},
        {"name": "bug", "color": bug},
    ]


def test_the_timeline_interleaves_oldest_first(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_pull("acme/todo", "feat/x")
    pull = f"{REPO}/issues/{number}"
    emulator.advance_clock(10)
    assert api.post(f"{pull}/comments", json={"body": "looks good"}).is_success
    emulator.advance_clock(10)
    emulator.create_user("hubot", ["ghp_hubot000000000000000000000000000000002"])
    hubot = {"Authorization": "token ghp_hubot000000000000000000000000000000002"}
    review = {"event": "COMMENT", "body": "one thought"}
    assert api.post(f"{REPO}/pulls/{number}/reviews", json=review, headers=hubot).is_success
    emulator.advance_clock(10)
    pushed = emulator.push("acme/todo", "feat/x", "More")
    emulator.advance_clock(10)
    assert api.post(f"{pull}/labels", json={"labels": ["bug"]}).is_success
    timeline = api.get(f"{pull}/timeline").json()
    kinds = [e["event"] for e in timeline]
    assert kinds == ["committed", "commented", "reviewed", "committed", "labeled"]
    commented, reviewed, last_commit = timeline[1], timeline[2], timeline[3]
    assert commented["actor"]["login"] == "octo" and commented["body"] == "looks good"
    assert reviewed["user"]["login"] == "hubot" and reviewed["state"] == "COMMENTED"
    assert last_commit["sha"] == pushed and last_commit["message"] == "More"
    events = [e["event"] for e in api.get(f"{pull}/events").json()]
    assert events == ["labeled"]  # comments, reviews and commits are the timeline's only


def test_an_unknown_number_is_a_404(api: httpx.Client) -> None:
    assert api.get(f"{REPO}/issues/999/events").status_code == 404
    assert api.get(f"{REPO}/issues/999/timeline").status_code == 404
