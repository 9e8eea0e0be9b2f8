"""git's own ``git http-backend`` behind an ASGI request: the CGI variables it is given
(never the Authorization header), and its answer streamed back with its status."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ghbench.emulator.git.cgi import cgi_environment, plain_answer, run_http_backend


def test_cgi_variables_and_headers_as_http_star(tmp_path: Path) -> None:
    headers = {
        "authorization": "Basic c2VjcmV0",
        "content-type": "application/x-git-upload-pack-request",
        "content-length": "12",
        "git-protocol": "version=2",
        "content-encoding": "gzip",
    }
    env = cgi_environment(
        tmp_path, "/acme/todo.git/git-upload-pack", "POST", "", headers,
        remote_user="octo", remote_addr="127.0.0.1",
    )  # fmt: skip
    assert env["GIT_PROJECT_ROOT"] == str(tmp_path) and "GIT_DIR" not in env
    assert (env["REQUEST_METHOD"], env["PATH_INFO"], env["REMOTE_USER"]) == (
        "POST",
        "/acme/todo.git/git-upload-pack",
        "octo",
    )
    assert env["CONTENT_TYPE"] == "application/x-git-upload-pack-request"
    assert env["CONTENT_LENGTH"] == "12"
    assert env["HTTP_GIT_PROTOCOL"] == "version=2" and env["HTTP_CONTENT_ENCODING"] == "gzip"
    assert not any("c2VjcmV0" in value for value in env.values())
    anonymous = cgi_environment(
        tmp_path, "/", "GET", "service=git-upload-pack", {}, remote_user=None, remote_addr="::1"
    )
    assert "REMOTE_USER" not in anonymous and anonymous["QUERY_STRING"] == "service=git-upload-pack"


def _serve(env: dict[str, str]) -> tuple[list[dict[str, Any]], list[str], int]:
    sent: list[dict[str, Any]] = []
    ends: list[str] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def before_end() -> None:
        ends.append(f"after {len(sent)} messages")

    code = asyncio.run(run_http_backend(env, receive, send, before_end))
    return sent, ends, code


@pytest.mark.needs("git")
def test_refs_are_advertised_and_a_missing_repository_is_gits_404(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "acme" / "todo.git")], check=True)

    def env(path: str) -> dict[str, str]:
        return cgi_environment(
            tmp_path, path, "GET", "service=git-upload-pack", {},
            remote_user=None, remote_addr="127.0.0.1",
        )  # fmt: skip

    sent, ends, code = _serve(env("/acme/todo.git/info/refs"))
    start, *bodies, last = sent
    assert code == 0 and start["status"] == 200
    headers = dict(start["headers"])
    assert headers[b"content-type"] == b"application/x-git-upload-pack-advertisement"
    assert b"# service=git-upload-pack" in b"".join(b["body"] for b in bodies)
    assert last == {"type": "http.response.body", "body": b""}  # the end comes last
    assert ends == [f"after {len(sent) - 1} messages"]  # ...after before_end ran
    missing, _, _ = _serve(env("/acme/none.git/info/refs"))
    assert missing[0]["status"] == 404


def test_a_plain_answer_is_text_git_prints() -> None:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(plain_answer(send, 403, "Write access denied", [(b"x-extra", b"1")]))
    assert sent[0]["status"] == 403
    assert sent[0]["headers"] == [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", b"20"),
        (b"x-extra", b"1"),
    ]
    assert sent[1]["body"] == b"Write access denied\n"
