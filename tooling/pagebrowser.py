"""A page as Chromium shows it: its DOM, every request it made, whether it fits, a picture.

The tests (tests/pages) and the screenshot script (scripts/page_screenshots.py) open
ghbench's HTML pages in Debian's headless Chromium over its DevTools pipe
(``ghbench.drivers.common.chromium``: a throwaway profile, every non-loopback request sent to a
closed port). Each load records the DevTools ``Network.requestWillBeSent`` events of
its tab, with the page's own Content-Security-Policy bypassed, so a reference to any
host would be attempted, and seen, rather than blocked unseen.
"""

from __future__ import annotations

import base64
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.drivers.common.chromium import Chromium

__all__ = ["Loaded", "PageBrowser"]

PHONE_WIDTH = 390  # CSS pixels: a common phone in portrait
DESKTOP_WIDTH = 1100
LOAD_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Loaded:
    """One page as loaded: its DOM, the URLs it requested (itself included) and how many
    CSS pixels wider than the viewport it is (0: it fits)."""

    dom: str
    requests: tuple[str, ...]
    overflow: int


@dataclass
class _Recording(Chromium):
    """Chromium that keeps the DevTools events it reads past (``call`` skips them)."""

    events: list[dict[str, Any]] = field(default_factory=list)

    def _read_message(self, deadline: float) -> dict[str, Any]:
        message = super()._read_message(deadline)
        if "method" in message:
            self.events.append(message)
        return message


class PageBrowser:
    """One headless Chromium for many pages; ``close`` it (or use ``with``)."""

    def __init__(self, executable: str = "chromium") -> None:
        self._log = Path(tempfile.mkdtemp(prefix="ghbench-pages-")) / "chromium.log"
        self._chromium = _Recording(executable=executable, log_path=self._log)
        self._chromium.start()

    def __enter__(self) -> PageBrowser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._chromium.close()

    def _open(self, path: Path, width: int, height: int, media: str) -> str:
        c = self._chromium
        session = c.open_page()
        for method, params in (
            ("Network.enable", {}),
            ("Page.enable", {}),
            ("Page.setBypassCSP", {"enabled": True}),
            (
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": width,
                    "height": height,
                    "deviceScaleFactor": 1,
                    "mobile": width < 600,
                },
            ),
            ("Emulation.setEmulatedMedia", {"media": media}),
        ):
            c.call(method, params, session=session)
        c.events.clear()
        c.navigate(session, path.resolve().as_uri())
        if not c.wait_until(session, "document.readyState === 'complete'", LOAD_TIMEOUT_S):
            raise AssertionError(f"{path} did not load within {LOAD_TIMEOUT_S:g} s")
        return session

    def _close_tab(self, session: str) -> None:
        target = self._chromium.call("Target.getTargetInfo", session=session)["targetInfo"]
        self._chromium.call("Target.closeTarget", {"targetId": target["targetId"]})

    def load(self, path: Path, *, width: int = DESKTOP_WIDTH, media: str = "") -> Loaded:
        """``path`` at ``width`` CSS pixels (``media``: "" for the screen, or "print")."""
        c = self._chromium
        session = self._open(path, width, 900, media)
        try:
            dom = str(c.evaluate(session, "document.documentElement.outerHTML"))
            overflow = int(
                c.evaluate(
                    session,
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth",
                )
            )
            requests = tuple(
                e["params"]["request"]["url"]
                for e in c.events
                if e.get("sessionId") == session and e["method"] == "Network.requestWillBeSent"
            )
        finally:
            self._close_tab(session)
        return Loaded(dom, requests, overflow)

    def screenshot(self, path: Path, *, width: int = DESKTOP_WIDTH) -> bytes:
        """The whole page, top to bottom, as PNG bytes."""
        c = self._chromium
        session = self._open(path, width, 900, "")
        try:
            height = int(c.evaluate(session, "document.documentElement.scrollHeight"))
            c.call(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
                session=session,
            )
            shot = c.call("Page.captureScreenshot", {"format": "png"}, session=session)
        finally:
            self._close_tab(session)
        return base64.b64decode(shot["data"])
