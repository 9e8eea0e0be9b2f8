"""The environment a client needs to go through the front. Pure: values in, a dict out.

- ``HTTPS_PROXY``/``HTTP_PROXY`` (and their lower-case forms: curl and git read only
  ``http_proxy`` in lower case) at the front, with the front's secret as the proxy
  credential's password (a client without it is refused) and the session as its user
  name: ``http://SESSION:SECRET@127.0.0.1:PORT``, ``-`` for a client with no session
  (urllib sends no credential without a user). git is also told to send it with its
  CONNECT (``GIT_HTTP_PROXY_AUTHMETHOD=basic``) rather than after a challenge;
- the CA through every variable a client reads (``hosts.CA_VARIABLES``): the bundle
  (the system's roots plus the CA) where the variable replaces the client's roots, the
  CA alone for ``NODE_EXTRA_CA_CERTS``, which adds to Node's;
- ``NO_PROXY`` keeps the caller's entries but those that would let a client reach
  one of GitHub's hosts around the front (``github.com``, ``.github.com``, ``*``),
  and always has the loopback names: a client's calls to a local server (the AO
  daemon's own API) must not go through the front, which refuses them in emulate mode;
- Node.js: ``NODE_USE_ENV_PROXY=1`` (Node's own proxy support, where the version has
  it) and the preload (``node.PRELOAD``) added to the caller's ``NODE_OPTIONS``, where
  it does not. Only the preload's path goes there: the secret stays in the proxy URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

from ghbench.front.downstream import NO_SESSION
from ghbench.front.hosts import CA_VARIABLES, GITHUB_HOSTS

__all__ = ["LOOPBACK", "client_environment", "no_proxy", "node_options", "proxy_url"]

LOOPBACK = ("localhost", "127.0.0.1", "::1")
_PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")


def proxy_url(port: int, secret: str | None, session: str | None = None) -> str:
    """The front's proxy URL: ``secret`` as its credential's password, ``session`` as
    its user name; without a secret (a front open to all) none unless a session."""
    if secret is None and session is None:
        return f"http://127.0.0.1:{port}"
    user = quote(session if session is not None else NO_SESSION, safe="")
    return f"http://{user}:{quote(secret or '-', safe='')}@127.0.0.1:{port}"


def _bypasses_github(entry: str) -> bool:
    name = entry.strip().lower().lstrip("*").lstrip(".")
    if not name:
        return entry.strip() == "*"
    return any(host == name or host.endswith("." + name) for host in GITHUB_HOSTS)


def no_proxy(existing: str | None) -> str:
    """``existing`` without the entries that bypass the front for GitHub, plus loopback."""
    kept = [e.strip() for e in (existing or "").split(",") if e.strip()]
    kept = [e for e in kept if not _bypasses_github(e)]
    kept += [name for name in LOOPBACK if name not in kept]
    return ",".join(kept)


def node_options(existing: str | None, preload: Path) -> str:
    """``existing`` (the caller's ``NODE_OPTIONS``) with ``--require PRELOAD`` added
    once; the path is quoted (Node reads double-quoted values there), for a path with
    spaces."""
    quoted = '"' + str(preload).replace("\\", "\\\\").replace('"', '\\"') + '"'
    option = f"--require {quoted}"
    if existing and option in existing:
        return existing
    return f"{existing} {option}" if existing else option


def client_environment(
    port: int,
    *,
    secret: str | None,
    bundle: Path,
    ca_cert: Path,
    session: str | None = None,
    base: Mapping[str, str] | None = None,
    node_preload: Path | None = None,
) -> dict[str, str]:
    """The variables to add to a client's environment (``base``: the environment they
    are added to, whose ``NO_PROXY`` and ``NODE_OPTIONS`` are kept); ``node_preload``:
    the Node preload's file (None: Node clients get only the proxy and the CA)."""
    url = proxy_url(port, secret, session)
    env = dict.fromkeys(_PROXY_VARIABLES, url)
    for variable in CA_VARIABLES:
        env[variable] = str(ca_cert if variable == "NODE_EXTRA_CA_CERTS" else bundle)
    existing = base or {}
    bypass = no_proxy(existing.get("NO_PROXY") or existing.get("no_proxy"))
    env["NO_PROXY"] = env["no_proxy"] = bypass
    # git (libcurl asked for any proxy auth method) would send the credential only
    # after a 407 challenge; basic sends it with the CONNECT, as every other client does
    env["GIT_HTTP_PROXY_AUTHMETHOD"] = "basic"
    if node_preload is not None:
        env["NODE_USE_ENV_PROXY"] = "1"
        env["NODE_OPTIONS"] = node_options(existing.get("NODE_OPTIONS"), node_preload)
    return env
