"""Assignees (issues and pull requests) and requested reviewers (pull requests).

Every user account is a collaborator here (``state/people.py``): assignable and
reviewable. GitHub drops assignees it cannot assign without an error, refuses a review
request for the pull request's author, and refuses unknown users and any team (teams
are not modelled) with its "not a collaborator" 422.
"""

from __future__ import annotations

from ghbench.emulator.errors import NotFound, ValidationFailed, invalid_field
from ghbench.emulator.rest.common import (
    body_field,
    issue_or_pull,
    paginate,
    pull_of,
    repo_of,
    viewer,
)
from ghbench.emulator.rest.issues import issue_or_pull_json
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import PullRequest, Repo, User

__all__ = ["ROUTES", "users_named"]


def users_named(call: Call, field: str) -> list[User]:
    """The body's logins under ``field``; unknown logins are left out (GitHub drops
    assignees it cannot assign)."""
    logins = body_field(call, "Issue", field, list, default=[])
    found = (call.store.user(str(login)) for login in logins)
    return [user for user in found if user is not None]


def list_assignees(call: Call) -> Reply:
    """Every user account (all are collaborators here), by login."""
    repo = repo_of(call)
    page, headers = paginate(call, call.store.assignable_users(repo))
    return Reply([call.render.user(u) for u in page], headers=headers)


def check_assignee(call: Call) -> Reply:
    """204 when the user can be assigned, else 404."""
    repo_of(call)
    user = call.store.user(call.params["assignee"])
    if user is None or not call.store.is_assignable(user):
        raise NotFound()
    return Reply(None, status=204)


def check_item_assignee(call: Call) -> Reply:
    """204 when the user can be assigned to this issue or pull request, else 404."""
    issue_or_pull(call)
    return check_assignee(call)


def add_assignees(call: Call) -> Reply:
    """Adds; users who cannot be assigned are dropped; 10 at most."""
    repo, item = issue_or_pull(call)
    viewer(call)
    call.store.add_assignees(item, users_named(call, "assignees"))
    return Reply(issue_or_pull_json(call, repo, item), status=201)


def remove_assignees(call: Call) -> Reply:
    """Removes the named users."""
    repo, item = issue_or_pull(call)
    viewer(call)
    call.store.remove_assignees(item, users_named(call, "assignees"))
    return Reply(issue_or_pull_json(call, repo, item))


def _requested(call: Call, repo: Repo, pull: PullRequest) -> dict[str, object]:
    users = call.store.users
    reviewers = [call.render.user(users[i]) for i in pull.requested_reviewers if i in users]
    return {"users": reviewers, "teams": []}


def list_review_requests(call: Call) -> Reply:
    """`users` asked for a review and not yet answered; `teams` always empty."""
    repo, pull = pull_of(call)
    return Reply(_requested(call, repo, pull))


def _reviewers(call: Call, repo: Repo, pull: PullRequest) -> list[User]:
    logins = [str(x) for x in body_field(call, "PullRequest", "reviewers", list, default=[])]
    teams = body_field(call, "PullRequest", "team_reviewers", list, default=[])
    users = [call.store.user(login) for login in logins]
    if teams or any(u is None or u.type != "User" for u in users):
        raise ValidationFailed(
            "Reviews may only be requested from collaborators. One or more of the users or "
            f"teams you specified is not a collaborator of the {repo.full_name} repository."
        )
    found = [u for u in users if u is not None]
    if any(u.id == pull.user_id for u in found):
        raise ValidationFailed("Review cannot be requested from pull request author.")
    return found


def request_reviewers(call: Call) -> Reply:
    """`reviewers` (logins), `team_reviewers` (refused: no teams); answers the pull
    request (`pull-request-simple`)."""
    repo, pull = pull_of(call)
    viewer(call)
    if not isinstance(call.body, dict) or not (
        call.body.get("reviewers") or call.body.get("team_reviewers")
    ):
        raise invalid_field("PullRequest", "reviewers")
    call.store.request_reviews(pull, _reviewers(call, repo, pull))
    return Reply(call.render.pull(call.store, repo, pull), status=201)


def remove_review_requests(call: Call) -> Reply:
    """`reviewers` whose requests are withdrawn."""
    repo, pull = pull_of(call)
    viewer(call)
    call.store.remove_review_requests(pull, users_named(call, "reviewers"))
    return Reply(call.render.pull(call.store, repo, pull))


def collaborator_permission(call: Call) -> Reply:
    """`admin` for the repository's owner, `write` for every other user account (all are
    collaborators here), 404 for an unknown user or a bot."""
    repo = repo_of(call)
    user = call.store.user(call.params["username"])
    if user is None or user.type != "User":
        raise NotFound()
    permission = "admin" if user.id == repo.owner_id else "write"
    collaborator = call.render.user(user) | {
        "permissions": {
            "admin": permission == "admin",
            "maintain": permission == "admin",
            "push": True,
            "triage": True,
            "pull": True,
        },
        "role_name": permission,
    }
    return Reply({"permission": permission, "role_name": permission, "user": collaborator})


_R = "/repos/{owner}/{repo}"
_IA = _R + "/issues/{number}/assignees"
_RR = _R + "/pulls/{number}/requested_reviewers"
ROUTES = [
    Route("GET", _R + "/assignees", list_assignees, etag=True),
    Route("GET", _R + "/collaborators/{username}/permission", collaborator_permission, etag=True),
    Route("GET", _R + "/assignees/{assignee}", check_assignee, etag=True),
    Route("POST", _IA, add_assignees, anonymous=False),
    Route("DELETE", _IA, remove_assignees, anonymous=False),
    Route("GET", _IA + "/{assignee}", check_item_assignee, etag=True),
    Route("GET", _RR, list_review_requests, etag=True),
    Route("POST", _RR, request_reviewers, anonymous=False),
    Route("DELETE", _RR, remove_review_requests, anonymous=False),
]
