"""ghbench.drivers.common.chromium: a headless Chromium driven over its DevTools pipe
against a real local HTTP server: it loads, evaluates and clicks, fails JavaScript and
other hosts loudly, and leaves no process or profile behind."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ghbench.drivers.common.chromium import Chromium, ChromiumError, PageNavigated
from ghbench.proctable import group_alive


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


def _reloads_once(key: str) -> str:
    """JavaScript that reloads the page and never answers the first time it runs, and is
    true in the reloaded page (sessionStorage outlives the reload)."""
    return (
        f"sessionStorage.getItem({key!r}) === 'seen' ||"
        f" (sessionStorage.setItem({key!r}, 'seen'), location.reload(), new Promise(() => {{}}))"
    )


@pytest.mark.slow
@pytest.mark.needs("chromium")
def test_a_page_that_navigates_mid_call(site: tuple[str, list[str]], tmp_path: Path) -> None:
    """A call whose document goes away is PageNavigated; a poll asks the new document
    again; an action's own navigation is no error (AO's dashboard reloads its pages)."""
    url, served = site
    browser = Chromium("chromium", tmp_path / "chromium.log", timeout=20.0)
    browser.start()
    try:
        page = browser.open_page()
        browser.navigate(page, url + "/")
        assert browser.wait_until(page, "document.readyState === 'complete'", 10.0)
        with pytest.raises(PageNavigated, match=r"^Runtime\.evaluate: "):
            browser.evaluate(page, _reloads_once("evaluated"))
        assert browser.wait_until(page, _reloads_once("polled"), 10.0)
        browser.run(page, "location.assign('/sessions/a-1'); new Promise(() => {})")
        assert browser.wait_until(page, "location.pathname === '/sessions/a-1'", 10.0)
    finally:
        browser.close()
    assert served.count("/") == 3 and served[-1] == "/sessions/a-1"
