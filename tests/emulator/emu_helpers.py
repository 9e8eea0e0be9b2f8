"""Helpers for the emulator tests (a unique module name: never shadowed by a conftest)."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.state import Repo, Store, User

API = "http://api.github.localhost"
TOKEN = "ghp_test0000000000000000000000000000000001"  # the root conftest's TEST_TOKEN

ClientFactory = Callable[..., httpx.Client]


def new_emulator(**kwargs: object) -> Emulator:
    """Like the ``emulator`` fixture: virtual clock, seed 1234, octo + acme/todo."""
    kwargs.setdefault("clock", VirtualClock())
    kwargs.setdefault("seed", 1234)
    emulator = Emulator(**kwargs)  # type: ignore[arg-type]
    emulator.create_user("octo", [TOKEN])
    emulator.create_repo("acme/todo")
    return emulator


def remaining(response: httpx.Response) -> int:
    return int(response.headers["x-ratelimit-remaining"])


def repo_named(store: Store, name: str = "todo", owner: str = "acme") -> Repo:
    """The store's ``owner/name`` (it must exist)."""
    repo = store.repo(owner, name)
    assert repo is not None, f"no repository {owner}/{name}"
    return repo


def user_named(store: Store, login: str) -> User:
    """The store's user ``login`` (it must exist)."""
    user = store.user(login)
    assert user is not None, f"no user {login}"
    return user
