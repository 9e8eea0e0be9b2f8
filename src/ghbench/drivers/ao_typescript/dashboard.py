"""S6 for AO's TypeScript builds: AO's web dashboard read as a person reads it.

The reader loads the dashboard's index every ``refresh_s`` and, every ``click_s``,
clicks the next session's link (round-robin; the cadence every S6 reader shares,
``ghbench.drivers.common.readers``, so the drivers' S6 cells compare). It
makes no GitHub call itself: what S6 measures is what AO's dashboard server calls when
its pages are loaded (issue titles, PR enrichment). AO starts the dashboard with a copy
of its own environment (``buildDashboardEnv`` in AO's CLI), ``AO_GH_TRACE_FILE``
included, so those calls land in the cell's trace beside the poller's.

- With Chromium (``chromium`` on PATH, or the program ``$GHBENCH_CHROMIUM`` names), a
  headless browser (``ghbench.drivers.common.chromium``) loads the pages, runs
  their JavaScript and clicks the links, as a person would.
- Without it (or with ``GHBENCH_CHROMIUM=none``) the same pages are fetched with httpx,
  and the cell's notes say so: no JavaScript runs, so requests a browser page makes on
  its own (client-side refreshes) are missing.

The matrix tells the window's dashboard calls from lifecycle calls
(``ghbench.matrix.checks``).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urljoin, urlsplit

import httpx

from ghbench.drivers.base import DashboardView
from ghbench.drivers.common.chromium import Chromium, PageNavigated
from ghbench.drivers.common.readers import ReaderDashboard, ReaderThread
from ghbench.errors import GhbenchError, UsageError
from ghbench.tls import tls_context

__all__ = [
    "CHROMIUM_ENV",
    "AoDashboardReader",
    "ReaderChoice",
    "WebDashboard",
    "choose_reader",
]

CHROMIUM_ENV = "GHBENCH_CHROMIUM"
_LINK = re.compile(r"""href=["']([^"']*/sessions/[^"'?#/]+)["']""")


@dataclass(frozen=True)
class ReaderChoice:
    kind: Literal["chromium", "httpx"]
    executable: str | None = None
    why_not_chromium: str | None = None


def choose_reader(env: Mapping[str, str]) -> ReaderChoice:
    """Chromium when it is installed; httpx (with the reason) when it is not.

    ``$GHBENCH_CHROMIUM`` names the browser (``chromium-browser``, a path) or is
    ``none`` to read with httpx; a name given there that is not installed is an error.
    """
    wanted = env.get(CHROMIUM_ENV, "").strip()
    if wanted.lower() == "none":
        return ReaderChoice("httpx", why_not_chromium=f"{CHROMIUM_ENV}=none")
    found = shutil.which(wanted or "chromium", path=env.get("PATH"))
    if found is not None:
        return ReaderChoice("chromium", executable=found)
    if wanted:
        raise UsageError(
            f"{CHROMIUM_ENV}={wanted}: no such program; install chromium, point"
            f" {CHROMIUM_ENV} at the browser, or set it to none to read with httpx"
        )
    return ReaderChoice(
        "httpx", why_not_chromium="chromium is not installed (apt-get install chromium)"
    )


# -- AO's dashboard ------------------------------------------------------------------


def _session_of(path: str) -> str | None:
    parts = urlsplit(path).path.rstrip("/").split("/")
    return parts[-1] if len(parts) >= 2 and parts[-2] == "sessions" else None


class _HttpxPages:
    """The pages as plain HTTP fetches: the index, then each session link in it."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.client = httpx.Client(
            timeout=30.0, trust_env=False, follow_redirects=True, verify=tls_context()
        )
        self.links: dict[str, str] = {}

    def load_index(self) -> None:
        resp = self.client.get(self.base_url + "/")
        if resp.status_code >= 400:
            raise GhbenchError(f"S6: the dashboard's index answered HTTP {resp.status_code}")
        for href in _LINK.findall(resp.text):
            sid = _session_of(href)
            if sid is not None:
                self.links[sid] = urljoin(self.base_url + "/", href)

    def open_session(self, session_id: str) -> bool:
        """Fetch the session's linked page; without a link, try its address (noted)."""
        url = self.links.get(session_id)
        resp = self.client.get(url or f"{self.base_url}/sessions/{session_id}")
        if url is not None and resp.status_code >= 400:
            raise GhbenchError(
                f"S6: the dashboard's page for {session_id} answered HTTP {resp.status_code}"
            )
        return url is not None

    def close(self) -> None:
        self.client.close()


_IS_LOADED = "document.readyState === 'complete' && location.href.startsWith({base!r})"
_CLICK = """(() => {{
  const a = [...document.querySelectorAll('a[href]')].find(
    (a) => new URL(a.href, location.href).pathname.replace(/\\/$/, '').endsWith('/sessions/{sid}'));
  if (!a) return false;
  a.click();
  return true;
}})()"""
_ON_SESSION = (
    "document.readyState === 'complete' &&"
    " location.pathname.replace(/\\/$/, '').endsWith('/sessions/{sid}')"
)
_HAS_LINKS = "document.querySelectorAll('a[href*=\"/sessions/\"]').length > 0"


class _ChromiumPages:
    """The pages in a headless Chromium: load the index, click a session's link."""

    def __init__(self, base_url: str, executable: str, log_path: Path, wait_s: float) -> None:
        self.base_url, self.wait_s = base_url, wait_s
        self.backs = 0  # returns to the index with Back before a click
        self.browser = Chromium(executable, log_path)
        self.browser.start()
        self.page = self.browser.open_page()

    @property
    def version(self) -> str:
        return self.browser.version

    def load_index(self) -> None:
        self.browser.navigate(self.page, self.base_url + "/")
        loaded = _IS_LOADED.format(base=self.base_url)
        if not self.browser.wait_until(self.page, loaded, self.wait_s):
            raise GhbenchError(f"S6: the dashboard's index did not load within {self.wait_s:g} s")
        # a dashboard that renders its list in the browser shows links a moment later
        self.browser.wait_until(self.page, _HAS_LINKS, min(5.0, self.wait_s))

    def _on_index(self) -> bool:
        path = urlsplit(self.base_url + "/").path
        expr = f"location.pathname === {path!r} && " + _IS_LOADED.format(base=self.base_url)
        try:
            return bool(self.browser.evaluate(self.page, expr))
        except PageNavigated:  # asked mid-navigation: ask the new document once it loads
            self.browser.wait_until(self.page, "document.readyState === 'complete'", self.wait_s)
            return self.browser.wait_until(self.page, expr, 0.0)

    def open_session(self, session_id: str) -> bool:
        if not self._on_index():
            self.backs += 1
            self.browser.run(self.page, "history.back()")
            path = urlsplit(self.base_url + "/").path
            back = f"location.pathname === {path!r} && document.readyState === 'complete'"
            if not self.browser.wait_until(self.page, back, self.wait_s):
                self.load_index()
        try:
            clicked = bool(self.browser.evaluate(self.page, _CLICK.format(sid=session_id)))
        except PageNavigated:  # the click's own navigation ended the call
            clicked = True
        if not clicked:  # no link to click: open the page by its address
            self.browser.navigate(self.page, f"{self.base_url}/sessions/{session_id}")
        if not self.browser.wait_until(self.page, _ON_SESSION.format(sid=session_id), self.wait_s):
            raise GhbenchError(
                f"S6: the dashboard's page for {session_id} did not load within {self.wait_s:g} s"
            )
        return clicked

    def close(self) -> None:
        self.browser.close()


@dataclass
class _Counts:
    index_loads: int = 0
    session_pages: int = 0
    clicked: int = 0
    not_linked: set[str] = field(default_factory=set)


class AoDashboardReader(ReaderThread):
    """Reads AO's dashboard for the window in its own thread; ``stop`` ends it."""

    thread_name = "ghbench-ao-dashboard"
    join_s = 120.0  # a browser page may still be loading

    def __init__(
        self,
        base_url: str,
        session_ids: Sequence[str],
        choice: ReaderChoice,
        *,
        log_path: Path,
        refresh_s: float = 30.0,
        click_s: float = 10.0,
        startup_timeout: float = 60.0,
    ) -> None:
        super().__init__(refresh_s, click_s)
        self.base_url = base_url.rstrip("/")
        self.session_ids = tuple(session_ids)
        self.choice, self.log_path = choice, log_path
        self.startup_timeout = startup_timeout
        self.counts = _Counts()
        self.version = ""
        self._browser_pages: _ChromiumPages | None = None

    def _pages(self) -> _ChromiumPages | _HttpxPages:
        if self.choice.kind == "chromium" and self.choice.executable is not None:
            pages = _ChromiumPages(self.base_url, self.choice.executable, self.log_path, 30.0)
            self.version = pages.version
            self._browser_pages = pages
            return pages
        return _HttpxPages(self.base_url)

    def _first_index(self, pages: _ChromiumPages | _HttpxPages) -> None:
        """The first load waits for the dashboard to come up (AO starts it in the background)."""
        deadline = time.monotonic() + self.startup_timeout
        while True:
            try:
                pages.load_index()
                return
            except (httpx.TransportError, GhbenchError):
                if self._stop.is_set() or time.monotonic() >= deadline:
                    raise
            self._stop.wait(0.2)

    def _read(self) -> None:
        pages = self._pages()

        def refresh() -> None:
            pages.load_index()
            self.counts.index_loads += 1

        def click(i: int) -> None:
            sid = self.session_ids[i]
            if pages.open_session(sid):
                self.counts.clicked += 1
            else:
                self.counts.not_linked.add(sid)
            self.counts.session_pages += 1

        try:
            self._first_index(pages)
            self.counts.index_loads += 1
            self._cadence(refresh, click, len(self.session_ids), refreshed=True)
        finally:
            with contextlib.suppress(Exception):
                pages.close()

    def notes(self) -> list[str]:
        c = self.counts
        cadence = f"index every {self.refresh_s:g} s, a session every {self.click_s:g} s"
        if self.choice.kind == "chromium":
            browser = self.version or "headless Chromium"
            backs = self._browser_pages.backs if self._browser_pages is not None else 0
            out = [
                f"S6: {browser} read AO's dashboard ({cadence}): {c.index_loads} index"
                f" loads and {backs} returns to it with Back, {c.session_pages} session"
                f" pages ({c.clicked} by clicking a link)"
            ]
        else:
            out = [
                f"S6: {self.choice.why_not_chromium}; AO's dashboard pages were fetched with"
                " httpx instead (no JavaScript runs: requests a browser page makes on its"
                f" own are missing) ({cadence}): {c.index_loads} index loads,"
                f" {c.session_pages} session pages"
            ]
        if c.not_linked:
            missing = ", ".join(sorted(c.not_linked))
            out.append(f"S6: the index had no link to {missing}; opened by address instead")
        return out


class WebDashboard(ReaderDashboard):
    """AO's dashboard read for one window. At the window's end, AO still running with
    its dashboard up, nothing it listens on may be reachable from the network:
    ``listeners`` returns where it listens, all on loopback, or raises naming the others."""

    def __init__(
        self,
        url: str,
        view: DashboardView,
        listeners: Callable[[], Sequence[tuple[str, int]]],
    ) -> None:
        self.ao_reader = AoDashboardReader(
            url,
            [s.session_id for s in view.sessions],
            choose_reader(view.env),
            log_path=view.log_path,
            refresh_s=view.refresh_s,
            click_s=view.click_s,
        )
        super().__init__(self.ao_reader)
        self.listeners = listeners

    def _at_window_end(self) -> list[str]:
        found = {f"{address}:{port}" for address, port in self.listeners()}
        return [f"S6: AO listened on {', '.join(sorted(found)) or 'nothing'} (loopback only)"]

    def _notes(self) -> list[str]:
        return self.ao_reader.notes()
