"""Running the real gh against a served emulator (a unique module name)."""

from __future__ import annotations

import json
import subprocess
from typing import Any


def gh(
    env: dict[str, str], *args: str, input_text: str | None = None
) -> subprocess.CompletedProcess[str]:
    """gh ``args``, with ``input_text`` on its stdin (``--input -``)."""
    return subprocess.run(
        ["gh", *args],
        env=env,
        input=input_text,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def ok(env: dict[str, str], *args: str, input_text: str | None = None) -> str:
    """gh's output; the test fails with gh's stderr when it exits non-zero."""
    result = gh(env, *args, input_text=input_text)
    assert result.returncode == 0, result.stderr
    return result.stdout


def api(env: dict[str, str], path: str) -> Any:
    """``gh api PATH`` as JSON."""
    return json.loads(ok(env, "api", path))


def protect(env: dict[str, str], repo: str, branch: str, **rules: Any) -> Any:
    """``gh api -X PUT .../branches/BRANCH/protection`` with GitHub's four required keys
    (``None`` unless given in ``rules``)."""
    body = (
        dict.fromkeys(
            [
                "required_status_checks",
                "enforce_admins",
                "required_pull_request_reviews",
                "restrictions",
            ]
        )
        | rules
    )
    path = f"repos/{repo}/branches/{branch}/protection"
    return json.loads(
        ok(env, "api", "-X", "PUT", path, "--input", "-", input_text=json.dumps(body))
    )


def operations(server: Any) -> list[str]:
    """The GraphQL operations the ledger recorded, in order."""
    return [e.endpoint for e in server.emulator.ledger_entries(resource="graphql")]


# gh 2.102's feature detection: two introspection queries sent side by side
FEATURE_QUERIES = ("PullRequest_fields", "PullRequest_fields2")


def assert_operations(server: Any, expected: list[str]) -> None:
    """The ledger's GraphQL operations are ``expected``, in order, but for the feature
    queries gh sends at once (either may arrive first)."""
    seen = operations(server)
    assert sorted(seen) == sorted(expected), seen

    def ordered(ops: list[str]) -> list[str]:
        return [op for op in ops if op not in FEATURE_QUERIES]

    assert ordered(seen) == ordered(expected), seen


def rows(output: str) -> list[list[str]]:
    """gh's non-terminal table: one tab-separated row per line."""
    return [line.split("\t") for line in output.splitlines() if line]


def assert_ledger_matches_gh(env: dict[str, str], server: Any) -> None:
    """One more GraphQL call with ``-i``: its headers and rateLimit equal the ledger."""
    out = ok(env, "api", "-i", "graphql", "-f", "query=query Rate { rateLimit { used } }")
    head, _, body = out.partition("\n\n")  # text mode turned CRLF into newlines
    status, *lines = head.splitlines()
    assert status == "HTTP/1.1 200 OK"
    headers = dict(line.split(": ", 1) for line in lines)
    used = json.loads(body)["data"]["rateLimit"]["used"]
    ledger = server.emulator.ledger_totals(resource="graphql")["graphql"]
    assert int(headers["X-Ratelimit-Used"]) == used == ledger
