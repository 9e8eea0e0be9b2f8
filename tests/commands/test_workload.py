"""``ghbench workload run``: bad input gives one clear line."""

import os
import subprocess
import sys
from pathlib import Path


def _run(
    args: list[str], env_extra: dict[str, str], drop: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, env=env
    )


def _config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "w.yaml"
    path.write_text("sessions: [{id: ta-1, repo: acme/todo, issue: 1, pr: 1}]\n" + extra)
    return path


def test_unset_trace_variable_is_named(tmp_path: Path) -> None:
    proc = _run(["workload", "run", "--config", str(_config(tmp_path))], {}, ("AO_GH_TRACE_FILE",))
    assert proc.returncode == 2
    assert "AO_GH_TRACE_FILE" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


def test_missing_gh_gives_an_install_hint(tmp_path: Path) -> None:
    cfg = _config(tmp_path, "gh_path: /nonexistent/gh-binary\n")
    proc = _run(
        ["workload", "run", "--config", str(cfg)],
        {"AO_GH_TRACE_FILE": str(tmp_path / "t.jsonl")},
    )
    assert proc.returncode == 1
    assert "apt-get install gh" in proc.stderr
    assert "transport: http" in proc.stderr
    assert not (tmp_path / "t.jsonl").exists()


def test_invalid_config_names_the_key(tmp_path: Path) -> None:
    cfg = _config(tmp_path, "policy: {tick: soon}\n")
    proc = _run(
        ["workload", "run", "--config", str(cfg)],
        {"AO_GH_TRACE_FILE": str(tmp_path / "t.jsonl")},
    )
    assert proc.returncode == 2
    assert "policy.tick" in proc.stderr
