"""Who may use the control API (``/_ghbench/``, also ``/api/v3/_ghbench/``).

The control API mints users and tokens, rewrites state, moves the clock and reads the
ledger, so it is closed to anyone but the ghbench processes that started the emulator:

1. ``Host`` (or an absolute-form target's authority) must be a loopback name:
   ``localhost``, ``*.localhost``, ``127.0.0.0/8`` or ``::1``. A DNS-rebinding page
   reaches a loopback socket under its own host name and is refused here.
2. Nothing a browser sends is accepted: a request with ``Origin``, or with
   ``Sec-Fetch-Site`` other than ``none``, is refused; so are bodies that are not
   ``application/json`` (a page can send ``text/plain`` cross-origin without a
   preflight; JSON needs one, which the control API never grants).
3. The request carries the emulator's control key in ``X-Ghbench-Control-Key``
   (a custom header, which no cross-origin page may set without a preflight either).
   The key is a secret held in memory: ``EmulatorBackend`` mints it and hands it to
   the emulator process in its environment (``GHBENCH_EMULATOR_CONTROL_KEY``), never
   in argv or a file. An emulator started without one mints its own, which nobody
   else knows: its control API is then closed to everyone.

Each refusal is a JSON ``{"message"}`` that says what was wrong; none says what the
key is or how long.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from urllib.parse import urlsplit

from ghbench.emulator.http import EmuRequest

__all__ = [
    "CONTROL_KEY_ENV",
    "CONTROL_KEY_HEADER",
    "ControlRefusal",
    "is_loopback_host",
    "new_control_key",
    "refusal",
]

CONTROL_KEY_ENV = "GHBENCH_EMULATOR_CONTROL_KEY"
CONTROL_KEY_HEADER = "X-Ghbench-Control-Key"
_HEADER = CONTROL_KEY_HEADER.lower()
_JSON_TYPES = ("application/json",)


def new_control_key() -> str:
    """A fresh random key (held in memory by whoever starts an emulator)."""
    return secrets.token_urlsafe(32)


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or address, optionally ``[v6]`` or with ``:port``) names
    this machine's loopback interface."""
    name = host.strip().lower()
    if name.startswith("["):  # [::1]:port
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:  # name:port or v4:port
        name = name.partition(":")[0]
    name = name.rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class ControlRefusal:
    """Why a control request is refused: its status and message."""

    __slots__ = ("message", "status")

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.message = message


def _host(request: EmuRequest) -> str | None:
    if request.path.startswith(("http://", "https://")):
        return urlsplit(request.path).netloc or request.headers.get("host")
    return request.headers.get("host")


def refusal(request: EmuRequest, key: str) -> ControlRefusal | None:
    """None when ``request`` may use the control API; otherwise why not."""
    host = _host(request)
    if host is not None and not is_loopback_host(host):
        return ControlRefusal(
            403,
            f"the control API answers only loopback host names, not {host!r}; "
            "send it to 127.0.0.1 or localhost",
        )
    headers = request.headers
    site = headers.get("sec-fetch-site")
    if "origin" in headers or (site is not None and site.strip().lower() != "none"):
        return ControlRefusal(403, "the control API does not answer requests made by web pages")
    given = headers.get(_HEADER, "")
    if not hmac.compare_digest(given.encode("utf-8", "replace"), key.encode()):
        what = "a wrong" if given else "no"
        return ControlRefusal(
            401,
            f"the control API needs the emulator's control key in {CONTROL_KEY_HEADER} "
            f"({what} key was sent); the process that started the emulator holds it "
            f"(for `ghbench emulator serve`, set {CONTROL_KEY_ENV} in its environment "
            "and in the client's)",
        )
    if request.body.strip():
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media not in _JSON_TYPES:
            return ControlRefusal(
                415, f"control API bodies are application/json, not {media or 'untyped'}"
            )
    return None
