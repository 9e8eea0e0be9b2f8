"""The control API lets no stranger in (issue 12, case 2): a key only ghbench holds,
loopback host names only, nothing a web page can send; and ``serve --host`` stays on
loopback unless told otherwise."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from emu_helpers import API, TOKEN

from ghbench.emulator.control_access import CONTROL_KEY_ENV, CONTROL_KEY_HEADER, is_loopback_host
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest
from ghbench.emulator.process import start_emulator_process
from ghbench.emulator.transport import EmulatorTransport


def _control(emulator: Emulator, path: str, *, key: str | None = "", **headers: str) -> int:
    """POST ``path`` in-process with ``headers``; ``key`` "" means the emulator's own."""
    sent = dict(headers)
    if key is not None:
        sent[CONTROL_KEY_HEADER] = key or emulator.control_key
    response = emulator.handle(EmuRequest("POST", path, headers=sent, body=b""))
    return response.status


def test_the_key_is_required_and_compared(emulator: Emulator) -> None:
    assert _control(emulator, "/_ghbench/reset", key=None) == 401
    assert _control(emulator, "/_ghbench/reset", key="not-the-key") == 401
    assert _control(emulator, "/api/v3/_ghbench/reset", key=None) == 401  # GHES layout too
    assert emulator.store.repos  # nothing was reset
    assert _control(emulator, "/_ghbench/reset") == 200
    assert not emulator.store.repos


def test_an_emulator_given_a_key_keeps_it() -> None:
    assert Emulator(control_key="k-123").control_key == "k-123"
    assert Emulator().control_key != Emulator().control_key  # minted, never a default


@pytest.mark.parametrize(
    "host",
    ["attacker.example", "attacker.example:8080", "10.0.0.5", "[2001:db8::1]:80", "0.0.0.0"],
)
def test_only_loopback_host_names_are_answered(emulator: Emulator, host: str) -> None:
    # a DNS-rebinding page reaches the loopback socket with its own host name
    assert _control(emulator, "/_ghbench/reset", host=host) == 403
    assert _control(emulator, f"http://{host}/_ghbench/reset") == 403  # absolute form
    assert emulator.store.repos


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8080", "localhost", "api.github.localhost", "[::1]:9", "127.1.2.3"]
)
def test_loopback_names(host: str) -> None:
    assert is_loopback_host(host)


@pytest.mark.parametrize("host", ["example.com", "localhost.example", "0.0.0.0", "::", "1.2.3.4"])
def test_names_that_are_not_loopback(host: str) -> None:
    assert not is_loopback_host(host)


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://127.0.0.1:9999"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_browser_requests_are_refused_even_with_the_key(
    emulator: Emulator, headers: dict[str, str]
) -> None:
    assert _control(emulator, "/_ghbench/reset", **headers) == 403
    assert emulator.store.repos


def test_a_typed_address_is_not_a_browser_refusal(emulator: Emulator) -> None:
    # Sec-Fetch-Site: none is the user's own navigation: only the key decides
    assert _control(emulator, "/_ghbench/reset", key=None, **{"Sec-Fetch-Site": "none"}) == 401


def test_bodies_must_be_json(emulator: Emulator) -> None:
    with httpx.Client(
        base_url=API,
        transport=EmulatorTransport(emulator),
        headers={CONTROL_KEY_HEADER: emulator.control_key},
    ) as client:
        body = b'{"login": "mallory", "tokens": ["t"]}'
        plain = client.post("/_ghbench/users", content=body, headers={"content-type": "text/plain"})
        assert plain.status_code == 415 and "application/json" in plain.json()["message"]
        typed = client.post(
            "/_ghbench/users",
            content=body,
            headers={"content-type": "application/json; charset=utf-8"},
        )
        assert typed.status_code == 200
    assert emulator.store.user("mallory") is not None


# -- a real browser ------------------------------------------------------------------
_PAGE = """<!doctype html><title>elsewhere</title><script>
window.outcomes = [];
const emulator = %r;
const mint = '{"login": "mallory", "tokens": ["stolen"]}';
fetch(emulator + "/_ghbench/users",
      {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: mint})
  .then(r => outcomes.push("text/plain: " + r.type), e => outcomes.push("text/plain: failed"));
fetch(emulator + "/_ghbench/reset",
      {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"})
  .then(r => outcomes.push("json: " + r.status), e => outcomes.push("json: failed"));
</script>"""


@pytest.fixture
def page_elsewhere(emulator_server: Any) -> Iterator[str]:
    """A page on another origin (another port) that tries the control API."""
    body = (_PAGE % emulator_server.url).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.needs("chromium")
@pytest.mark.slow
def test_a_web_page_in_chromium_cannot_use_the_control_api(
    emulator_server: Any, page_elsewhere: str, tmp_path: Path
) -> None:
    from ghbench.drivers.common.chromium import Chromium

    emulator = emulator_server.emulator
    browser = Chromium("chromium", tmp_path / "chromium.log", timeout=20.0)
    browser.start()
    try:
        tab = browser.open_page()
        browser.navigate(tab, page_elsewhere)
        assert browser.wait_until(tab, "window.outcomes && outcomes.length === 2", 15.0)
        outcomes = sorted(browser.evaluate(tab, "outcomes"))
    finally:
        browser.close()
    # the simple text/plain POST was sent (an opaque answer), the JSON one stopped at
    # its preflight; the emulator refused both, so nothing was minted or reset
    assert outcomes == ["json: failed", "text/plain: opaque"]
    assert emulator.status_counts.get(403, 0) >= 2
    assert emulator.store.user("mallory") is None
    assert emulator.store.repos


# -- ghbench emulator serve --------------------------------------------------------------
def _serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env)


def test_serve_refuses_a_non_loopback_host_without_the_flag() -> None:
    done = _serve("--host", "0.0.0.0", "--port", "0")
    assert done.returncode == 2
    assert done.stderr.startswith("error: --host 0.0.0.0: not a loopback address")
    assert "--allow-remote" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.slow
def test_serve_with_allow_remote_warns_and_the_control_api_stays_loopback_only() -> None:
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--host", "0.0.0.0"]
    proc = subprocess.Popen(
        [*argv, "--allow-remote", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**_clean_env(), CONTROL_KEY_ENV: "k"},
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        port = int(line.split("listening on http://0.0.0.0:", 1)[1].split()[0])
        warning = proc.stderr.readline()
        assert warning.startswith("warning: --host 0.0.0.0 --allow-remote:")
        headers = {CONTROL_KEY_HEADER: "k"}
        foreign = httpx.get(
            f"http://127.0.0.1:{port}/_ghbench/health",
            headers={**headers, "Host": "203.0.113.9"},
        )
        assert foreign.status_code == 403
        local = httpx.get(f"http://127.0.0.1:{port}/_ghbench/health", headers=headers)
        assert local.status_code == 200
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != CONTROL_KEY_ENV}


@pytest.mark.slow
def test_serve_without_a_key_says_its_control_api_is_closed(tmp_path: Path) -> None:
    with start_emulator_process(None, tokens=[TOKEN]) as proc:
        # start_emulator_process always passes a key: the line names where it came from
        assert f"control API: the key in {CONTROL_KEY_ENV}" in proc.ready_line
        assert proc.control_key not in proc.ready_line
        assert httpx.get(f"{proc.url}/_ghbench/health").status_code == 401
        keyed = httpx.get(
            f"{proc.url}/_ghbench/health", headers={CONTROL_KEY_HEADER: proc.control_key}
        )
        assert keyed.status_code == 200
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--port", "0"]
    bare = subprocess.Popen(
        argv, stdout=subprocess.PIPE, text=True, env=_clean_env(), start_new_session=True
    )
    try:
        assert bare.stdout is not None
        line = bare.stdout.readline()
        assert f"control API closed: set {CONTROL_KEY_ENV} before serve to use it" in line
    finally:
        bare.terminate()
        bare.communicate(timeout=30)
