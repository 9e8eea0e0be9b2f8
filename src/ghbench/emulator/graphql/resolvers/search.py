"""``Query.search``: the shared search (:mod:`ghbench.emulator.search`) as a connection.

``type: ISSUE`` searches issues and pull requests with exactly the REST endpoint's
parser and matcher, and so does ``ISSUE_ADVANCED`` (GitHub's advanced issue search,
what gh 2.102 asks for: the boolean syntax the parser reads already); ``ISSUE_HYBRID``
and ``ISSUE_SEMANTIC`` get the same lexical matches, as REST's semantic and hybrid
searches fall back to lexical here; ``REPOSITORY`` and ``USER`` search repositories
and users by name;
``DISCUSSION`` finds nothing (discussions are not modelled). Only the count for the
requested type is non-zero, as on GitHub.

Two choices, documented in docs/emulator.md:

- ``last`` without ``before`` is the page size counted forward from ``after``. gh's
  ``IssueSearch`` pages with ``search(last: $limit, after: $after)`` and reads
  ``hasNextPage``; under the Relay rule it would get the oldest items and never a next
  page, which is not what gh shows on github.com.
- A query REST answers with 422 (unknown users or repositories, syntax, length) gives
  an empty result here, not an error: GitHub documents those 422s for REST only
  (**unconfirmed** for GraphQL).

Like every connection it costs by the published formula (its ``first``/``last`` is the
page size), charged to the ``graphql`` bucket only: GitHub's GraphQL docs say a GraphQL
request's ``x-ratelimit-resource`` is always ``graphql``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ghbench.emulator.graphql.resolvers.connections import Page, paginate
from ghbench.emulator.graphql.resolvers.context import Info, context_of
from ghbench.emulator.search import (
    MAX_RESULTS,
    SearchProblem,
    search_issues,
    search_repositories,
    search_users,
)

__all__ = ["SEARCH_CONNECTION_FIELDS", "search"]

# SearchType -> the search it runs (every issue search is the lexical one here)
_KINDS = {
    "ISSUE": "ISSUE",
    "ISSUE_ADVANCED": "ISSUE",
    "ISSUE_HYBRID": "ISSUE",
    "ISSUE_SEMANTIC": "ISSUE",
    "REPOSITORY": "REPOSITORY",
    "USER": "USER",
    "DISCUSSION": "DISCUSSION",
}
_COUNT_FIELDS = {
    "ISSUE": "issueCount",
    "REPOSITORY": "repositoryCount",
    "USER": "userCount",
    "DISCUSSION": "discussionCount",
}


class SearchResults:
    """One page of results plus the total count under the requested type's field."""

    def __init__(self, page: Page, kind: str, total: int) -> None:
        self.page = page
        self.counts = {field: 0 for field in (*_COUNT_FIELDS.values(), "codeCount", "wikiCount")}
        self.counts[_COUNT_FIELDS[kind]] = total


def _matches(info: Info, query: str, kind: str) -> Sequence[Any]:
    context = context_of(info)
    if not query.strip():  # REST refuses an empty q; here, like its other 422s: nothing
        return []
    try:
        if kind == "ISSUE":
            return search_issues(context.store, query, context.viewer)
        if kind == "REPOSITORY":
            return search_repositories(context.store, query)
        if kind == "USER":
            return search_users(context.store, query)
    except SearchProblem:
        return []
    return []


def search(_: object, info: Info, query: str, **args: Any) -> SearchResults:
    """``args``: ``type`` (SearchType) and the page arguments."""
    kind = _KINDS[args["type"]]
    first, last = args.get("first"), args.get("last")
    if last is not None and args.get("before") is None and first is None:
        first, last = last, None
    matches = _matches(info, query, kind)
    reachable = list(matches[:MAX_RESULTS])
    page = paginate(reachable, first, last, args.get("after"), args.get("before"))
    return SearchResults(page, kind, len(matches))


def _count(name: str) -> Any:
    return lambda results, _: results.counts[name]


SEARCH_CONNECTION_FIELDS: dict[str, Any] = {
    "issueCount": _count("issueCount"),
    "repositoryCount": _count("repositoryCount"),
    "userCount": _count("userCount"),
    "discussionCount": _count("discussionCount"),
    "codeCount": _count("codeCount"),
    "wikiCount": _count("wikiCount"),
    "nodes": lambda results, _: results.page.nodes,
    "edges": lambda results, _: results.page.edges,
    "pageInfo": lambda results, _: results.page.pageInfo,
}
