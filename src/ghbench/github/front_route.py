"""How a GitHub front reaches the GitHub a run measures (``Backend.front_route``).

AO 0.10's daemon calls ``https://api.github.com`` (its address is fixed in its code) and
its agents github.com: a front (``ghbench.front``) in their way either answers from the
emulator (emulate) or sends the requests on (forward): to GitHub, or to a server that
serves GitHub's API at its root (``GITHUB_API_URL=http://HOST:PORT``, a stand-in for
GitHub). An enterprise REST root (``https://HOST/api/v3``) is not such a server: the
daemon's paths would miss its ``/api/v3``.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from ghbench.errors import UsageError
from ghbench.front.settings import FrontMode

__all__ = ["GITHUB_API", "FrontRoute", "forward_route"]

GITHUB_API = "https://api.github.com"


@dataclass(frozen=True)
class FrontRoute:
    """The front's mode and upstream (None: GitHub itself)."""

    mode: FrontMode
    upstream: str | None


def forward_route(api_url: str) -> FrontRoute:
    """Forward to GitHub, or to ``api_url`` when it serves GitHub's API at its root."""
    root = api_url.rstrip("/")
    if root == GITHUB_API:
        return FrontRoute("forward", None)
    parts = urlsplit(root)
    if parts.path not in ("", "/"):
        raise UsageError(
            f"GITHUB_API_URL={api_url}: AO 0.10 calls api.github.com's paths, which a REST"
            " root under a path (GitHub Enterprise's /api/v3) does not serve; unset"
            " GITHUB_API_URL to measure against github.com"
        )
    return FrontRoute("forward", f"{parts.scheme}://{parts.netloc}")
