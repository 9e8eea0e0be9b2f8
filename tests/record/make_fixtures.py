"""Regenerate ``tests/record/fixtures`` by running the real gh against the emulator.

    .venv/bin/python tests/record/make_fixtures.py

For each case it writes ``NAME.debug.stderr`` (gh's stderr with ``GH_DEBUG=api``)
and ``NAME.plain.stderr`` (the same command without it). gh masks the
Authorization header itself; the token is masked again here in case any other
place echoes it, and the script fails if it is still present.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from ghbench.emulator.client_env import gh_environment
from ghbench.emulator.config import EmulatorConfig
from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer

FIXTURES = Path(__file__).parent / "fixtures"
TOKEN = "ghp_recordfixture0123456789abcdef0123"
MASK = "█" * 20
BUDGET_QUERY = "query Budget { rateLimit { cost remaining resetAt } viewer { login } }"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _gh(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["gh", *args], env=env, cwd=cwd, capture_output=True, timeout=60)


def _save(name: str, data: bytes) -> None:
    data = data.replace(TOKEN.encode(), MASK.encode())
    if TOKEN.encode() in data:
        sys.exit(f"the token is still in {name}")
    (FIXTURES / name).write_bytes(data)


def main() -> None:
    emulator = Emulator(config=EmulatorConfig(users={"octo": [TOKEN]}, repos=["acme/todo"]))
    numbers = [emulator.create_pull("acme/todo", f"feat/fixture-{i}") for i in range(3)]
    FIXTURES.mkdir(exist_ok=True)
    with EmulatorServer(emulator) as server, tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "tmp").mkdir()
        base = {**os.environ, **gh_environment(server.url, TOKEN, home)}
        base.pop("GH_DEBUG", None)
        base.pop("DEBUG", None)
        pull = f"repos/acme/todo/pulls/{numbers[0]}"
        first = _gh(["api", "-i", pull], base, home)
        etag = re.search(rb"(?im)^etag: (.+?)\r?$", first.stdout)
        if etag is None:
            sys.exit("the emulator sent no ETag")
        refused = f"http://127.0.0.1:{_closed_port()}"
        cases: dict[str, tuple[list[str], dict[str, str]]] = {
            "pr_view": (
                ["pr", "view", str(numbers[0]), "--repo", "acme/todo", "--json", "state"],
                {},
            ),
            "api_404": (["api", "repos/acme/todo/pulls/9999"], {}),
            "api_304": (["api", "-i", "-H", f"If-None-Match: {etag.group(1).decode()}", pull], {}),
            "graphql_ratelimit": (["api", "graphql", "-f", f"query={BUDGET_QUERY}"], {}),
            "paginate": (["api", "--paginate", "repos/acme/todo/pulls?per_page=1"], {}),
            "transport_error": (
                ["api", "repos/acme/todo"],
                {"HTTP_PROXY": refused, "HTTPS_PROXY": refused, "http_proxy": refused},
            ),
        }
        for name, (args, extra) in cases.items():
            env = {**base, **extra}
            plain = _gh(args, env, home)
            debug = _gh(args, {**env, "GH_DEBUG": "api"}, home)
            if plain.returncode != debug.returncode:
                sys.exit(
                    f"{name}: gh exited {plain.returncode}, but {debug.returncode} with GH_DEBUG"
                )
            _save(f"{name}.plain.stderr", plain.stderr)
            _save(f"{name}.debug.stderr", debug.stderr)
            print(
                f"{name}: exit {plain.returncode}, {debug.stderr.count(b'* Request took')} requests"
            )


if __name__ == "__main__":
    main()
