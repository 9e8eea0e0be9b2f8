"""``GET /search/issues``, ``/search/commits``, ``/search/repositories`` and
``/search/users``, charged to the ``search`` bucket (30/min).

The query language and matching are :mod:`ghbench.emulator.search`, shared with GraphQL
``search``. REST adds what the REST docs describe: ``sort`` (created, updated, comments,
interactions, reactions…) and ``order`` (desc by default), ``per_page``/``page`` with
a ``link`` header, ``total_count`` counting every match while only the first 1,000 are
reachable (a page starting past them is a 422, "Only the first 1000 search results are
available", as github.com answers), and 422 ``Validation Failed`` with GitHub's
``{"message", "resource": "Search", "field": "q", "code": "invalid"}`` for the problems
:class:`~ghbench.emulator.search.SearchProblem` names.

The search is lexical: ``search_type`` is ``lexical``; asked for ``semantic`` or
``hybrid`` (GitHub's embedding search) it falls back, as GitHub documents it may,
with ``lexical_fallback_reason: ["service_unavailable"]``. Nothing is ranked, so every
item's ``score`` is 1.0; an empty ``body`` is left out (the schema types it a string).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ghbench.emulator.errors import ValidationFailed
from ghbench.emulator.rest import git_render
from ghbench.emulator.rest.common import page_params, paginate
from ghbench.emulator.rest.issues import pull_as_issue
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.search import (
    MAX_RESULTS,
    SearchProblem,
    search_commits,
    search_issues,
    search_repositories,
    search_users,
)
from ghbench.emulator.state import PullRequest

__all__ = ["ROUTES"]

_DOCS = "https://docs.github.com/v3/search/"
T = TypeVar("T")


def _query(call: Call) -> str:
    q = call.query.get("q", "").strip()
    if not q:
        raise ValidationFailed(
            errors=[{"resource": "Search", "field": "q", "code": "missing"}],
            documentation_url=_DOCS,
        )
    return q


def _hits(search: Callable[[], Sequence[T]]) -> Sequence[T]:
    try:
        return search()
    except SearchProblem as problem:
        error = {"message": problem.message, "resource": "Search", "field": "q", "code": "invalid"}
        raise ValidationFailed(errors=[error], documentation_url=_DOCS) from None


def _page(call: Call, hits: Sequence[T]) -> tuple[list[T], dict[str, str]]:
    """The requested page of the first 1,000 hits (422 past them)."""
    page_number, per_page = page_params(call)
    if (page_number - 1) * per_page >= MAX_RESULTS:
        raise ValidationFailed(
            "Only the first 1000 search results are available", documentation_url=_DOCS
        )
    # The last reachable page may run past 1,000 (per_page 30: page 34 is 991-1020).
    reachable = list(hits[: -(-MAX_RESULTS // per_page) * per_page])
    return paginate(call, reachable)


def _answer(total: int, items: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    # Nothing is ranked: every score is 1.0.
    scored = [item | {"score": 1.0} for item in items]
    return {"total_count": total, "incomplete_results": False, "items": scored, **extra}


def search_issues_route(call: Call) -> Reply:
    """The query language of [Search](#search) (shared with GraphQL); `sort`, `order`,
    `per_page`, `page`; 1,000 results reachable; lexical, every `score` 1.0."""
    q, store = _query(call), call.store
    sort, order = call.query.get("sort"), call.query.get("order")
    hits = _hits(lambda: search_issues(store, q, call.user, sort=sort, order=order))
    page, headers = _page(call, hits)
    items: list[dict[str, Any]] = []
    for item in page:
        repo = store.repos[item.repo_id]
        if isinstance(item, PullRequest):
            found = pull_as_issue(call, repo, item.number)
        else:
            found = call.render.issue(store, repo, item)
        if found["body"] is None:
            del found["body"]  # a string if present (issue-search-result-item)
        items.append(found)
    extra: dict[str, Any] = {"search_type": "lexical"}
    if call.query.get("search_type") in ("semantic", "hybrid"):
        extra["lexical_fallback_reason"] = ["service_unavailable"]
    return Reply(_answer(len(hits), items, **extra), headers=headers)


def search_repositories_route(call: Call) -> Reply:
    """Words in the name or description, `repo:`, `user:`/`org:`, `is:public|private`
    (see [Search](#search)); newest first; every `score` 1.0."""
    q, store = _query(call), call.store
    hits = _hits(lambda: search_repositories(store, q))
    page, headers = _page(call, hits)
    items = [call.render.repo(store, repo) for repo in page]
    return Reply(_answer(len(hits), items), headers=headers)


def search_users_route(call: Call) -> Reply:
    """Words in the login or name, `type:user|org`; every `score` 1.0."""
    q = _query(call)
    hits = _hits(lambda: search_users(call.store, q))
    page, headers = _page(call, hits)
    return Reply(_answer(len(hits), [call.render.user(u) for u in page]), headers=headers)


def search_commits_route(call: Call) -> Reply:
    """Default branches only: words in the message, `author:`, `committer:`,
    `author-date:`, `merge:`, `hash:`, `repo:`… (see `search/commits.py`); `sort`
    `author-date`/`committer-date`; every `score` 1.0."""
    q, store = _query(call), call.store
    login = call.user.login if call.user else None
    sort, order = call.query.get("sort"), call.query.get("order")
    hits = _hits(lambda: search_commits(store, q, login, sort=sort, order=order))
    page, headers = _page(call, hits)
    items = []
    for repo, commit in page:
        found = git_render.commit(call.render, store, repo, commit)
        # the description types the top-level committer a git user (name, email, date)
        found["committer"] = found["commit"]["committer"]
        found["repository"] = call.render.repo(store, repo)
        items.append(found)
    return Reply(_answer(len(hits), items), headers=headers)


ROUTES = [
    Route("GET", "/search/issues", search_issues_route, resource="search"),
    Route("GET", "/search/commits", search_commits_route, resource="search"),
    Route("GET", "/search/repositories", search_repositories_route, resource="search"),
    Route("GET", "/search/users", search_users_route, resource="search"),
]
