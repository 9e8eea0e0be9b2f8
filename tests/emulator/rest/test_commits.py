"""A commit's CI over REST (httpx over the in-process core): combined status, statuses,
check runs created, updated and listed."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


def test_statuses_and_check_runs(seeded: Emulator, api: httpx.Client) -> None:
    head = api.get(f"{REPO}/pulls/4").json()["head"]["sha"]
    combined = api.get(f"{REPO}/commits/{head}/status").json()
    assert combined["state"] == "success" and combined["total_count"] == 1
    posted = api.post(f"{REPO}/statuses/{head}", json={"state": "failure", "context": "lint"})
    assert posted.status_code == 201
    assert api.get(f"{REPO}/commits/{head}/status").json()["state"] == "failure"
    runs = api.get(f"{REPO}/commits/{head}/check-runs", params={"per_page": 1}).json()
    assert runs["total_count"] == 1 and runs["check_runs"][0]["conclusion"] == "success"
    made = api.post(f"{REPO}/check-runs", json={"name": "build", "head_sha": head})
    assert made.status_code == 201 and made.json()["status"] == "queued"
    run_id = made.json()["id"]
    done = api.patch(f"{REPO}/check-runs/{run_id}", json={"conclusion": "failure"})
    assert done.json()["status"] == "completed" and done.json()["conclusion"] == "failure"
    assert api.get(f"{REPO}/commits/{head}/check-runs").json()["total_count"] == 2
    assert api.post(f"{REPO}/statuses/{head}", json={"state": "nope"}).status_code == 422
