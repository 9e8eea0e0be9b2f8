"""Running the real gh against a served emulator (a unique module name)."""

from __future__ import annotations

import json
import subprocess
from typing import Any


def gh(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["gh", *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def ok(env: dict[str, str], *args: str) -> str:
    """gh's output; the test fails with gh's stderr when it exits non-zero."""
    result = gh(env, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def api(env: dict[str, str], path: str) -> Any:
    """``gh api PATH`` as JSON."""
    return json.loads(ok(env, "api", path))


def operations(server: Any) -> list[str]:
    """The GraphQL operations the ledger recorded, in order."""
    return [e.endpoint for e in server.emulator.ledger_entries(resource="graphql")]
