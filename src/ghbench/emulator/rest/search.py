"""``GET /search/issues``, charged to the ``search`` bucket (30/min).

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

from typing import Any

from ghbench.emulator.errors import ValidationFailed
from ghbench.emulator.rest.common import page_params, paginate
from ghbench.emulator.rest.issues import pull_as_issue
from ghbench.emulator.routing import Call, Reply, Route
from ghbench.emulator.search import MAX_RESULTS, SearchProblem, search_issues
from ghbench.emulator.state import PullRequest

__all__ = ["ROUTES"]

_DOCS = "https://docs.github.com/v3/search/"


def search_issues_route(call: Call) -> Reply:
    """The query language of [Search](#search) (shared with GraphQL); `sort`, `order`,
    `per_page`, `page`; 1,000 results reachable; lexical, every `score` 1.0."""
    q = call.query.get("q", "").strip()
    if not q:
        raise ValidationFailed(
            errors=[{"resource": "Search", "field": "q", "code": "missing"}],
            documentation_url=_DOCS,
        )
    store = call.store
    try:
        hits = search_issues(
            store, q, call.user, sort=call.query.get("sort"), order=call.query.get("order")
        )
    except SearchProblem as problem:
        error = {"message": problem.message, "resource": "Search", "field": "q", "code": "invalid"}
        raise ValidationFailed(errors=[error], documentation_url=_DOCS) from None
    page_number, per_page = page_params(call)
    if (page_number - 1) * per_page >= MAX_RESULTS:
        raise ValidationFailed(
            "Only the first 1000 search results are available", documentation_url=_DOCS
        )
    # The last reachable page may run past 1,000 (per_page 30: page 34 is 991-1020).
    reachable = hits[: -(-MAX_RESULTS // per_page) * per_page]
    page, headers = paginate(call, reachable)
    items: list[dict[str, Any]] = []
    for item in page:
        repo = store.repos[item.repo_id]
        if isinstance(item, PullRequest):
            found = pull_as_issue(call, repo, item.number)
        else:
            found = call.urls.issue(store, repo, item)
        if found["body"] is None:
            del found["body"]  # a string if present (issue-search-result-item)
        items.append(found | {"score": 1.0})
    body: dict[str, Any] = {
        "total_count": len(hits),
        "incomplete_results": False,
        "items": items,
        "search_type": "lexical",
    }
    if call.query.get("search_type") in ("semantic", "hybrid"):
        body["lexical_fallback_reason"] = ["service_unavailable"]
    return Reply(body, headers=headers)


ROUTES = [Route("GET", "/search/issues", search_issues_route, resource="search")]
