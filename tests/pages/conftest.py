"""The pages' tests: Debian's Chromium (missing: a skip, or a failure under CI=true)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tooling.pagebrowser import PageBrowser

from tools import require_tool


@pytest.fixture(scope="session")
def browser() -> Iterator[PageBrowser]:
    """One headless Chromium per test process, a fresh tab per page."""
    with PageBrowser(require_tool("chromium")) as b:
        yield b
