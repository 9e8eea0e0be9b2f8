"""S6 with ``--driver ao``: a reader of AO's dashboard, and the dashboard/lifecycle split.

The reader loads the dashboard's index every ``refresh_s`` and, every ``click_s``, clicks
the next session's link (round-robin; the cadence of the workload model's reader, so
the two drivers' S6 cells compare). It makes no GitHub call itself: what S6 measures is
what AO's dashboard server calls when its pages are loaded (issue titles, PR
enrichment). AO starts the dashboard with a copy of its own environment
(``buildDashboardEnv`` in AO's CLI), ``AO_GH_TRACE_FILE`` included, so those calls land
in the cell's trace beside the poller's.

- With Chromium (``chromium`` on PATH, or the program ``$GHBENCH_CHROMIUM`` names), a
  headless browser (``ghbench.matrix.chromium``) loads the pages, runs their JavaScript
  and clicks the links, as a person would.
- Without it (or with ``GHBENCH_CHROMIUM=none``) the same pages are fetched with httpx,
  and the cell's notes say so: no JavaScript runs, so requests a browser page makes on
  its own (client-side refreshes) are missing.

Both S6 readers, this one and the workload model's (``ghbench.matrix.triggers``), run
in a ``ReaderThread`` and keep the same cadence (``ReaderThread._cadence``).

Telling dashboard calls from lifecycle calls (``split_dashboard_traffic``, pure): the
workload model's reader traces as component ``dashboard``. AO traces its dashboard's
calls under the plugins' components (``tracker-github``, ``scm-github``), so they are
told apart by shape (AO reference §1, §5, §9): AO's poller never runs ``gh issue view``
(only spawn, cleanup and the dashboard do, and neither spawn nor cleanup happens in
an S6 window) nor ``gh pr checks`` (it reads CI from its batch query and Guard 2;
``ao status``, never run in a window, is the other caller), and its only ``gh pr view``
asks ``--json state``; a ``gh pr view`` asking for other fields is the dashboard's
enrichment. A limit: the enrichment's review-thread query is the poller's query too,
so those rows count as lifecycle, and the dashboard's share is a lower bound.
"""

from __future__ import annotations

import contextlib
import math
import re
import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import urljoin, urlsplit

import httpx

from ghbench.errors import GhbenchError, UsageError
from ghbench.matrix.chromium import Chromium
from ghbench.timefmt import parse_iso
from ghbench.tls import tls_context
from ghbench.workload.calls import DASHBOARD_COMPONENT

__all__ = [
    "CHROMIUM_ENV",
    "AoDashboardReader",
    "ReaderChoice",
    "ReaderThread",
    "TrafficSplit",
    "choose_reader",
    "is_dashboard_row",
    "split_dashboard_traffic",
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


# -- the split (pure) --------------------------------------------------------------


def _json_fields(args: Sequence[Any]) -> set[str]:
    for i, arg in enumerate(args[:-1]):
        if arg == "--json":
            return {f.strip() for f in str(args[i + 1]).split(",") if f.strip()}
    return set()


def is_dashboard_row(row: Mapping[str, Any]) -> bool:
    """Whether a trace row is a dashboard's call (see the module docstring for the rule)."""
    if row.get("component") == DASHBOARD_COMPONENT:
        return True
    operation = row.get("operation")
    if operation in ("gh.issue.view", "gh.pr.checks"):
        return True
    if operation == "gh.pr.view":
        args = row.get("args")
        return isinstance(args, list) and _json_fields(args) != {"state"}
    return False


@dataclass(frozen=True)
class TrafficSplit:
    """A window's rows: the dashboard's and the rest (the lifecycle poller's)."""

    dashboard: int
    lifecycle: int
    dashboard_operations: Mapping[str, int] = field(default_factory=dict)

    def note(self) -> str:
        ops = ", ".join(f"{n} {op}" for op, n in sorted(self.dashboard_operations.items()))
        detail = f" ({ops})" if ops else ""
        return (
            f"S6: in the window, {self.dashboard} dashboard calls{detail} and"
            f" {self.lifecycle} lifecycle calls"
        )


def _timestamp_ms(row: Mapping[str, Any]) -> int | None:
    value = row.get("timestamp")
    if not isinstance(value, str):
        return None
    try:
        return round(parse_iso(value) * 1000)
    except ValueError:
        return None


def split_dashboard_traffic(
    rows: Iterable[Mapping[str, Any]], start_ms: int, end_ms: int
) -> TrafficSplit:
    """Count the rows completed in ``[start_ms, end_ms]`` as dashboard or lifecycle calls.

    Milliseconds, as the scorecard's window is kept, so a row on the window's edge
    counts here exactly when it counts in the scorecard.
    """
    dashboard: Counter[str] = Counter()
    lifecycle = 0
    for row in rows:
        at = _timestamp_ms(row)
        if at is None or not start_ms <= at <= end_ms:
            continue
        if is_dashboard_row(row):
            dashboard[str(row.get("operation"))] += 1
        else:
            lifecycle += 1
    return TrafficSplit(sum(dashboard.values()), lifecycle, dict(dashboard))


# -- the readers' thread and cadence -----------------------------------------------


class StopSignal(Protocol):
    """What the cadence needs of its stop flag (a ``threading.Event``; tests fake it)."""

    def set(self) -> None: ...
    def is_set(self) -> bool: ...
    def wait(self, timeout: float | None = None) -> bool: ...


class ReaderThread:
    """An S6 reader in its own thread: ``start``, ``stop`` (sets the flag, joins), and
    ``error``, what ended it early (the cell fails with it; never lost silently)."""

    thread_name = "ghbench-dashboard"
    join_s = 60.0

    def __init__(self, refresh_s: float, click_s: float) -> None:
        self.refresh_s, self.click_s = refresh_s, click_s
        self.error: str | None = None
        self._stop: StopSignal = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.join_s)
            self._thread = None

    def _run(self) -> None:
        try:
            self._read()
        except Exception as exc:  # reported in the cell's notes, never lost silently
            self.error = f"{type(exc).__name__}: {exc}"

    def _read(self) -> None:
        raise NotImplementedError

    def _cadence(
        self,
        refresh: Callable[[], None],
        click: Callable[[int], None],
        items: int,
        *,
        now: Callable[[], float] = time.monotonic,
        refreshed: bool = False,
    ) -> None:
        """Until stopped: ``refresh()`` every ``refresh_s`` (at once, unless the caller
        just did), and ``click(i)`` every ``click_s`` for the next of ``items``,
        round-robin from 0, the first at once; both intervals run from when the last
        one started, as a person rereading a page would."""
        start = now()
        next_refresh = start + self.refresh_s if refreshed else start
        next_click = start if items else math.inf  # nothing to click: wait for refreshes
        clicks = 0
        while not self._stop.is_set():
            at = now()
            if at >= next_refresh:
                refresh()
                next_refresh = at + self.refresh_s
            if at >= next_click and items:
                click(clicks % items)
                clicks += 1
                next_click = at + self.click_s
            self._stop.wait(max(0.05, min(next_refresh, next_click) - now()))


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
        return bool(self.browser.evaluate(self.page, expr))

    def open_session(self, session_id: str) -> bool:
        if not self._on_index():
            self.backs += 1
            self.browser.evaluate(self.page, "history.back()")
            path = urlsplit(self.base_url + "/").path
            back = f"location.pathname === {path!r} && document.readyState === 'complete'"
            if not self.browser.wait_until(self.page, back, self.wait_s):
                self.load_index()
        clicked = bool(self.browser.evaluate(self.page, _CLICK.format(sid=session_id)))
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
