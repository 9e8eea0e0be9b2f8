"""An issue's or pull request's history: ``issues/{n}/events`` and ``.../timeline``.

Events are recorded as things change (``state/events.py``); the timeline interleaves
them with comments (``commented``), reviews (``reviewed``) and a pull request's commits
(``committed``), oldest first, as GitHub's does.
"""

from __future__ import annotations

from typing import Any

from ghbench.emulator.rest.common import issue_or_pull, paginate
from ghbench.emulator.rest.gitdata import git_commit_json
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import IssueEvent, PullRequest, Repo
from ghbench.timefmt import iso_s

__all__ = ["ROUTES", "render_event"]

Json = dict[str, Any]


def render_event(call: Call, repo: Repo, event: IssueEvent, *, timeline: bool = False) -> Json:
    """GitHub's ``issue-event-for-issue``: the common fields and the event's own (the
    timeline's closed/reopened events also say why)."""
    store, render = call.store, call.render
    api = render.repo_url(repo)
    actor = render.user(store.user_by_id(event.actor_id))
    out: Json = {
        "id": event.id,
        "node_id": event.node_id,
        "url": f"{api}/issues/events/{event.id}",
        "actor": actor,
        "event": event.event,
        "commit_id": event.commit_id,
        "commit_url": f"{api}/commits/{event.commit_id}" if event.commit_id else None,
        "created_at": iso_s(event.created_at),
        "performed_via_github_app": None,
    }
    subject = store.users.get(event.subject_id) if event.subject_id is not None else None
    if event.label is not None:
        label = store.label(repo, event.label)
        out["label"] = {"name": event.label, "color": label.color if label else "ededed"}
    if event.event in ("assigned", "unassigned") and subject is not None:
        out |= {"assignee": render.user(subject), "assigner": actor}
    if event.event in ("review_requested", "review_request_removed") and subject is not None:
        out |= {"requested_reviewer": render.user(subject), "review_requester": actor}
    if event.event == "renamed":
        out["rename"] = {"from": event.rename_from, "to": event.rename_to}
    if event.event == "locked":
        out["lock_reason"] = event.lock_reason
    if timeline and event.event in ("closed", "reopened"):
        out["state_reason"] = event.state_reason
    return out


def list_events(call: Call) -> Reply:
    """What happened to an issue or pull request, oldest first: closed, reopened,
    merged, labeled, unlabeled, assigned, unassigned, locked, unlocked, renamed,
    head_ref_deleted/restored, ready_for_review, convert_to_draft, review_requested,
    auto_merge_enabled/disabled; `per_page`, `page`."""
    repo, item = issue_or_pull(call)
    page, headers = paginate(call, call.store.events(item))
    return Reply([render_event(call, repo, e) for e in page], headers=headers)


def timeline(call: Call) -> Reply:
    """The events interleaved with comments (`commented`), reviews (`reviewed`) and a
    pull request's commits (`committed`), oldest first; `per_page`, `page`."""
    repo, item = issue_or_pull(call)
    store, render = call.store, call.render
    entries: list[tuple[float, int, Json]] = []
    for event in store.events(item):
        body = render_event(call, repo, event, timeline=True)
        entries.append((event.created_at, event.id, body))
    for comment in store.issue_comments(repo, item.number):
        body = render.issue_comment(store, repo, comment)
        body |= {"event": "commented", "actor": body["user"]}
        entries.append((comment.created_at, comment.id, body))
    if isinstance(item, PullRequest):
        for review in store.reviews(item):
            if review.submitted_at is not None:
                body = render.review(store, repo, review) | {"event": "reviewed"}
                entries.append((review.submitted_at, review.id, body))
        for commit in store.pull_commits(item):
            entries.append((commit.created_at, commit.id, _committed(call, repo, commit.sha)))
    entries.sort(key=lambda e: (e[0], e[1]))
    page, headers = paginate(call, [e[2] for e in entries])
    return Reply(page, headers=headers)


def _committed(call: Call, repo: Repo, sha: str) -> Json:
    return {"event": "committed", **git_commit_json(call, repo, call.store.commits[(repo.id, sha)])}


_I = "/repos/{owner}/{repo}/issues/{number}"
ROUTES = [
    Route("GET", _I + "/events", list_events, etag=True),
    Route("GET", _I + "/timeline", timeline, etag=True),
]
