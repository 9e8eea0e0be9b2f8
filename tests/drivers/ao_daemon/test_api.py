"""ghbench.drivers.ao_daemon.api: the daemon's loopback API as ghbench reads it, the
parsing on its own: a server on a real socket answers rows with the fields the driver
reads (id, kind, projectId, issueId, branch, isTerminated), some of them missing or
malformed, and what it must not (an error, no JSON, nobody). Against the real AO 0.12.6
daemon: tests/realao/test_ao_daemon.py."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ghbench.drivers.ao_daemon.api import DaemonApi, DaemonSession
from ghbench.errors import GhbenchError

PAGES: dict[str, tuple[int, bytes]] = {
    "/readyz": (200, b"ok"),
    "/api/v1/projects": (
        200,
        json.dumps({"projects": [{"id": "todo-app"}, {"id": ""}, "junk", {"name": "x"}]}).encode(),
    ),
    "/api/v1/sessions": (
        200,
        json.dumps(
            {
                "sessions": [
                    {"id": "ta-orchestrator", "kind": "orchestrator", "projectId": "todo-app"},
                    {
                        "id": "ta-1",
                        "kind": "worker",
                        "projectId": "todo-app",
                        "issueId": "#12",
                        "branch": "feat/issue-12",
                        "isTerminated": False,
                    },
                    {"id": "ta-2", "projectId": "todo-app", "issueId": 7, "branch": ""},
                    {"id": "ta-3", "issueId": "INT-4", "isTerminated": True},
                    {"kind": "worker"},  # no id: not a session
                    "junk",
                ]
            }
        ).encode(),
    ),
}


class _Daemon(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        status, body = PAGES.get(self.path, (404, b"{}"))
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture(scope="module")
def api() -> Iterator[DaemonApi]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Daemon)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield DaemonApi(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_worker_sessions_with_their_issue_and_branch(api: DaemonApi) -> None:
    assert api.sessions() == [
        DaemonSession("ta-1", "todo-app", 12, "feat/issue-12", terminated=False),
        DaemonSession("ta-2", "todo-app", 7, None, terminated=False),
        DaemonSession("ta-3", "", None, None, terminated=True),
    ]
    assert api.session_ids() == ["ta-1", "ta-2", "ta-3"]


def test_projects_and_readiness(api: DaemonApi) -> None:
    assert api.project_ids() == {"todo-app"}
    assert api.ready()
    assert api.read_page("/api/v1/sessions/ta-1") == 404  # the status, whatever it is


@pytest.mark.parametrize(
    ("answer", "said"),
    [((500, b"{}"), "with HTTP 500"), ((200, b"<html>"), "with something not JSON")],
)
def test_an_answer_ghbench_cannot_read_is_one_line(
    api: DaemonApi, answer: tuple[int, bytes], said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PAGES, "/api/v1/projects", answer)  # the daemon's answer, not our code
    with pytest.raises(GhbenchError, match=f"^AO's daemon answered /api/v1/projects {said}$"):
        api.project_ids()


def test_a_daemon_that_is_not_there() -> None:
    nobody = DaemonApi(1)  # nothing listens on port 1
    assert not nobody.ready()
    with pytest.raises(GhbenchError, match=r"^AO's daemon did not answer /api/v1/sessions"):
        nobody.sessions()
    with pytest.raises(GhbenchError, match="did not answer /p"):
        nobody.read_page("/p")
