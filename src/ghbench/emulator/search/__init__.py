"""Search: the one query parser and matcher behind REST ``GET /search/issues`` and
GraphQL ``search(query:, type:)``, so a query means the same on both.

The syntax is GitHub's (docs: "Searching issues and pull requests", "Understanding the
search syntax", "Sorting search results"):

- space-separated terms must all match; ``OR`` joins alternatives and binds loosest,
  so ``repo:a/b author:x OR author:y`` keeps the repository on the left side only
  (which is how github.com reads it, cli/cli#11774); ``AND`` is optional, ``NOT x``
  and ``-x`` negate one term, parentheses group;
- ``key:value`` is a qualifier, ``key:"two words"`` and ``"a phrase"`` quote, and a
  value ``a,b`` means either (``label:bug,ui``); repeating a single-valued qualifier
  (``repo``/``user``/``org``, ``author``, ``involves``, ``head``, ``base``,
  ``language``) means either, repeating ``label`` means both (docs examples);
- a ``key:`` GitHub does not have (``foo:bar``) is plain text, like any word. Words
  match at a word start (``fix`` finds "fixes", not "prefix") in the title, body and
  comments (``in:`` narrows that); a 7-40 digit hex word also finds pull requests
  whose head or merge commit starts with it.

What each qualifier matches is in ``_ISSUE_QUALIFIERS``. Metadata the emulator does
not model (milestones, projects, teams, closing links,
repository languages, reactions, locks, archiving) is empty on every REST and GraphQL
object, so a qualifier that asks for it matches nothing and its ``no:``/``-`` forms
match everything: the same answer the objects themselves give.

Problems GitHub's REST API answers with 422 raise :class:`SearchProblem` with GitHub's
message: invalid syntax, more than 256 characters of text, more than five operators,
and ``repo:``/``user:``/``org:`` or user qualifiers of which none exists (one that
exists is enough: the others are ignored, as measured on github.com). The callers
decide what to do with it (REST: 422; GraphQL: an empty result, see
``graphql/resolvers/search.py``). Everything here reads the store and never writes.
"""

from __future__ import annotations

from ghbench.emulator.search.commits import search_commits
from ghbench.emulator.search.facts import (
    Item,
    ci_state,
    has_any_label,
    involves,
    mentions,
    reviews_state,
)
from ghbench.emulator.search.issues import search_issues, search_repositories, search_users
from ghbench.emulator.search.query import MAX_RESULTS, SearchProblem, Term, parse_query

__all__ = [
    "MAX_RESULTS",
    "Item",
    "SearchProblem",
    "Term",
    "ci_state",
    "has_any_label",
    "involves",
    "mentions",
    "parse_query",
    "reviews_state",
    "search_commits",
    "search_issues",
    "search_repositories",
    "search_users",
]
