"""Commit search (REST ``GET /search/commits``), in the query language of issue search.

GitHub's docs ("Searching commits"): only default branches are searched; words match
the commit message; qualifiers ``author:``/``committer:`` (logins), ``author-name:``,
``committer-name:``, ``author-email:``, ``committer-email:``, ``author-date:``,
``committer-date:`` (dates and ranges as for issues), ``merge:true|false``,
``hash:``, ``parent:``, ``tree:`` (a sha or its prefix), ``repo:``, ``user:``/``org:``,
``is:public|private``. Sorted by ``author-date`` or ``committer-date`` when asked,
newest first otherwise (GitHub ranks "best match"; nothing is ranked here). The same
422s as issue search for syntax, length and scopes that do not exist.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ghbench.emulator.search.query import (
    UNSEARCHABLE_REPOS,
    SearchProblem,
    Term,
    date_atom,
    in_range,
    matching,
    parse_query,
    word_pattern,
)
from ghbench.emulator.state.models import Commit, Repo

if TYPE_CHECKING:
    from ghbench.emulator.state import Store

__all__ = ["search_commits"]

Hit = tuple[Repo, Commit]
_SORTS: dict[str, Callable[[Hit], tuple[float, int]]] = {
    "author-date": lambda hit: (hit[1].created_at, hit[1].id),
    "committer-date": lambda hit: (hit[1].committed_at, hit[1].id),
}


def _login(store: Store, email: str) -> str:
    user = store.user_for_email(email)
    return user.login.lower() if user else ""


def _matcher(store: Store, viewer_login: str | None) -> Callable[[Term, Hit], bool]:
    def login(value: str) -> str:
        return (viewer_login or "").lower() if value == "@me" else value.lower()

    tests: dict[str, Callable[[Hit, str], bool]] = {
        "author": lambda h, v: (h[1].author_login or "").lower() == login(v),
        "committer": lambda h, v: _login(store, h[1].committer_email) == login(v),
        "author-name": lambda h, v: v.lower() in h[1].author_name.lower(),
        "committer-name": lambda h, v: v.lower() in h[1].committer_name.lower(),
        "author-email": lambda h, v: h[1].author_email.lower() == v.lower(),
        "committer-email": lambda h, v: h[1].committer_email.lower() == v.lower(),
        "author-date": lambda h, v: in_range(h[1].created_at, v, date_atom),
        "committer-date": lambda h, v: in_range(h[1].committed_at, v, date_atom),
        "merge": lambda h, v: (len(h[1].parents) > 1) == (v.lower() == "true"),
        "hash": lambda h, v: h[1].sha.startswith(v.lower()),
        "parent": lambda h, v: any(p.startswith(v.lower()) for p in h[1].parents),
        "tree": lambda h, v: h[1].tree_sha.startswith(v.lower()),
        "repo": lambda h, v: h[0].full_name.lower() == v.lower(),
        "user": lambda h, v: h[0].owner_login.lower() == v.lower(),
        "org": lambda h, v: h[0].owner_login.lower() == v.lower(),
        "is": lambda h, v: v.lower() == ("private" if h[0].private else "public"),
    }

    def match(term: Term, hit: Hit) -> bool:
        if term.key is None:
            return bool(word_pattern(term.values[0]).search(hit[1].message))
        test = tests.get(term.key)
        if test is None:  # an unknown key is plain text, as in issue search
            return bool(word_pattern(term.raw.replace('"', "")).search(hit[1].message))
        return any(test(hit, value) for value in term.values)

    return match


def _default_branch_commits(store: Store, repo: Repo) -> list[Commit]:
    head = store.branch_sha(repo, repo.default_branch)
    if head is None:
        return []
    return store.commits_between(repo, None, head)


def search_commits(
    store: Store,
    query: str,
    viewer_login: str | None = None,
    *,
    sort: str | None = None,
    order: str | None = None,
) -> list[Hit]:
    """Commits on default branches matching ``query``; :class:`SearchProblem` for what
    GitHub refuses."""
    parsed = parse_query(query)
    scopes = parsed.qualifiers("repo", "user", "org")
    repos = list(store.repos.values())
    if scopes:
        wanted = [(t.key, v.lower()) for t in scopes for v in t.values]
        if not any(_in_scope(repo, key, value) for repo in repos for key, value in wanted):
            raise SearchProblem(UNSEARCHABLE_REPOS)
    hits = [(repo, c) for repo in repos for c in _default_branch_commits(store, repo)]
    hits = matching(parsed, hits, _matcher(store, viewer_login))
    key = _SORTS.get(sort or "", _SORTS["committer-date"])
    return sorted(hits, key=key, reverse=(order or "desc") == "desc")


def _in_scope(repo: Repo, key: str | None, value: str) -> bool:
    if key == "repo":
        return repo.full_name.lower() == value
    return repo.owner_login.lower() == value
