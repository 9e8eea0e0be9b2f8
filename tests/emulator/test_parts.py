"""What every request path of one emulator shares (``parts.py``): the rate-limit
headers, how answers are built (a free 304 without a body's type, a primary refusal
that says nothing is left), ``/rate_limit``'s document, and a ``--state`` directory
an older ghbench wrote is refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.emulator.errors import NotFound, PrimaryRateLimited
from ghbench.emulator.graphql_contract import BucketView
from ghbench.emulator.parts import EmulatorParts, rate_headers
from ghbench.errors import EmulatorError

VIEW = BucketView("core", 5000, 4990, 10, 1_700_003_600)


def test_rate_headers() -> None:
    assert rate_headers(VIEW) == {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "4990",
        "x-ratelimit-used": "10",
        "x-ratelimit-reset": "1700003600",
        "x-ratelimit-resource": "core",
    }


@pytest.fixture
def parts() -> EmulatorParts:
    return EmulatorParts(clock=VirtualClock(), seed=1)


def test_answers_carry_the_bucket_and_the_request_id(parts: EmulatorParts) -> None:
    parts.request_count = 26
    answer = parts.respond(201, b"{}", VIEW, {"etag": '"x"'})
    assert answer.status == 201 and answer.body == b"{}"
    assert answer.headers["x-github-request-id"] == "GHB:0000001A"
    assert answer.headers["x-ratelimit-remaining"] == "4990"
    assert answer.headers["etag"] == '"x"'
    assert answer.headers["content-type"].startswith("application/json")
    same = parts.not_modified('"x"', "Tue, 14 Nov 2023 22:13:20 GMT", VIEW)
    assert same.status == 304 and same.body == b""
    assert "content-type" not in same.headers
    assert same.headers["last-modified"] == "Tue, 14 Nov 2023 22:13:20 GMT"


def test_a_primary_refusal_says_nothing_is_left(parts: EmulatorParts) -> None:
    refused = parts.error_response(PrimaryRateLimited("API rate limit exceeded", status=429), VIEW)
    assert refused.status == 429
    assert refused.headers["x-ratelimit-remaining"] == "0"
    assert refused.headers["x-ratelimit-used"] == "10"
    assert json.loads(refused.body)["message"] == "API rate limit exceeded"
    missing = parts.error_response(NotFound(), VIEW)
    assert missing.status == 404 and missing.headers["x-ratelimit-remaining"] == "4990"


def test_the_rate_limit_document(parts: EmulatorParts) -> None:
    anonymous = parts.rate_limit_document("ip:127.0.0.1")
    assert list(anonymous["resources"]) == ["core", "graphql", "search"]
    assert anonymous["rate"] == anonymous["resources"]["core"]
    assert anonymous["rate"]["limit"] == 60  # GitHub's limit for no token
    parts.limiter.limits["core"] = (7, 3600)
    user = parts.rate_limit_document("octo")
    assert user["rate"] == {"limit": 7, "used": 0, "remaining": 7, "reset": user["rate"]["reset"]}
    assert {"core", "graphql", "search"} <= set(user["resources"])


def test_a_state_directory_without_git_repositories_is_refused(tmp_path: Path) -> None:
    first = EmulatorParts(clock=VirtualClock(), state_dir=tmp_path)
    first.store.create_repo("acme", "todo")  # its first commit
    first.close()
    shutil.rmtree(tmp_path / "git")  # as an older ghbench left it
    with pytest.raises(EmulatorError, match="older ghbench"):
        EmulatorParts(clock=VirtualClock(), state_dir=tmp_path)
    again = EmulatorParts(clock=VirtualClock(), state_dir=tmp_path / "fresh")
    assert again.durable
    again.close()
