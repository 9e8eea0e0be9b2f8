"""Helpers shared by REST handlers: lookups that 404, body fields, pagination."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode

from ghbench.emulator.errors import (
    NotFound,
    RequiresAuthentication,
    found,
    invalid_field,
    missing_field,
)
from ghbench.emulator.rest.routing import Call, Reply
from ghbench.emulator.state import Issue, PullRequest, Repo, User

__all__ = [
    "body_field",
    "counted_page",
    "issue_or_pull",
    "none_in_repo",
    "not_in_repo",
    "numbered",
    "page_params",
    "paginate",
    "pull_of",
    "repo_of",
    "viewer",
]

T = TypeVar("T")
_MAX_PER_PAGE = 100


def repo_of(call: Call) -> Repo:
    return call.store.get_repo(call.params["owner"], call.params["repo"])


def numbered(call: Call, lookup: Callable[[Repo, int], T | None], param: str) -> tuple[Repo, T]:
    """The repository and its record that ``lookup`` finds by the path's number
    ``param``, or GitHub's 404."""
    repo = repo_of(call)
    return repo, found(lookup(repo, call.param_int(param)))


def pull_of(call: Call) -> tuple[Repo, PullRequest]:
    return numbered(call, call.store.pull, "number")


def issue_or_pull(call: Call) -> tuple[Repo, Issue | PullRequest]:
    """The issue or pull request ``{number}`` names, or GitHub's 404."""
    repo = repo_of(call)
    number = call.param_int("number")
    return repo, call.store.issue(repo, number) or found(call.store.pull(repo, number))


# The list and the one-by-id routes of a kind of record the emulator does not model
# (releases, milestones); their docstrings are the routes' notes in docs/emulator.md.
def none_in_repo(call: Call) -> Reply:
    """None: not modelled (a repository without any, as GitHub answers it)."""
    repo_of(call)
    return Reply([])


def not_in_repo(call: Call) -> Reply:
    """404: not modelled, so there is no such one."""
    repo_of(call)
    raise NotFound()


def viewer(call: Call) -> User:
    if call.user is None:
        raise RequiresAuthentication()
    return call.user


def body_field(
    call: Call, resource: str, name: str, kind: type[T], *, default: T | None = None
) -> T:
    """A field of the JSON body with the right type, or GitHub's 422."""
    body = call.body if isinstance(call.body, dict) else {}
    value = body.get(name)
    if value is None:
        if default is None:
            raise missing_field(resource, name)
        return default
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise invalid_field(resource, name)
    return value


def _positive(call: Call, name: str, default: int) -> int:
    raw = call.query.get(name, "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


def page_params(call: Call) -> tuple[int, int]:
    """``(page, per_page)`` from the query: 1 and 30 by default, ``per_page`` ≤ 100."""
    return _positive(call, "page", 1), min(_positive(call, "per_page", 30), _MAX_PER_PAGE)


def paginate(call: Call, items: list[Any]) -> tuple[list[Any], dict[str, str]]:
    """The requested page of ``items`` and GitHub's ``link`` header."""
    page, per_page = page_params(call)
    last = max(1, -(-len(items) // per_page))
    chunk = items[(page - 1) * per_page : page * per_page]
    links = []

    def url(n: int) -> str:
        return f"{call.render.api}{call.path}?{urlencode(call.query | {'page': str(n)})}"

    if page < last:
        links += [f'<{url(page + 1)}>; rel="next"', f'<{url(last)}>; rel="last"']
    if page > 1:
        links += [f'<{url(1)}>; rel="first"', f'<{url(min(page - 1, last))}>; rel="prev"']
    return chunk, ({"link": ", ".join(links)} if links else {})


def counted_page(call: Call, key: str, items: list[T], render: Callable[[T], Any]) -> Reply:
    """GitHub's counted listing (Actions' runs, jobs and workflows, a commit's check runs
    and suites): ``total_count`` of all ``items`` and the requested page of them, each
    ``render``-ed, under ``key``, with the ``link`` header."""
    page, headers = paginate(call, items)
    return Reply({"total_count": len(items), key: [render(x) for x in page]}, headers=headers)
