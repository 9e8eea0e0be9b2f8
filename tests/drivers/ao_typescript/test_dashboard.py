"""S6 for AO's TypeScript builds: the reader choice. (AO's cell config:
tests/drivers/ao_typescript/test_cell.py; the headless Chromium:
tests/drivers/common/test_chromium.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.drivers.ao_typescript.dashboard import choose_reader
from ghbench.errors import UsageError


def _executable(directory: Path, name: str) -> Path:
    path = directory / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def test_reader_is_chromium_when_installed_else_httpx_with_the_reason(tmp_path: Path) -> None:
    found = _executable(tmp_path, "chromium")
    choice = choose_reader({"PATH": str(tmp_path)})
    assert (choice.kind, choice.executable) == ("chromium", str(found))
    empty = tmp_path / "empty"
    empty.mkdir()
    fallback = choose_reader({"PATH": str(empty)})
    assert fallback.kind == "httpx" and fallback.executable is None
    assert fallback.why_not_chromium == "chromium is not installed (apt-get install chromium)"


def test_ghbench_chromium_names_the_browser_or_turns_it_off(tmp_path: Path) -> None:
    other = _executable(tmp_path, "chromium-browser")
    env = {"PATH": str(tmp_path), "GHBENCH_CHROMIUM": "chromium-browser"}
    assert choose_reader(env).executable == str(other)
    off = choose_reader({"PATH": str(tmp_path), "GHBENCH_CHROMIUM": "none"})
    assert (off.kind, off.why_not_chromium) == ("httpx", "GHBENCH_CHROMIUM=none")
    with pytest.raises(UsageError, match=r"^GHBENCH_CHROMIUM=google-chrome: no such program"):
        choose_reader({"PATH": str(tmp_path), "GHBENCH_CHROMIUM": "google-chrome"})
