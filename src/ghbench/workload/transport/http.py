"""The ``http`` transport: httpx makes the request gh would make; no gh needed."""

from __future__ import annotations

import json
import time

import httpx

from ghbench.tls import tls_context
from ghbench.workload.calls import GhCall, GhResult
from ghbench.workload.ghmap import HttpRequest, HttpResponse, plan_call

__all__ = ["HttpTransport", "graphql_url"]


def graphql_url(rest_base: str) -> str:
    """gh's GraphQL endpoint for a REST base (``…/api/v3/`` -> ``…/api/graphql``)."""
    base = rest_base if rest_base.endswith("/") else rest_base + "/"
    if base.endswith("/api/v3/"):
        return base[: -len("v3/")] + "graphql"
    return base + "graphql"


class HttpTransport:
    """httpx against ``rest_base``; proxies come from the environment, as gh's do."""

    def __init__(self, rest_base: str, *, token: str | None, timeout_s: float = 60.0) -> None:
        self.rest_base = rest_base if rest_base.endswith("/") else rest_base + "/"
        self.graphql = graphql_url(self.rest_base)
        self._token = token
        self._client = httpx.Client(
            timeout=timeout_s, trust_env=True, follow_redirects=True, verify=tls_context()
        )

    def _url(self, request: HttpRequest) -> str:
        if request.path == "/graphql":
            return self.graphql
        return self.rest_base + request.path.lstrip("/")

    def exchange(self, request: HttpRequest) -> HttpResponse:
        """One request as gh sends it (the agents' captured requests). A transport error
        answers 599 with the error as its message, as a status gh would fail on."""
        try:
            resp = self._client.request(
                request.method, self._url(request), headers=request.headers, content=request.body
            )
        except httpx.HTTPError as exc:
            body = json.dumps({"message": f"{type(exc).__name__}: {exc}"}).encode()
            return HttpResponse(599, [], body)
        return HttpResponse(resp.status_code, list(resp.headers.multi_items()), resp.content)

    def call(self, call: GhCall) -> GhResult:
        plan = plan_call(call.argv, self._token)
        req = plan.request
        url = self._url(req)
        start = time.monotonic()
        try:
            resp = self._client.request(req.method, url, headers=req.headers, content=req.body)
        except httpx.HTTPError as exc:
            # gh prints the transport error and exits 1; no token is in the message
            return GhResult(
                exit_code=1,
                stdout=b"",
                stderr=f"gh: {type(exc).__name__}: {exc}\n".encode(),
                duration_s=time.monotonic() - start,
            )
        duration = time.monotonic() - start
        answer = HttpResponse(resp.status_code, list(resp.headers.multi_items()), resp.content)
        code, out, err = plan.render(answer)
        return GhResult(code, out, err, duration, http_statuses=(resp.status_code,))

    def close(self) -> None:
        self._client.close()
