"""The real gh CLI (Debian's 2.23) against the emulator over a real socket.

gh reaches the emulator as a proxy: GH_HOST=github.localhost makes it call
http://api.github.localhost/..., and HTTP_PROXY sends that to the emulator as an
absolute-form request. PR create/merge (GraphQL) are covered in test_graphql_gh.py.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

pytestmark = pytest.mark.gh

GUARD = "repos/acme/todo/pulls?state=open&sort=updated&direction=desc&per_page=1"


def gh(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gh", *args], env=env, capture_output=True, text=True, timeout=60)


def headers_of(stdout: str) -> tuple[str, dict[str, str]]:
    # text mode turned gh's CRLF header lines into plain newlines
    head = stdout.split("\n\n", 1)[0]
    status, *lines = head.split("\n")
    return status, {k.lower(): v for k, _, v in (line.partition(": ") for line in lines)}


def test_gh_api_200_then_free_304(gh_env: dict[str, str], emulator_server: Any) -> None:
    emulator_server.emulator.create_pull("acme/todo", "feat/x")
    first = gh(gh_env, "api", "-i", GUARD)
    assert first.returncode == 0, first.stderr
    status, headers = headers_of(first.stdout)
    assert status == "HTTP/1.1 200 OK"
    etag = headers["etag"]
    assert etag.startswith('W/"') and headers["x-ratelimit-remaining"] == "4999"

    second = gh(gh_env, "api", "-i", GUARD, "-H", f"If-None-Match: {etag}")
    assert second.returncode == 1  # gh treats every status > 299 as failure
    status, headers = headers_of(second.stdout)
    assert status == "HTTP/1.1 304 Not Modified"
    assert headers["x-ratelimit-remaining"] == "4999"
    assert "HTTP 304" in second.stderr
    (entry,) = emulator_server.emulator.ledger_entries()
    assert entry.endpoint == "GET /repos/{owner}/{repo}/pulls" and entry.status == 200


def test_gh_api_rate_limit_is_free(gh_env: dict[str, str], emulator_server: Any) -> None:
    result = gh(gh_env, "api", "rate_limit", "--jq", ".resources.core.remaining")
    assert result.returncode == 0 and result.stdout.strip() == "5000"
    assert emulator_server.emulator.ledger_entries() == []


def test_gh_api_errors_and_ledger(gh_env: dict[str, str], emulator_server: Any) -> None:
    missing = gh(gh_env, "api", "repos/acme/nope")
    assert missing.returncode == 1 and "Not Found (HTTP 404)" in missing.stderr
    made = gh(gh_env, "api", "repos/acme/todo/issues", "-f", "title=From gh")
    assert made.returncode == 0, made.stderr
    listed = gh(gh_env, "api", "-i", "repos/acme/todo/issues")
    _, headers = headers_of(listed.stdout)
    charged = emulator_server.emulator.ledger_entries()
    assert [e.status for e in charged] == [404, 201, 200]
    assert int(headers["x-ratelimit-used"]) == sum(e.cost for e in charged)


def test_gh_with_a_bad_token(gh_env: dict[str, str]) -> None:
    result = gh(gh_env | {"GH_TOKEN": "ghp_wrong"}, "api", "user")
    assert result.returncode == 1 and "Bad credentials (HTTP 401)" in result.stderr


def test_gh_delete_branch_ref(gh_env: dict[str, str], emulator_server: Any) -> None:
    emulator_server.emulator.push("acme/todo", "feat/gone")
    deleted = gh(gh_env, "api", "-X", "DELETE", "repos/acme/todo/git/refs/heads/feat/gone")
    assert deleted.returncode == 0, deleted.stderr
    again = gh(gh_env, "api", "repos/acme/todo/git/ref/heads/feat/gone")
    assert again.returncode == 1 and "HTTP 404" in again.stderr


def test_gh_to_github_com_never_leaves_the_machine(gh_env: dict[str, str]) -> None:
    env = {k: v for k, v in gh_env.items() if k != "GH_HOST"}
    result = gh(env, "api", "--hostname", "github.com", "rate_limit")
    assert result.returncode == 1
    assert "Method Not Allowed" in result.stderr  # the emulator refused the CONNECT
