"""Labels: a repository's (``labels``, ``label``), an issue's or pull request's
(``Labelable.labels``), and the ``Label`` object itself (the store's records)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ghbench.emulator.graphql.resolvers.connections import paginate
from ghbench.emulator.graphql.resolvers.context import (
    Info,
    iso,
    repo_url_of,
    store_of,
)

if TYPE_CHECKING:
    from ghbench.emulator.state import Label, Repo

__all__ = ["LABEL_FIELDS", "item_labels", "repository_label", "repository_labels"]

# LabelOrderField -> sort key (GitHub: NAME, CREATED_AT)
_ORDER: dict[str, Callable[[Label], Any]] = {
    "NAME": lambda label: label.name.casefold(),
    "CREATED_AT": lambda label: (label.created_at, label.id),
}


def _ordered(labels: list[Label], order: dict[str, Any] | None) -> list[Label]:
    if not order:
        return labels
    return sorted(labels, key=_ORDER[order["field"]], reverse=order["direction"] == "DESC")


def repository_labels(repo: Repo, info: Info, **args: Any) -> Any:
    """``Repository.labels(query:, orderBy:)``; ``query`` matches names and
    descriptions (GitHub: "If provided, searches labels by name and description")."""
    labels = store_of(info).labels(repo)
    if args.get("query"):
        wanted = args["query"].casefold()
        labels = [
            label
            for label in labels
            if wanted in label.name.casefold() or wanted in (label.description or "").casefold()
        ]
    return paginate(_ordered(labels, args.get("orderBy")), **args)


def repository_label(repo: Repo, info: Info, name: str) -> Label | None:
    """GitHub matches label names case-insensitively; an unknown name is null."""
    return store_of(info).label(repo, name)


def item_labels(record: Any, info: Info, **args: Any) -> Any:
    """An issue's or pull request's labels, in the order they were added."""
    store = store_of(info)
    repo = store.repos[record.repo_id]
    labels = [found for name in record.labels if (found := store.label(repo, name))]
    return paginate(_ordered(labels, args.get("orderBy")), **args)


def _url(label: Label, info: Info) -> str:
    return f"{repo_url_of(info, label.repo_id)}/labels/{quote(label.name)}"


LABEL_FIELDS: dict[str, Any] = {
    "id": lambda label, _: label.node_id,
    "name": lambda label, _: label.name,
    "color": lambda label, _: label.color,
    "description": lambda label, _: label.description,
    "isDefault": lambda label, _: label.default,
    "createdAt": lambda label, _: iso(label.created_at),
    "updatedAt": lambda label, _: iso(label.updated_at),
    "url": _url,
}
