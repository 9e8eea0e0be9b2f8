"""Actions log downloads (``blobs.py``), in-process: the API's 302 names a signed URL on
the emulator's own address that answers without a token for a minute (a job's log as
text, a run's logs as a zip); a changed, missing or expired signature is a 403, a
signed name of no job or run a 404; downloads are not in the ledger."""

from __future__ import annotations

import io
import zipfile

import httpx
from emu_helpers import API, ClientFactory

from ghbench.emulator.blobs import BLOB_PREFIX, blob_url
from ghbench.emulator.core import Emulator

REPO = "acme/todo"
LOG = "collected 3 items\nAssertionError: boom"


def _failed_run(emulator: Emulator, api: httpx.Client) -> tuple[int, dict[str, int]]:
    """A pull request whose CI ran ``tests`` (failed, with LOG) and ``lint``; its run id
    and its jobs' ids by name."""
    emulator.create_pull(REPO, "feat/a")
    emulator.set_ci(REPO, "failure", pr=1, name="tests", log=LOG)
    emulator.set_ci(REPO, "success", pr=1, name="lint")
    run = api.get(f"/repos/{REPO}/actions/runs").json()["workflow_runs"][0]["id"]
    jobs = api.get(f"/repos/{REPO}/actions/runs/{run}/jobs").json()["jobs"]
    return run, {j["name"]: j["id"] for j in jobs}


def test_a_jobs_log_is_a_signed_download_without_a_token_or_a_charge(
    emulator: Emulator, api: httpx.Client, make_client: ClientFactory
) -> None:
    _, jobs = _failed_run(emulator, api)
    redirect = api.get(f"/repos/{REPO}/actions/jobs/{jobs['tests']}/logs")
    assert redirect.status_code == 302
    location = redirect.headers["location"]
    assert location.startswith(f"{API}{BLOB_PREFIX}jobs/")
    charged = emulator.ledger_count()
    download = make_client(token=None).get(location)
    assert download.status_code == 200
    assert download.headers["content-type"] == "text/plain; charset=utf-8"
    assert "AssertionError: boom" in download.text
    assert "x-ratelimit-remaining" not in download.headers
    assert emulator.ledger_count() == charged


def test_a_runs_logs_are_a_zip_of_each_job_and_each_step(
    emulator: Emulator, api: httpx.Client
) -> None:
    run, _ = _failed_run(emulator, api)
    location = api.get(f"/repos/{REPO}/actions/runs/{run}/logs").headers["location"]
    download = api.get(location)
    assert download.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(download.content)) as archive:
        names = archive.namelist()
        whole = archive.read("0_tests.txt").decode()
    assert "1_lint.txt" in names
    assert any(n.startswith("tests/") and n.endswith("_Run tests.txt") for n in names)
    assert "AssertionError: boom" in whole


def test_a_signature_holds_for_a_minute_and_for_its_name_only(
    emulator: Emulator, api: httpx.Client
) -> None:
    _, jobs = _failed_run(emulator, api)
    location = api.get(f"/repos/{REPO}/actions/jobs/{jobs['tests']}/logs").headers["location"]
    other = location.replace(f"/{jobs['tests']}.txt", f"/{jobs['lint']}.txt")
    assert api.get(other).status_code == 403  # signed for another job
    assert api.get(location.replace("sig=", "sig=0")).status_code == 403
    assert api.get(location.split("&sig=")[0]).status_code == 403
    assert api.get(location.split("?")[0]).status_code == 403
    emulator.advance_clock(59)
    assert api.get(location).status_code == 200
    emulator.advance_clock(2)
    expired = api.get(location)
    assert expired.status_code == 403
    assert expired.text == "Server failed to authenticate the request.\n"


def test_a_signed_name_of_nothing_is_a_404(emulator: Emulator, api: httpx.Client) -> None:
    run, jobs = _failed_run(emulator, api)
    repo_id = api.get(f"/repos/{REPO}").json()["id"]
    for name in [
        f"jobs/{repo_id}/999999.txt",  # no such job
        f"runs/{repo_id}/999999.zip",  # no such run
        f"jobs/{repo_id + 1000}/{jobs['tests']}.txt",  # no such repository
        f"jobs/{repo_id}/{jobs['tests']}.zip",  # a job's log is text
        f"runs/{repo_id}/{run}.txt",  # a run's logs are a zip
        f"steps/{repo_id}/{run}.txt",
        f"jobs/acme/{jobs['tests']}.txt",
    ]:
        missing = api.get(blob_url(emulator, API, name))
        assert missing.status_code == 404, name
        assert missing.text == "The specified blob does not exist.\n"
