"""A headless Chromium driven over its DevTools pipe: the S6 reader's browser.

Chromium's ``--remote-debugging-pipe`` reads DevTools commands on fd 3 and writes
replies on fd 4, as NUL-terminated JSON: no browser-automation library, no debugging
port, nothing to download (Debian's ``chromium`` package is the browser). The few
DevTools methods used (``Target.createTarget``/``attachToTarget``, ``Page.navigate``,
``Runtime.evaluate``, ``Browser.close``) have been stable for years. Page state is
read by polling JavaScript rather than waiting for load events, so a dashboard that
routes on the client (no new document per click) is followed as well as one that
serves a page per URL.

Chromium runs in its own process group (stopped like every child: SIGTERM, a deadline,
SIGKILL), with a throwaway profile, a minimal environment (no token, no proxy
variables) and every non-loopback request sent to a closed loopback port, so nothing
it does leaves the machine.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.errors import GhbenchError
from ghbench.procs import ManagedProcess, popen_guarded

__all__ = ["Chromium", "ChromiumError", "PageNavigated"]

# Puts the pipe ends at fds 3 and 4 in the child, then becomes Chromium. A tiny Python
# wrapper instead of preexec_fn: the reader runs in a thread, where forking hooks are
# unsafe; and instead of sh, whose redirections only know fds 0-9.
_EXEC_WITH_PIPE = (
    "import os, sys\n"
    "r, w = int(sys.argv[1]), int(sys.argv[2])\n"
    "os.dup2(r, 3)\n"
    "os.dup2(w, 4)\n"
    "os.close(r)\n"
    "os.close(w)\n"
    "os.execv(sys.argv[3], sys.argv[3:])\n"
)
_FLAGS = (
    "--headless",
    "--remote-debugging-pipe",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-breakpad",
    "--metrics-recording-only",
    "--no-pings",
    "--mute-audio",
    # Loopback bypasses a proxy; every other request (Chromium's own background ones
    # included: it asks a time server even with the flags above) goes to the closed
    # discard port and fails, its host never resolved.
    "--proxy-server=http://127.0.0.1:9",
)


class ChromiumError(GhbenchError):
    """Chromium exited, refused a command or did not answer in time."""


class PageNavigated(ChromiumError):
    """The document a call ran in went away before it answered: the page navigated (a
    link, ``history.back()``, a reload, a redirect of the page's own) in the middle."""


# DevTools' words for "the document went away under this call", by when it happened: while
# the call waited, while it ran, and after the document was already gone.
_DOCUMENT_GONE = (
    "Inspected target navigated or closed",
    "Execution context was destroyed",
    "Cannot find context with specified id",
)


def _high_fd(fd: int) -> int:
    """``fd`` moved to 10 or above, so placing it at 3 or 4 cannot clobber the other end."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


@dataclass
class Chromium:
    """One headless Chromium; ``start`` it, open pages, ``close`` it."""

    executable: str
    log_path: Path
    timeout: float = 30.0  # per DevTools call
    version: str = ""
    _proc: ManagedProcess | None = field(default=None, repr=False)
    _profile: Path | None = field(default=None, repr=False)
    _to_browser: int = -1
    _from_browser: int = -1
    _buffer: bytes = b""
    _next_id: int = 0

    def start(self) -> None:
        exe = shutil.which(self.executable)
        if exe is None:
            raise ChromiumError(f"{self.executable} is not installed (apt-get install chromium)")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        # Chromium puts a unix socket under TMPDIR, and socket paths have a 107-byte
        # limit: a short base, not the caller's (possibly deep) TMPDIR
        short = "/tmp" if os.access("/tmp", os.W_OK) else None
        self._profile = Path(tempfile.mkdtemp(prefix="ghbench-chromium-", dir=short))
        cmd_r, cmd_w = os.pipe()  # we write commands, Chromium reads them on fd 3
        res_r, res_w = os.pipe()  # Chromium writes replies on fd 4, we read them
        child_r, child_w = _high_fd(cmd_r), _high_fd(res_w)
        flags = [*_FLAGS, f"--user-data-dir={self._profile}"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")  # Chromium will not start its sandbox as root
        argv = [sys.executable, "-c", _EXEC_WITH_PIPE, str(child_r), str(child_w), exe]
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self._profile),
            "TMPDIR": str(self._profile),
            "XDG_CONFIG_HOME": str(self._profile / "config"),
            "XDG_CACHE_HOME": str(self._profile / "cache"),
            "LANG": "C.UTF-8",
        }
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed by ManagedProcess.stop
        try:
            popen = popen_guarded(  # stopped by the lifeline if ghbench dies
                [*argv, *flags, "about:blank"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(child_r, child_w),
            )
        except BaseException:
            log.close()
            for fd in (cmd_w, res_r):
                os.close(fd)
            raise
        finally:  # the child has its copies
            for fd in (child_r, child_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._proc = ManagedProcess(popen=popen, name="chromium", log_path=self.log_path, _log=log)
        self._to_browser, self._from_browser = cmd_w, res_r
        self.version = str(self.call("Browser.getVersion").get("product", ""))

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChromiumError(f"Chromium did not answer within {self.timeout:g} s")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise ChromiumError(f"Chromium exited; see {self.log_path}")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(
        self, method: str, params: dict[str, Any] | None = None, *, session: str | None = None
    ) -> dict[str, Any]:
        """Send one DevTools command and return its result (events are skipped)."""
        if self._to_browser < 0:
            raise ChromiumError("Chromium is not running")
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        try:
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise ChromiumError(f"Chromium exited; see {self.log_path}") from None
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") != self._next_id:
                continue  # an event, or a late reply to a call that timed out
            if "error" in reply:
                detail = str(reply["error"].get("message", reply["error"]))
                gone = any(words in detail for words in _DOCUMENT_GONE)
                raise (PageNavigated if gone else ChromiumError)(f"{method}: {detail}")
            result: dict[str, Any] = reply.get("result", {})
            return result

    def open_page(self) -> str:
        """A new tab; returns the DevTools session that drives it."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        attached = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})
        return str(attached["sessionId"])

    def evaluate(self, session: str, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serializable values)."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=session,
        )
        if "exceptionDetails" in result:
            text = result["exceptionDetails"].get("text", "exception")
            raise ChromiumError(f"JavaScript failed in the page: {text}")
        return result.get("result", {}).get("value")

    def navigate(self, session: str, url: str) -> None:
        """Start loading ``url``; a refused connection or a DNS failure is an error."""
        result = self.call("Page.navigate", {"url": url}, session=session)
        if result.get("errorText"):
            raise ChromiumError(f"loading {url} failed: {result['errorText']}")

    def run(self, session: str, expression: str) -> None:
        """Evaluate ``expression`` for what it does (a click, ``history.back()``): the
        navigation it may start can end the call before it answers, and that is no error."""
        with contextlib.suppress(PageNavigated):
            self.evaluate(session, expression)

    def wait_until(self, session: str, expression: str, timeout: float) -> bool:
        """Poll ``expression`` until it is truthy; False when ``timeout`` passes first. A
        page that navigates mid-poll is polled again in its new document."""
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(PageNavigated):
                if self.evaluate(session, expression):
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def close(self, grace: float = 5.0) -> None:
        """Ask Chromium to quit, then stop its process group; remove the profile."""
        if self._proc is not None:
            if self._proc.alive():
                with contextlib.suppress(ChromiumError, OSError):
                    self.timeout = min(self.timeout, grace)
                    self.call("Browser.close")
            self._proc.stop(grace)
            self._proc = None
        for fd in (self._to_browser, self._from_browser):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._to_browser = self._from_browser = -1
        if self._profile is not None:
            shutil.rmtree(self._profile, ignore_errors=True)
            self._profile = None
