"""ghbench.front.process: starting a front and speaking to it: a trace it cannot open is
one line, its secret and the caller's tokens never reach its argv or environment,
and a stopped front says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.front import FrontError, FrontSettings, start_front
from tools import coverage_env

from .front_helpers import running_front


@pytest.mark.slow
def test_a_trace_that_cannot_be_opened_is_an_error(tmp_path: Path) -> None:
    where = tmp_path / "no-such-dir" / "t.jsonl"
    with (
        pytest.raises(FrontError, match=f"the front did not start: cannot write the trace {where}"),
        running_front(tmp_path / "a", None, mode="forward", trace=where),
    ):
        pass
    # the second front: no token of the caller's, and its secret in neither argv nor env
    settings = FrontSettings(mode="forward", state_dir=str(tmp_path / "b"))
    env = {**coverage_env(), "PATH": "/usr/bin:/bin", "GH_TOKEN": "ghp_" + "x" * 36, "KEEP": "1"}
    front = start_front(settings, env=env)
    try:
        with pytest.raises(FrontError, match=f"refused 'trace': cannot write the trace {where}"):
            front.switch_trace(where)
        assert front.switch_trace(tmp_path / "t.jsonl").exchanges == 0  # it carries on
        secret = front.settings.secret
        assert secret is not None and len(secret) == 32  # one of its own, per front
        assert front.proxy_url("ta-1") == f"http://ta-1:{secret}@127.0.0.1:{front.port}"
        cmdline = Path(f"/proc/{front.pid}/cmdline").read_bytes()
        environ = Path(f"/proc/{front.pid}/environ").read_bytes().split(b"\0")
        assert secret.encode() not in cmdline + b"".join(environ)
        assert b"KEEP=1" in environ and not any(v.startswith(b"GH_TOKEN=") for v in environ)
    finally:
        counts = front.stop()
    assert front.stop() is counts  # a second stop: the same last counts
    assert front.process.poll() is not None
    with pytest.raises(FrontError, match="the front has stopped"):
        front.status()
