"""S6 for AO's TypeScript builds: the reader choice, AO's cell config, and the headless
Chromium against a real local HTTP server."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

from ghbench.drivers.ao_typescript.cell import orchestrator_config
from ghbench.drivers.ao_typescript.dashboard import choose_reader
from ghbench.errors import UsageError
from ghbench.proctable import group_alive


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


def test_cell_config_gives_every_project_its_own_prefix_and_path() -> None:
    raw = orchestrator_config(["o/app", "p/app.js"], PurePosixPath("/w/checkouts"), port=4123)
    assert raw == {
        "projects": {
            "o-app": {
                "repo": "o/app",
                "path": "/w/checkouts/o-app",
                "defaultBranch": "main",
                "sessionPrefix": "r1",
            },
            "p-app-js": {
                "repo": "p/app.js",
                "path": "/w/checkouts/p-app-js",
                "defaultBranch": "main",
                "sessionPrefix": "r2",
            },
        },
        "port": 4123,
    }
    assert "port" not in orchestrator_config(["o/app"], PurePosixPath("/w"))


@pytest.fixture
def site() -> Iterator[tuple[str, list[str]]]:
    """A two-page site on loopback that records the paths it served."""
    served: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served.append(self.path)
            if self.path == "/":
                body = b'<a href="/sessions/a-1">a-1</a>'
            elif self.path == "/sessions/a-1":
                body = b'<a href="/">back</a> session a-1'
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", served
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
@pytest.mark.needs("chromium")
def test_chromium_loads_and_clicks_then_leaves_nothing_behind(
    site: tuple[str, list[str]], tmp_path: Path
) -> None:
    from ghbench.drivers.common.chromium import Chromium, ChromiumError

    url, served = site
    browser = Chromium("chromium", tmp_path / "chromium.log", timeout=20.0)
    browser.start()
    try:
        assert browser.version.startswith("Chrome/")
        page = browser.open_page()
        browser.navigate(page, url + "/")
        assert browser.wait_until(page, "document.readyState === 'complete'", 10.0)
        assert browser.evaluate(page, "document.querySelector('a').textContent") == "a-1"
        browser.evaluate(page, "document.querySelector('a').click()")
        assert browser.wait_until(page, "location.pathname === '/sessions/a-1'", 10.0)
        with pytest.raises(ChromiumError, match="JavaScript failed"):
            browser.evaluate(page, "no_such_name.x")
        # nothing but loopback leaves Chromium: other hosts go to a dead proxy, unresolved
        with pytest.raises(ChromiumError, match="ERR_PROXY_CONNECTION_FAILED"):
            browser.navigate(page, "http://ghbench.invalid/")
        pid = browser._proc.pid if browser._proc is not None else 0
        profile = browser._profile
    finally:
        browser.close()
    assert served[0] == "/" and "/sessions/a-1" in served
    assert not group_alive(pid)
    assert profile is not None and not profile.exists()
