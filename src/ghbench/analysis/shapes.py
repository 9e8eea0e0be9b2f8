"""Endpoint shapes and operation bucket quality: label-level rules, applied per label.

A shape is an endpoint with its variable parts named: ``repos/{owner}/{repo}/pulls/{n}/
comments?per_page``. Query values are dropped (their keys stay), 40-hex commit ids become
``{sha}`` and numeric path segments ``{n}``. These functions run once per distinct label,
never per row.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["BucketKind", "bucket_kind", "endpoint_shape"]

BucketKind = Literal["explicit", "derived", "generic", "missing"]

_SHA = re.compile(r"[0-9a-fA-F]{40}")

# AO names these calls itself (gh-trace.ts ``operation:``), so each bucket is one call site.
_EXPLICIT = frozenset(
    {
        "gh.api.guard-pr-list",
        "gh.api.guard-commit-status",
        "gh.api.guard-review-comments",
        "gh.api.graphql-batch",
        "gh.api.guard-pr-resource",
        "gh.api.head-commit",
    }
)
# extractOperation's catch-alls: one bucket hides many unrelated endpoints.
_GENERIC = frozenset({"gh", "gh.api", "gh.api.repos", "gh.api.--method"})


def bucket_kind(operation: str | None) -> BucketKind:
    """How well an operation name identifies one call site.

    ``explicit``: named by AO; ``derived``: derived from a specific subcommand
    (``gh.pr.list``); ``generic``: a catch-all such as ``gh.api.repos`` or the
    pre-fix ``gh.api.--method``; ``missing``: no operation at all.
    """
    if not operation:
        return "missing"
    if operation in _EXPLICIT:
        return "explicit"
    if operation in _GENERIC or operation.startswith("gh.api.-"):
        return "generic"
    return "derived"


def endpoint_shape(endpoint: str | None) -> str:
    """The endpoint with owner, repo, numbers, commit ids and query values abstracted."""
    if not endpoint:
        return "(no endpoint)"
    path, _, query = endpoint.partition("?")
    parts = path.strip("/").split("/")
    if parts[0] == "repos" and len(parts) >= 3:
        parts[1], parts[2] = "{owner}", "{repo}"
    for i, p in enumerate(parts):
        if p.isdigit():
            parts[i] = "{n}"
        elif _SHA.fullmatch(p):
            parts[i] = "{sha}"
    shape = "/".join(parts)
    if query:
        keys = sorted({kv.split("=", 1)[0] for kv in query.split("&") if kv})
        shape += "?" + "&".join(keys)
    return shape
