"""A repository's metadata beyond its issues and pull requests (``gh repo view
--json`` asks for all of it).

What the emulator does not model answers as a new repository on GitHub does: no
stars, forks, watchers, topics, languages, releases, milestones, projects, license,
code of conduct, templates or funding links; not a fork, mirror, template or archive.
The viewer may administer every repository (no permissions model), and is not
watching it (REST's ``subscribers_count`` is 0 too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ghbench.emulator.graphql.resolvers.connections import paginate
from ghbench.emulator.graphql.resolvers.context import Info, context_of, iso
from ghbench.emulator.graphql.resolvers.people import assignable_users

if TYPE_CHECKING:
    from ghbench.emulator.state import Repo

__all__ = ["CONNECTION_EXTRA_FIELDS", "REPOSITORY_INFO_FIELDS"]


def _none(*_: Any, **__: Any) -> None:
    return None


def _nothing(*_: Any, **args: Any) -> Any:
    return paginate([], **args)


def _ssh_url(repo: Repo, info: Info) -> str:
    host = urlsplit(context_of(info).web_url).hostname or "github.com"
    return f"git@{host}:{repo.full_name}.git"


def _commit_email(repo: Repo, info: Info) -> str:
    viewer = context_of(info).viewer
    return viewer.email or f"{viewer.id}+{viewer.login}@users.noreply.github.com"


REPOSITORY_INFO_FIELDS: dict[str, Any] = {
    "allowUpdateBranch": lambda r, _: False,
    "archivedAt": _none,
    "assignableUsers": assignable_users,
    "mentionableUsers": assignable_users,
    "autoMergeAllowed": lambda r, _: r.allow_auto_merge,
    "codeOfConduct": _none,
    "contactLinks": lambda r, _: [],
    "diskUsage": lambda r, _: 1,  # kilobytes; REST's size
    "forkCount": lambda r, _: 0,
    "fundingLinks": lambda r, _: [],
    "hasDiscussionsEnabled": lambda r, _: False,
    "homepageUrl": _none,
    "isBlankIssuesEnabled": lambda r, _: True,
    "isDisabled": lambda r, _: False,
    "isEmpty": lambda r, _: False,  # every repository starts with a commit
    "isLocked": lambda r, _: False,
    "isMirror": lambda r, _: False,
    "isSecurityPolicyEnabled": lambda r, _: False,
    "isTemplate": lambda r, _: False,
    "isUserConfigurationRepository": lambda r, _: r.name.lower() == r.owner_login.lower(),
    "issueTemplates": lambda r, _: [],
    "languages": _nothing,
    "latestRelease": _none,
    "licenseInfo": _none,
    "milestones": _nothing,
    "mirrorUrl": _none,
    "openGraphImageUrl": lambda r, _: f"https://opengraph.githubassets.com/0/{r.full_name}",
    "primaryLanguage": _none,
    "projects": _nothing,
    "projectsV2": _nothing,
    "pullRequestTemplates": lambda r, _: [],
    "releases": _nothing,
    "repositoryTopics": _nothing,
    "resourcePath": lambda r, _: f"/{r.full_name}",
    "securityPolicyUrl": _none,
    "sshUrl": _ssh_url,
    "stargazerCount": lambda r, _: 0,
    "templateRepository": _none,
    "usesCustomOpenGraphImage": lambda r, _: False,
    "viewerCanAdminister": lambda r, _: True,
    "viewerDefaultCommitEmail": _commit_email,
    "viewerHasStarred": lambda r, _: False,
    "viewerPossibleCommitEmails": lambda r, info: [_commit_email(r, info)],
    "viewerSubscription": lambda r, _: "UNSUBSCRIBED",
    "visibility": lambda r, _: "PRIVATE" if r.private else "PUBLIC",
    "watchers": _nothing,
    "webCommitSignoffRequired": lambda r, _: False,
    "createdAt": lambda r, _: iso(r.created_at),
}

# Aggregates on connection types beyond totalCount.
CONNECTION_EXTRA_FIELDS: dict[str, dict[str, Any]] = {
    "RepositoryConnection": {"totalDiskUsage": lambda page, _: len(page.all_items)},
    "LanguageConnection": {"totalSize": lambda page, _: 0},
}
