"""The emulator's settings (``--config FILE``), validated one way (issue 14 case 3): msgspec
structs whose errors name the file, the key and what is allowed; a file that is not
UTF-8 is one line, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.emulator.config import load_config
from ghbench.errors import ConfigError


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("primary_status: 500\n", "primary_status: 500 is not one of 403, 429"),
        ("graphql_cost_rule: all\n", "graphql_cost_rule: 'all' is not one of every-connection"),
        ("limits: {core: [5000, 0]}\n", "limits.core[1]: must be more than 0, got 0"),
        ("faults: {latency_ms: -1}\n", "faults.latency_ms: must be at least 0, got -1"),
        ("secondary: {enabled: maybe}\n", "secondary.enabled: expected bool, got 'maybe'"),
        ("repos: [todo]\n", "repos[0]: 'todo' is not owner/name"),
        ("users: {octo: ghp_x}\n", "users.octo: expected array, got 'ghp_x'"),
        ("max_body_bytes: .inf\n", "max_body_bytes: expected int, got inf"),
        ("colour: red\n", "unknown key colour; known keys: limits, anonymous_limits"),
        ("- just a list\n", "expected a mapping of settings at the top level"),
    ],
)
def test_config_errors_name_the_file_the_key_and_what_is_allowed(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "emu.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"--config {path}: {message}")


def test_a_good_config(tmp_path: Path) -> None:
    path = tmp_path / "emu.yaml"
    path.write_text(
        "limits: {core: [10, 60]}\nfaults: {latency: fixed, latency_ms: 5}\n"
        "web_url: https://example.test/\nrepos: [acme/todo]\n"
    )
    cfg = load_config(path)
    assert cfg.limits == {"core": (10, 60)}
    assert (cfg.faults.latency, cfg.faults.latency_ms) == ("fixed", 5.0)
    assert cfg.web_url == "https://example.test" and cfg.repos == ["acme/todo"]


def test_serve_config_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    """Issue 12 case 10: a non-UTF-8 --config was a traceback."""
    path = tmp_path / "emu.yaml"
    path.write_bytes(b"limits:\n  core: [5000, 3600]\n\xff\xfe\x00\n")
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--config", str(path)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (
        f"error: --config {path}: not UTF-8 text (byte 29); save it as UTF-8 YAML or JSON\n"
    )
