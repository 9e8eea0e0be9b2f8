"""``GET /search/issues``: a small qualifier subset, charged to the ``search`` bucket.

Supported qualifiers: ``repo:owner/name``, ``is:pr``/``is:issue``, ``is:open``/
``is:closed``/``is:merged``, ``state:open|closed``, ``head:branch``, ``author:login``;
other words must all appear in the title (case-insensitive).
"""

from __future__ import annotations

from typing import Any

from ghbench.emulator.errors import ValidationFailed
from ghbench.emulator.rest.common import paginate
from ghbench.emulator.rest.issues import pull_as_issue
from ghbench.emulator.routing import Call, Reply, Route
from ghbench.emulator.state import Issue, PullRequest, Repo

__all__ = ["ROUTES"]


def _matches(
    item: Issue | PullRequest, quals: dict[str, str], words: list[str], login: str
) -> bool:
    pull = item if isinstance(item, PullRequest) else None
    kind = quals.get("is_kind")
    if (kind == "pr" and pull is None) or (kind == "issue" and pull is not None):
        return False
    state = quals.get("state")
    if state == "merged" and not (pull is not None and pull.merged):
        return False
    if state in ("open", "closed") and item.state != state:
        return False
    if "head" in quals and not (pull is not None and pull.head_ref == quals["head"]):
        return False
    if "author" in quals and login.lower() != quals["author"].lower():
        return False
    title = item.title.lower()
    return all(w.lower() in title for w in words)


def search_issues(call: Call) -> Reply:
    q = call.query.get("q", "").strip()
    if not q:
        raise ValidationFailed(errors=[{"resource": "Search", "field": "q", "code": "missing"}])
    quals: dict[str, str] = {}
    words: list[str] = []
    repos: list[Repo] = []
    for term in q.split():
        key, sep, value = term.partition(":")
        if not sep:
            words.append(term)
        elif key == "repo":
            owner, _, name = value.partition("/")
            found = call.store.repo(owner, name)
            if found is not None:
                repos.append(found)
        elif key == "is" and value in ("pr", "issue"):
            quals["is_kind"] = value
        elif key in ("is", "state"):
            quals["state"] = value
        elif key in ("head", "author"):
            quals[key] = value
    store = call.store
    scope = repos or list(store.repos.values())
    hits: list[tuple[Repo, Issue | PullRequest]] = []
    for repo in scope:
        candidates: list[Issue | PullRequest] = [
            *store.issues(repo, "all"),
            *store.pulls(repo, "all"),
        ]
        for item in candidates:
            login = store.user_by_id(item.user_id).login
            if _matches(item, quals, words, login):
                hits.append((repo, item))
    hits.sort(key=lambda hit: (hit[1].created_at, hit[1].id), reverse=True)
    page, headers = paginate(call, hits)
    items: list[dict[str, Any]] = []
    for repo, item in page:
        if isinstance(item, PullRequest):
            items.append(pull_as_issue(call, repo, item.number))
        else:
            items.append(call.urls.issue(store, repo, item))
    body = {"total_count": len(hits), "incomplete_results": False, "items": items}
    return Reply(body, headers=headers)


ROUTES = [Route("GET", "/search/issues", search_issues, resource="search")]
