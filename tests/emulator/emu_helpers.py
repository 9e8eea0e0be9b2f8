"""Helpers for the emulator tests (a unique module name: never shadowed by a conftest)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import httpx

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest
from ghbench.emulator.state import MemoryDatabase, Repo, Store, User

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


def graphql(emulator: Emulator, query: str, token: str = TOKEN, **variables: Any) -> Any:
    """``POST /graphql`` to ``emulator`` in-process (as octo by default): the body."""
    body = json.dumps({"query": query, "variables": variables}).encode()
    request = EmuRequest.build("POST", f"{API}/graphql", {"Authorization": f"token {token}"}, body)
    return emulator.handle(request).json()


def new_store(seed: int = 1) -> Store:
    """A store in memory on a virtual clock, with no records."""
    return Store(MemoryDatabase(), VirtualClock(), random.Random(seed))


def store_with_repo() -> tuple[Store, Repo, User, str]:
    """A new store with ``acme/todo``, the user ``octo`` and ``main``'s one commit."""
    store = new_store()
    repo = store.create_repo("acme", "todo")
    sha = store.branch_sha(repo, "main")
    assert sha is not None
    return store, repo, store.ensure_user("octo"), sha


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
