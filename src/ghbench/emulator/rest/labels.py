"""Labels: a repository's (create, read, rename, recolour, delete) and those of an
issue or pull request (``/issues/{n}/labels`` works on pull requests, as on GitHub).

Naming a label an issue does not have yet creates it (GitHub's Issues API does the
same); names compare case-insensitively. See ``state/labels.py``.
"""

from __future__ import annotations

import re
from typing import Any

from ghbench.emulator.errors import NotFound, ValidationFailed, invalid_field
from ghbench.emulator.rest.common import body_field, issue_or_pull, paginate, repo_of, viewer
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import Issue, PullRequest, Repo

__all__ = ["ROUTES"]

_COLOR = re.compile(r"[0-9a-fA-F]{6}")


def _color(call: Call, required: bool) -> str | None:
    value = body_field(call, "Label", "color", str, default="") or None
    if value is None:
        if required:
            return "ededed"
        return None
    value = value.removeprefix("#")
    if not _COLOR.fullmatch(value):
        raise invalid_field("Label", "color")
    return value


def list_labels(call: Call) -> Reply:
    """In creation order; pages of 30."""
    repo = repo_of(call)
    page, headers = paginate(call, call.store.labels(repo))
    return Reply([call.render.label(repo, label) for label in page], headers=headers)


def create_label(call: Call) -> Reply:
    """`name`, `color` (six hex digits, `#` optional; `ededed` by default),
    `description`; 422 `already_exists` for a name taken (case-insensitively)."""
    repo = repo_of(call)
    viewer(call)
    name = body_field(call, "Label", "name", str)
    if not name.strip():
        raise invalid_field("Label", "name")
    label = call.store.create_label(
        repo,
        name,
        color=_color(call, required=True) or "ededed",
        description=body_field(call, "Label", "description", str, default="") or None,
    )
    return Reply(call.render.label(repo, label), status=201)


def get_label(call: Call) -> Reply:
    """By name, case-insensitively."""
    repo = repo_of(call)
    return Reply(call.render.label(repo, call.store.get_label(repo, call.params["name"])))


def update_label(call: Call) -> Reply:
    """`new_name` (carried over to every issue and pull request), `color`,
    `description`."""
    repo = repo_of(call)
    viewer(call)
    label = call.store.get_label(repo, call.params["name"])
    call.store.update_label(
        label,
        new_name=body_field(call, "Label", "new_name", str, default="") or None,
        color=_color(call, required=False),
        description=body_field(call, "Label", "description", str, default="") or None,
    )
    return Reply(call.render.label(repo, label))


def delete_label(call: Call) -> Reply:
    """Also removes it from every issue and pull request."""
    repo = repo_of(call)
    viewer(call)
    call.store.delete_label(call.store.get_label(repo, call.params["name"]))
    return Reply(None, status=204)


def _names(call: Call) -> list[str]:
    """The body's label names: ``{"labels": [...]}``, a bare array, or objects with a
    ``name`` (GitHub accepts all three)."""
    body: Any = call.body
    if isinstance(body, dict):
        body = body.get("labels")
    if body is None:
        return []
    if not isinstance(body, list):
        raise invalid_field("Label", "labels")
    names = [str(x.get("name", "")) if isinstance(x, dict) else str(x) for x in body]
    if any(not name.strip() for name in names):
        raise ValidationFailed(errors=[{"resource": "Label", "code": "invalid", "field": "name"}])
    return names


def _item_labels(call: Call, repo: Repo, item: Issue | PullRequest) -> Reply:
    return Reply(call.render.labels(call.store, repo, item.labels))


def list_item_labels(call: Call) -> Reply:
    """An issue's or pull request's labels."""
    repo, item = issue_or_pull(call)
    return _item_labels(call, repo, item)


def add_item_labels(call: Call) -> Reply:
    """Adds to the labels it has (missing labels are created)."""
    repo, item = issue_or_pull(call)
    viewer(call)
    call.store.set_labels(item, [*item.labels, *_names(call)])
    return _item_labels(call, repo, item)


def set_item_labels(call: Call) -> Reply:
    """Replaces its labels."""
    repo, item = issue_or_pull(call)
    viewer(call)
    call.store.set_labels(item, _names(call))
    return _item_labels(call, repo, item)


def clear_item_labels(call: Call) -> Reply:
    """Removes all its labels."""
    _, item = issue_or_pull(call)
    viewer(call)
    call.store.set_labels(item, [])
    return Reply(None, status=204)


def remove_item_label(call: Call) -> Reply:
    """Answers the labels left; 404 "Label does not exist" when it does not carry it."""
    repo, item = issue_or_pull(call)
    viewer(call)
    wanted = call.params["name"].casefold()
    if not any(name.casefold() == wanted for name in item.labels):
        raise NotFound("Label does not exist")
    call.store.set_labels(item, [n for n in item.labels if n.casefold() != wanted])
    return _item_labels(call, repo, item)


_L = "/repos/{owner}/{repo}/labels"
_IL = "/repos/{owner}/{repo}/issues/{number}/labels"
ROUTES = [
    Route("GET", _L, list_labels, etag=True),
    Route("POST", _L, create_label, anonymous=False),
    Route("GET", _L + "/{name}", get_label, etag=True),
    Route("PATCH", _L + "/{name}", update_label, anonymous=False),
    Route("DELETE", _L + "/{name}", delete_label, anonymous=False),
    Route("GET", _IL, list_item_labels, etag=True),
    Route("POST", _IL, add_item_labels, anonymous=False),
    Route("PUT", _IL, set_item_labels, anonymous=False),
    Route("DELETE", _IL, clear_item_labels, anonymous=False),
    Route("DELETE", _IL + "/{name}", remove_item_label, anonymous=False),
]
