"""Repositories, git refs, the authenticated user, the API root and ``/rate_limit``."""

from __future__ import annotations

from ghbench.emulator.errors import NotFound, ValidationFailed, found
from ghbench.emulator.rest.common import body_field, repo_of, viewer
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.versions import has_rate_limit_rate

__all__ = ["ROUTES"]

# The root document: name -> path template below the API base.
_ROOT = {
    "current_user_url": "/user",
    "current_user_authorizations_html_url": "https://github.com/settings/connections/applications{/client_id}",
    "authorizations_url": "/authorizations",
    "code_search_url": "/search/code?q={query}{&page,per_page,sort,order}",
    "commit_search_url": "/search/commits?q={query}{&page,per_page,sort,order}",
    "emails_url": "/user/emails",
    "emojis_url": "/emojis",
    "events_url": "/events",
    "feeds_url": "/feeds",
    "followers_url": "/user/followers",
    "following_url": "/user/following{/target}",
    "gists_url": "/gists{/gist_id}",
    "hub_url": "/hub",
    "issue_search_url": "/search/issues?q={query}{&page,per_page,sort,order}",
    "issues_url": "/issues",
    "keys_url": "/user/keys",
    "label_search_url": "/search/labels?q={query}&repository_id={repository_id}{&page,per_page}",
    "notifications_url": "/notifications",
    "organization_url": "/orgs/{org}",
    "organization_repositories_url": "/orgs/{org}/repos{?type,page,per_page,sort}",
    "organization_teams_url": "/orgs/{org}/teams",
    "public_gists_url": "/gists/public",
    "rate_limit_url": "/rate_limit",
    "repository_url": "/repos/{owner}/{repo}",
    "repository_search_url": "/search/repositories?q={query}{&page,per_page,sort,order}",
    "current_user_repositories_url": "/user/repos{?type,page,per_page,sort}",
    "starred_url": "/user/starred{/owner}{/repo}",
    "starred_gists_url": "/gists/starred",
    "topic_search_url": "/search/topics?q={query}{&page,per_page}",
    "user_url": "/users/{user}",
    "user_organizations_url": "/user/orgs",
    "user_repositories_url": "/users/{user}/repos{?type,page,per_page,sort}",
    "user_search_url": "/search/users?q={query}{&page,per_page,sort,order}",
}


def root(call: Call) -> Reply:
    """Root links (every authenticated answer says the token's `x-oauth-scopes`: gh
    auth login and AO's doctor read them)."""
    return Reply({k: v if v.startswith("http") else call.render.api + v for k, v in _ROOT.items()})


def get_user(call: Call) -> Reply:
    """The token's user (`private-user`); 401 "Requires authentication" without one."""
    return Reply(call.render.private_user(viewer(call)))


def get_named_user(call: Call) -> Reply:
    """`public-user`: profile fields empty, counts zero (no profiles are kept)."""
    user = found(call.store.user(call.params["username"]))
    return Reply(call.render.public_user(user))


def rate_limit(call: Call) -> Reply:
    """GitHub's shape, `rate` = `core` (API version 2022-11-28; 2026-03-10 has no `rate`);
    free, counts for secondary limits."""
    document = call.emulator.rate_limit_document(call.owner)
    if not has_rate_limit_rate(call.api_version):
        del document["rate"]
    return Reply(document)


def get_repo(call: Call) -> Reply:
    """`full-repository`."""
    return Reply(call.render.repo(call.store, repo_of(call), full=True))


# PATCH /repos/{o}/{r}: the settings kept (the rest are accepted and not modelled)
_SETTINGS = {"allow_auto_merge": bool, "delete_branch_on_merge": bool, "description": str}


def update_repo(call: Call) -> Reply:
    """`allow_auto_merge`, `delete_branch_on_merge`, `description` (other settings are
    accepted and change nothing)."""
    viewer(call)
    repo = repo_of(call)
    body = call.body if isinstance(call.body, dict) else {}
    for name, kind in _SETTINGS.items():
        if name in body:
            setattr(repo, name, body_field(call, "Repository", name, kind))
    repo.updated_at = call.store.now()
    call.store.save(repo)
    return Reply(call.render.repo(call.store, repo, full=True))


def _ref_name(call: Call) -> str:
    return call.params["ref"].removeprefix("refs/").rstrip("/")


def get_ref(call: Call) -> Reply:
    """One ref, `refs/` optional."""
    repo = repo_of(call)
    ref = found(call.store.ref(repo, _ref_name(call)))
    return Reply(call.render.ref(repo, ref))


def list_refs(call: Call) -> Reply:
    """Refs under a prefix (GitHub's legacy listing); an exact name answers that ref."""
    repo = repo_of(call)
    prefix = call.params.get("ref", "").removeprefix("refs/")
    refs = call.store.refs_with_prefix(repo, prefix)
    if not refs:
        raise NotFound()
    exact = [r for r in refs if r.name == prefix]
    if exact:
        return Reply(call.render.ref(repo, exact[0]))
    return Reply([call.render.ref(repo, r) for r in refs])


def list_all_refs(call: Call) -> Reply:
    """Every ref (GitHub's legacy listing)."""
    repo = repo_of(call)
    return Reply([call.render.ref(repo, r) for r in call.store.refs_with_prefix(repo, "")])


def create_ref(call: Call) -> Reply:
    """422 for a name without `refs/` and two slashes, a name git cannot hold (`a..b`,
    `heads/../x`: "... is not a valid ref name."), an existing ref, an unknown sha."""
    repo = repo_of(call)
    viewer(call)
    name = body_field(call, "Reference", "ref", str)
    if not name.startswith("refs/") or name.count("/") < 2:
        raise ValidationFailed("Reference name must start with 'refs/' and have two slashes")
    ref = call.store.create_ref(
        repo, name.removeprefix("refs/"), body_field(call, "Reference", "sha", str)
    )
    return Reply(call.render.ref(repo, ref), status=201)


def update_ref(call: Call) -> Reply:
    """Open pull requests from the branch follow its new head."""
    repo = repo_of(call)
    viewer(call)
    ref = call.store.ref(repo, _ref_name(call))
    if ref is None:
        raise ValidationFailed("Reference does not exist")
    sha = body_field(call, "Reference", "sha", str)
    if call.store.commit(repo, sha) is None:
        raise ValidationFailed("Object does not exist")
    call.store.update_ref(ref, sha)
    return Reply(call.render.ref(repo, ref))


def delete_ref(call: Call) -> Reply:
    """`gh pr merge -d` deletes `heads/{branch}` this way."""
    repo = repo_of(call)
    viewer(call)
    call.store.delete_ref(repo, _ref_name(call))
    return Reply(None, status=204)


_R = "/repos/{owner}/{repo}"
ROUTES = [
    Route("GET", "/", root, etag=True),
    Route("GET", "/user", get_user, etag=True, anonymous=False),
    Route("GET", "/users/{username}", get_named_user, etag=True),
    Route("GET", "/rate_limit", rate_limit, resource=None),
    Route("GET", _R, get_repo, etag=True),
    Route("PATCH", _R, update_repo, anonymous=False),
    Route("GET", _R + "/git/ref/{ref:path}", get_ref, etag=True),
    Route("GET", _R + "/git/refs", list_all_refs, etag=True),
    Route("GET", _R + "/git/refs/{ref:path}", list_refs, etag=True),
    Route("POST", _R + "/git/refs", create_ref, anonymous=False),
    Route("PATCH", _R + "/git/refs/{ref:path}", update_ref, anonymous=False),
    Route("DELETE", _R + "/git/refs/{ref:path}", delete_ref, anonymous=False),
]
