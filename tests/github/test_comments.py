"""ghbench.github.comments: S4's review comments through GitHub's REST API, as a token
posts them, against the session's emulator over a real socket."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ghbench.errors import GhbenchError
from ghbench.github.comments import post_review_comments
from ghbench.github.seed import EmulatorControl, push_branch

TOKEN = "ghp_test0000000000000000000000000000000001"  # the conftest emulator's


def test_comments_go_on_the_prs_first_file_at_its_head(emulator_server: Any) -> None:
    url = emulator_server.url
    push_branch(EmulatorControl(url, emulator_server.emulator.control_key), "acme/todo", "f", "m")
    with httpx.Client(base_url=url, headers={"Authorization": f"token {TOKEN}"}) as api:
        pr = api.post("/repos/acme/todo/pulls", json={"title": "t", "head": "f", "base": "main"})
        number, sha = pr.json()["number"], pr.json()["head"]["sha"]
        assert post_review_comments(url + "/", TOKEN, [("acme/todo", number, 2)]) == 2
        comments = api.get(f"/repos/acme/todo/pulls/{number}/comments").json()
        first = api.get(f"/repos/acme/todo/pulls/{number}/files").json()[0]["filename"]
    assert [(c["commit_id"], c["path"]) for c in comments] == [(sha, first)] * 2
    assert [c["body"] for c in comments] == [
        "Review note 1 (ghbench S4 burst)",
        "Review note 2 (ghbench S4 burst)",
    ]


def test_a_pr_that_cannot_be_read_is_one_line(emulator_server: Any) -> None:
    with pytest.raises(GhbenchError, match=r"^S4: cannot read acme/todo#404 .*\(HTTP 404\)"):
        post_review_comments(emulator_server.url, TOKEN, [("acme/todo", 404, 1)])


def test_a_token_without_access_is_told_what_it_needs(emulator_server: Any) -> None:
    with pytest.raises(GhbenchError, match="HTTP 401"):
        post_review_comments(emulator_server.url, "ghp_" + "0" * 36, [("acme/todo", 1, 1)])
