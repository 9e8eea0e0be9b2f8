"""Helpers for the REST tests: writing files with the contents API, branches, blob ids."""

from __future__ import annotations

import base64
import hashlib

import httpx

REPO = "/repos/acme/todo"


def blob(text: str) -> str:
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def put(api: httpx.Client, path: str, text: str, **extra: object) -> httpx.Response:
    body = {"message": f"write {path}", "content": base64.b64encode(text.encode()).decode()}
    return api.put(f"{REPO}/contents/{path}", json=body | extra)


def branch(api: httpx.Client, name: str) -> str:
    main = api.get(f"{REPO}/git/ref/heads/main").json()["object"]["sha"]
    assert api.post(f"{REPO}/git/refs", json={"ref": f"refs/heads/{name}", "sha": main}).is_success
    return str(main)


def sha_of(api: httpx.Client, name: str) -> str:
    return str(api.get(f"{REPO}/git/ref/heads/{name}").json()["object"]["sha"])
