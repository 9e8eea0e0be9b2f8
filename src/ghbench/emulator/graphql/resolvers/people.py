"""People around issues and pull requests: assignees, assignable and mentionable
users, review requests; organizations and their (never modelled) teams; the
repositories an owner has.

Every user account may be assigned and asked for reviews (``state/people.py``: no
permissions model). Teams are not modelled: an organization has none, so a team
review request cannot be made and ``Organization.team`` is null.

``Assignable``'s actor fields (what gh 2.102 reads and writes on github.com):
``assignedActors`` are the assignees (only user accounts are ever assigned here, as the
REST rule has it, so the actors are the users), ``suggestedActors(query:)`` the
assignable users, as ``assignableUsers`` answers them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.connections import paginate
from ghbench.emulator.graphql.resolvers.context import Info, context_of, github_error, iso, store_of
from ghbench.emulator.graphql.resolvers.views import ReviewRequestView, synthetic_id

if TYPE_CHECKING:
    from ghbench.emulator.state import Issue, PullRequest, Repo, User

__all__ = [
    "ASSIGNABLE_FIELDS",
    "ORGANIZATION_FIELDS",
    "REVIEW_REQUEST_FIELDS",
    "USER_FIELDS",
    "assignable_users",
    "assignees",
    "organization",
    "owned_repositories",
    "review_requests",
]


def assignees(record: Any, info: Info, **args: Any) -> Any:
    users = store_of(info).users
    return paginate([users[i] for i in record.assignees if i in users], **args)


def assignable_users(repo: Repo, info: Info, **args: Any) -> Any:
    """``assignableUsers`` / ``mentionableUsers(query:)``: every user account; ``query``
    matches logins and names."""
    users = store_of(info).assignable_users(repo)
    if args.get("query"):
        wanted = args["query"].casefold()
        users = [
            u for u in users if wanted in u.login.casefold() or wanted in (u.name or "").casefold()
        ]
    return paginate(users, **args)


def _suggested_actors(item: Issue | PullRequest, info: Info, **args: Any) -> Any:
    """``suggestedActors(query:)``: who may be assigned to ``item``, as
    ``assignableUsers`` of its repository."""
    return assignable_users(store_of(info).repos[item.repo_id], info, **args)


ASSIGNABLE_FIELDS: dict[str, Any] = {
    "assignees": assignees,
    "assignedActors": assignees,
    "suggestedActors": _suggested_actors,
}


def review_requests(pull: PullRequest, info: Info, **args: Any) -> Any:
    users = store_of(info).users
    requests = [ReviewRequestView(pull, users[i]) for i in pull.requested_reviewers if i in users]
    return paginate(requests, **args)


REVIEW_REQUEST_FIELDS: dict[str, Any] = {
    "id": lambda r, _: synthetic_id("RR", f"{r.pull.node_id}:{r.reviewer.id}"),
    "asCodeOwner": lambda r, _: False,
    "pullRequest": lambda r, _: r.pull,
    "requestedReviewer": lambda r, _: r.reviewer,
}


def organization(_: object, info: Info, login: str) -> User:
    found = store_of(info).user(login)
    if found is None or found.type != "Organization":
        raise github_error(
            "NOT_FOUND", f"Could not resolve to an Organization with the login of '{login}'."
        )
    return found


# RepositoryOrderField -> sort key
_REPO_ORDER: dict[str, Callable[[Repo], Any]] = {
    "CREATED_AT": lambda r: (r.created_at, r.id),
    "UPDATED_AT": lambda r: (r.updated_at, r.id),
    "PUSHED_AT": lambda r: (r.pushed_at, r.id),
    "NAME": lambda r: r.name.casefold(),
    "STARGAZERS": lambda r: (0, r.id),
}


def owned_repositories(owner: User, info: Info, **args: Any) -> Any:
    """``repositories(privacy:, isFork:, isArchived:, orderBy:)`` of a user or an
    organization: the ones it owns (no forks or archived repositories exist here; the
    viewer is a collaborator everywhere, so ``affiliations`` add nothing)."""
    store = store_of(info)
    repos = [r for r in store.repos.values() if r.owner_id == owner.id]
    privacy = args.get("privacy")
    if privacy is not None:
        repos = [r for r in repos if r.private == (privacy == "PRIVATE")]
    if args.get("isFork") or args.get("isArchived") or args.get("isLocked"):
        repos = []
    order = args.get("orderBy") or {"field": "CREATED_AT", "direction": "ASC"}
    repos.sort(key=_REPO_ORDER[order["field"]], reverse=order["direction"] == "DESC")
    return paginate(repos, **args)


def _nothing(*_: Any, **args: Any) -> Any:
    return paginate([], **args)


def _empty(*_: Any, **__: Any) -> None:
    return None


# What a user and an organization both answer: the emulator keeps no profiles, so their
# profile fields are empty; each was created once and never updated; each owns repositories.
_OWNER_FIELDS: dict[str, Any] = {
    **dict.fromkeys(("location", "websiteUrl"), _empty),
    "createdAt": lambda owner, _: iso(owner.created_at),
    "updatedAt": lambda owner, _: iso(owner.created_at),
    "repositories": owned_repositories,
}

USER_FIELDS: dict[str, Any] = {
    **_OWNER_FIELDS,
    **dict.fromkeys(("bio", "company", "twitterUsername"), _empty),
    "isViewer": lambda u, info: u.id == context_of(info).viewer.id,
}

ORGANIZATION_FIELDS: dict[str, Any] = {
    **_OWNER_FIELDS,
    **dict.fromkeys(("description", "email"), _empty),
    "viewerIsAMember": lambda o, _: True,
    "team": _empty,
    "teams": _nothing,
}
