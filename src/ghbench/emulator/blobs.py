"""Actions log downloads: what GitHub's log endpoints redirect to.

GitHub answers ``actions/jobs/{id}/logs`` and ``actions/runs/{id}/logs`` with a 302 to
a URL on its blob storage that works for a minute without a token. The emulator signs
such a URL on its own address (``/_blobs/...``, HMAC with a key of this emulator's,
an expiry one minute ahead on its clock) and serves it here: not the API, so no
token, rate limit or ledger entry, as on GitHub. A bad or expired signature is a
403, an unknown job or run a 404.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import zipfile
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from ghbench.emulator.http import EmuResponse

if TYPE_CHECKING:
    from ghbench.emulator.parts import EmulatorParts
    from ghbench.emulator.state import CheckRun, Store

__all__ = ["BLOB_PREFIX", "blob_url", "serve_blob"]

BLOB_PREFIX = "/_blobs/"
LIFETIME_S = 60  # GitHub: "This link expires after 1 minute."
_TEXT = "text/plain; charset=utf-8"


def _signature(key: bytes, name: str, expires: int) -> str:
    return hmac.new(key, f"{name}\n{expires}".encode(), hashlib.sha256).hexdigest()


def blob_url(parts: EmulatorParts, api: str, name: str) -> str:
    """The signed download URL of ``name`` (``jobs/REPO/JOB.txt``, ``runs/REPO/RUN.zip``)
    under ``api`` (the address the client used)."""
    expires = int(parts.clock.now()) + LIFETIME_S
    signature = _signature(parts.blob_key, name, expires)
    return f"{api}{BLOB_PREFIX}{name}?expires={expires}&sig={signature}"


def serve_blob(parts: EmulatorParts, path: str, query: str) -> EmuResponse:
    """Answer a download of ``path`` (below ``BLOB_PREFIX``)."""
    name = path[len(BLOB_PREFIX) :]
    args = {k: v[0] for k, v in parse_qs(query).items()}
    expires = int(args["expires"]) if args.get("expires", "").isdigit() else 0
    good = hmac.compare_digest(args.get("sig", ""), _signature(parts.blob_key, name, expires))
    if not good or expires < parts.clock.now():
        return _text(403, b"Server failed to authenticate the request.\n")
    body = _blob(parts, name)
    if body is None:
        return _text(404, b"The specified blob does not exist.\n")
    if name.endswith(".zip"):
        return EmuResponse(200, {"content-type": "application/zip"}, body)
    return _text(200, body)


def _blob(parts: EmulatorParts, name: str) -> bytes | None:
    """``jobs/REPO/JOB.txt``: a job's log; ``runs/REPO/RUN.zip``: a run's logs."""
    kind, _, rest = name.partition("/")
    repo_id, _, file = rest.partition("/")
    stem, _, ext = file.partition(".")
    if not (repo_id.isdigit() and stem.isdigit()):
        return None
    store = parts.store
    with parts.lock:
        repo = store.repos.get(int(repo_id))
        if repo is None:
            return None
        if (kind, ext) == ("jobs", "txt"):
            job = store.job(repo, int(stem))
            return None if job is None else store.job_log(job).encode()
        if (kind, ext) == ("runs", "zip"):
            run = store.workflow_run(repo, int(stem))
            return None if run is None else _run_zip(store, store.jobs(run))
    return None


def _text(status: int, body: bytes) -> EmuResponse:
    return EmuResponse(status, {"content-type": _TEXT}, body)


def _run_zip(store: Store, jobs: list[CheckRun]) -> bytes:
    """A run's logs as GitHub zips them: ``N_JOB.txt`` with each job's whole log, and
    ``JOB/N_STEP.txt`` with each step's (the names gh's ``run view --log`` reads)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for index, job in enumerate(jobs):
            when = datetime.fromtimestamp(job.completed_at or job.started_at, UTC)
            stamp = when.timetuple()[:6]
            folder = job.name.replace("/", "").replace(":", "")
            archive.writestr(zipfile.ZipInfo(f"{index}_{folder}.txt", stamp), store.job_log(job))
            for step in store.steps(job):
                if step.lines:
                    text = store.job_log(job, [step])
                    info = zipfile.ZipInfo(f"{folder}/{step.number}_{step.name}.txt", stamp)
                    archive.writestr(info, text)
    return out.getvalue()
