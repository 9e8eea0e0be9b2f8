"""AO's daemon's own HTTP API on loopback (``127.0.0.1:$AO_PORT``), as ghbench reads it.

0.12 kept every route 0.10 had and the fields ghbench reads (it added others).

The daemon serves its desktop app from its database: ``/readyz``, ``/api/v1/projects``,
``/api/v1/sessions`` and ``/api/v1/sessions/{id}`` (with the session's branch and PRs)
answer without calling GitHub. The driver reads readiness, projects and sessions here
(no ``ao`` process per question); the matrix's S6 reader (``DaemonDashboard``) reads
the pages the desktop app reads, at the cadence of the other S6 readers, to measure
what the app's reading adds to the daemon's GitHub calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from ghbench.drivers.base import DashboardView
from ghbench.drivers.common.readers import ReaderDashboard, ReaderThread
from ghbench.errors import GhbenchError
from ghbench.tls import tls_context

__all__ = ["DaemonApi", "DaemonDashboard", "DaemonSession"]

_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class DaemonSession:
    """A worker session as the daemon lists it."""

    session_id: str
    project: str
    issue: int | None
    branch: str | None
    terminated: bool


def _issue(value: Any) -> int | None:
    text = str(value or "").lstrip("#")
    return int(text) if text.isdigit() else None


class DaemonApi:
    """The daemon's API on ``127.0.0.1:port`` (never through a proxy)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def _get(self, path: str) -> Any:
        try:
            with httpx.Client(trust_env=False, timeout=_TIMEOUT_S, verify=tls_context()) as client:
                resp = client.get(self.base + path)
        except httpx.HTTPError as exc:
            raise GhbenchError(f"AO's daemon did not answer {path}: {exc}") from None
        if resp.status_code != 200:
            raise GhbenchError(f"AO's daemon answered {path} with HTTP {resp.status_code}")
        try:
            return resp.json()
        except ValueError:
            raise GhbenchError(f"AO's daemon answered {path} with something not JSON") from None

    def ready(self) -> bool:
        try:
            with httpx.Client(trust_env=False, timeout=2.0, verify=tls_context()) as client:
                return client.get(self.base + "/readyz").status_code == 200
        except httpx.HTTPError:
            return False

    def project_ids(self) -> set[str]:
        doc = self._get("/api/v1/projects")
        rows = doc.get("projects") if isinstance(doc, dict) else None
        return {str(r.get("id")) for r in rows or [] if isinstance(r, dict) and r.get("id")}

    def sessions(self) -> list[DaemonSession]:
        """Every worker session the daemon has, terminated ones too, with its branch."""
        doc = self._get("/api/v1/sessions")
        rows = doc.get("sessions") if isinstance(doc, dict) else None
        out = []
        for row in rows or []:
            if not isinstance(row, dict) or row.get("kind") == "orchestrator":
                continue
            sid, branch = str(row.get("id") or ""), row.get("branch")
            if sid:
                out.append(
                    DaemonSession(
                        session_id=sid,
                        project=str(row.get("projectId") or ""),
                        issue=_issue(row.get("issueId")),
                        branch=branch if isinstance(branch, str) and branch else None,
                        terminated=bool(row.get("isTerminated")),
                    )
                )
        return out

    def session_ids(self) -> list[str]:
        return [s.session_id for s in self.sessions()]

    def read_page(self, path: str) -> int:
        """One read as the desktop app makes it; its HTTP status."""
        try:
            with httpx.Client(trust_env=False, timeout=_TIMEOUT_S, verify=tls_context()) as client:
                return client.get(self.base + path).status_code
        except httpx.HTTPError as exc:
            raise GhbenchError(f"AO's daemon did not answer {path}: {exc}") from None


class _ApiReader(ReaderThread):
    """The desktop app's reads: the session list every ``refresh_s``; every ``click_s``
    the next session's page and PRs, round-robin."""

    thread_name = "ghbench-ao-app"

    def __init__(self, api: DaemonApi, sessions: Sequence[str], refresh_s: float, click_s: float):
        super().__init__(refresh_s, click_s)
        self.api, self.session_ids = api, list(sessions)
        self.reads = 0
        self.failed: list[str] = []

    def _read_one(self, path: str) -> None:
        status = self.api.read_page(path)
        self.reads += 1
        if status >= 400:
            self.failed.append(f"{path}: HTTP {status}")

    def _read(self) -> None:
        def refresh() -> None:
            self._read_one("/api/v1/sessions")

        def click(index: int) -> None:
            sid = self.session_ids[index]
            self._read_one(f"/api/v1/sessions/{sid}")
            self._read_one(f"/api/v1/sessions/{sid}/pr")

        self._cadence(refresh, click, len(self.session_ids))


class DaemonDashboard(ReaderDashboard):
    """S6 for AO's daemon (``build``: what the notes call it): its desktop app's reads of
    the daemon's API for one window."""

    what = "the app's reads of AO's API"
    calls_github = False  # the routes it reads answer from the daemon's database

    def __init__(self, api: DaemonApi, view: DashboardView, build: str) -> None:
        self.app = _ApiReader(
            api, [s.session_id for s in view.sessions], view.refresh_s, view.click_s
        )
        super().__init__(self.app)
        self.build = build

    def _notes(self) -> list[str]:
        notes = [
            f"S6: {self.app.reads} reads of {self.build}'s API as its desktop app makes them"
            " (the app shows what the daemon stored; the GitHub calls are the daemon's)"
        ]
        if self.app.failed:
            notes.append("S6: reads that failed: " + "; ".join(self.app.failed[:5]))
        return notes
