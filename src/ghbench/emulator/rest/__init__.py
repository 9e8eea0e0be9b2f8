"""REST endpoints: one module per resource, each exporting a ``ROUTES`` table."""

from __future__ import annotations

from ghbench.emulator.rest import (
    account,
    actions,
    comments,
    commits,
    contents,
    events,
    gitdata,
    history,
    issues,
    labels,
    people,
    protection,
    pulls,
    reactions,
    repos,
    search,
)
from ghbench.emulator.rest.routing import Route

__all__ = ["ROUTES"]

ROUTES: list[Route] = [
    *repos.ROUTES,
    *pulls.ROUTES,
    *issues.ROUTES,
    *commits.ROUTES,
    *contents.ROUTES,
    *history.ROUTES,
    *search.ROUTES,
    *labels.ROUTES,
    *people.ROUTES,
    *account.ROUTES,
    *actions.ROUTES,
    *protection.ROUTES,
    *events.ROUTES,
    *comments.ROUTES,
    *reactions.ROUTES,
    *gitdata.ROUTES,
]
