"""The CLI's own contract: fast help, one-line errors with the documented exit codes."""

import os
import subprocess
import sys

from ghbench.cli import COMMANDS


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, env=env
    )


def test_help_lists_every_command_without_importing_them() -> None:
    code = (
        "import sys\n"
        "from ghbench.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in ('numpy', 'duckdb', 'starlette', 'graphql', 'matplotlib', 'rich')"
        " if m in sys.modules]\n"
        "loaded = [m for m in sys.modules if m.startswith('ghbench.commands.')]\n"
        "print(heavy, loaded, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stderr.strip() == "[] []"
    for name in COMMANDS:
        assert name in proc.stdout


def test_unknown_command_is_a_one_line_usage_error() -> None:
    proc = _run("no-such-command")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert "no-such-command" in lines[0]


def test_version() -> None:
    proc = _run("--version")
    assert proc.returncode == 0
    assert "ghbench" in proc.stdout
