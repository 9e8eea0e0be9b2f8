"""What belongs to an account: repositories (the viewer's, a user's, an
organization's), notifications and activity events.

Every user is a collaborator on every repository (no permissions model), so
``/user/repos`` lists them all; a user's or organization's list has the ones it owns.
Notifications and events are not modelled: the lists are empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ghbench.emulator.errors import NotFound, invalid_field
from ghbench.emulator.rest.common import paginate, viewer
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import Repo

__all__ = ["ROUTES"]

_SORTS: dict[str, Callable[[Repo], Any]] = {
    "full_name": lambda r: r.full_name.casefold(),
    "created": lambda r: (r.created_at, r.id),
    "updated": lambda r: (r.updated_at, r.id),
    "pushed": lambda r: (r.pushed_at, r.id),
}


def _listed(call: Call, repos: list[Repo]) -> Reply:
    """``sort`` (full_name by default, ascending; the dates descending) and pages."""
    sort = call.query.get("sort", "full_name")
    if sort not in _SORTS:
        raise invalid_field("Repository", "sort")
    default = "asc" if sort == "full_name" else "desc"
    repos.sort(key=_SORTS[sort], reverse=call.query.get("direction", default) == "desc")
    visibility = call.query.get("visibility", "all")
    if visibility in ("public", "private"):
        repos = [r for r in repos if r.private == (visibility == "private")]
    page, headers = paginate(call, repos)
    return Reply([call.render.repo(call.store, r) for r in page], headers=headers)


def viewer_repos(call: Call) -> Reply:
    """Every repository (the viewer collaborates on all of them); `visibility`,
    `sort`, `direction`, pages."""
    viewer(call)
    return _listed(call, list(call.store.repos.values()))


def owner_repos(call: Call) -> Reply:
    """The ones a user or an organization owns."""
    login = call.params.get("username") or call.params["org"]
    owner = call.store.user(login)
    if owner is None or ("org" in call.params and owner.type != "Organization"):
        raise NotFound()
    owned = [r for r in call.store.repos.values() if r.owner_id == owner.id]
    return _listed(call, owned)


def notifications(call: Call) -> Reply:
    """None: notifications are not modelled."""
    viewer(call)
    return Reply([])


def events(call: Call) -> Reply:
    """None: the activity feed is not modelled (404 for an unknown user)."""
    if call.store.user(call.params["username"]) is None:
        raise NotFound()
    return Reply([])


ROUTES = [
    Route("GET", "/user/repos", viewer_repos, etag=True, anonymous=False),
    Route("GET", "/users/{username}/repos", owner_repos, etag=True),
    Route("GET", "/orgs/{org}/repos", owner_repos, etag=True),
    Route("GET", "/notifications", notifications, etag=True, anonymous=False),
    Route("GET", "/users/{username}/received_events", events, etag=True),
    Route("GET", "/users/{username}/events", events, etag=True),
]
