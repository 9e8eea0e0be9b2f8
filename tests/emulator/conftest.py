"""Emulator test fixtures: httpx clients over the in-process core (no socket).

tests/emulator is a package (its test modules mirror ``ghbench.emulator``'s, and two
``test_issues.py`` must not collide), so its helpers (``emu_helpers`` and the rest,
imported by their bare names) are put on the import path here, after what is
installed. scripts/ is too: the tooling the conformance tests share with the
scripts that generate docs (``emulator_coverage``, ``graphql_subset``) lives there,
out of the package.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport

from .emu_helpers import API, TOKEN, ClientFactory
from .search_helpers import build_world

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
HERE = Path(__file__).resolve().parent  # the helpers (emu_helpers, gh_helpers, ...)
# appended, not put first: the test package graphql/ here must not hide graphql-core
for _path in (SCRIPTS, HERE):
    if str(_path) not in sys.path:
        sys.path.append(str(_path))


@pytest.fixture
def make_client(emulator: Emulator) -> Iterator[ClientFactory]:
    """``make_client(token=TOKEN, address="127.0.0.1")``: a sync httpx client, in-process;
    it also sends the emulator's control key, so it may use the control API."""
    made: list[httpx.Client] = []

    def make(token: str | None = TOKEN, address: str = "127.0.0.1") -> httpx.Client:
        headers = {CONTROL_KEY_HEADER: emulator.control_key}
        if token:
            headers["Authorization"] = f"token {token}"
        c = httpx.Client(
            transport=EmulatorTransport(emulator, client_address=address),
            base_url=API,
            headers=headers,
        )
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


@pytest.fixture
def api(make_client: ClientFactory) -> httpx.Client:
    """A client authenticated as ``octo``."""
    return make_client()


@pytest.fixture
def search_world(emulator: Emulator) -> Emulator:
    """The emulator filled with what the search tests query (``search_helpers``)."""
    return build_world(emulator)
