"""``--github github`` end to end, offline: the CLI as a user runs it against a
GitHub-compatible server (``github_server``: the emulator over a real socket, seeded as
GitHub would be, reached only through ``GITHUB_API_URL`` (github.com's layout, or a
GitHub Enterprise Server's ``/api/v3`` root with ``GH_ENTERPRISE_TOKEN``) or ``GH_HOST`` +
proxies, and a token from ``GH_TOKEN``, ``GITHUB_TOKEN`` or gh's login).

What this proves and what only real GitHub can: docs/harness.md, "Testing the GitHub
backend offline".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tools import GH_BUILDS, GhBuild, require_gh

from .github_server import (
    TOKEN,
    USER,
    Answer,
    GitHubServer,
    files_holding_a_token,
    gh_routing,
    github_server,
)
from .helpers import clean_env, ghbench

pytestmark = pytest.mark.slow

# one repository per route (gh's: one per build)
GH_REPOS = {b.id: f"acme/{b.id.replace('.', '-')}" for b in GH_BUILDS}
REPOS = {"acme/http": 3, **dict.fromkeys(GH_REPOS.values(), 3), "acme/enterprise": 3}
REPOS["acme/tokens"] = 1
CONFIG = """projects:
  bench:
    repo: {repo}
    path: {path}
    defaultBranch: main
"""
CONTENTS = "PUT /repos/{owner}/{repo}/contents/{path}"


@pytest.fixture(scope="module")
def server() -> Any:
    with github_server(REPOS) as served:
        yield served


def _project(root: Path, repo: str) -> Path:
    (root / "bench").mkdir(parents=True)
    (root / "home").mkdir()
    (root / "agent-orchestrator.yaml").write_text(CONFIG.format(repo=repo, path=root / "bench"))
    return root


def _setup(root: Path, env: dict[str, str], transport: str, issues: int) -> Any:
    return ghbench(
        "setup",
        *("--project", "bench", "--sessions", str(issues), "--issues", f"1-{issues}"),
        *("--driver", "workload", "--github", "github", "--transport", transport),
        *("--poll-interval", "1s", "--tick", "1s", "--out", "out"),
        cwd=root,
        env=env,
    )


@dataclass
class Run:
    root: Path
    repo: str
    route: str  # how ghbench reaches the server: http, gh or enterprise (see _env)
    outputs: str  # everything ghbench printed
    setup_charges: list[Any]  # the ledger entries setup caused
    window: list[Answer]  # the /rate_limit answers during measure
    measure_charges: list[Any]  # the ledger entries measure caused

    def artifact(self, pattern: str) -> dict[str, Any]:
        (path,) = (self.root / "out").glob(pattern)
        data: dict[str, Any] = json.loads(path.read_text())
        return data


def _env(server: GitHubServer, root: Path, route: str) -> dict[str, str]:
    if route == "http":  # the REST root named outright
        return clean_env(root, GH_TOKEN=TOKEN, GITHUB_API_URL=server.url)
    if route == "enterprise":  # a GitHub Enterprise Server's REST root: GraphQL at /api/graphql
        # its host (127.0.0.1:PORT) is an enterprise host: gh's GH_ENTERPRISE_TOKEN applies
        return clean_env(root, GH_ENTERPRISE_TOKEN=TOKEN, GITHUB_API_URL=f"{server.url}/api/v3")
    # gh's way to a GitHub-like host: GH_HOST and the proxies; the REST root is derived
    return {**clean_env(root, GH_TOKEN=TOKEN), **gh_routing(server.url, root / "home")}


# gh's route once per gh build (tools.GH_BUILDS), named by its version
ROUTES = [
    "http",
    *(pytest.param(b, marks=pytest.mark.gh, id=b.id) for b in GH_BUILDS),
    "enterprise",
]


@pytest.fixture(scope="module", params=ROUTES)
def run(request: pytest.FixtureRequest, server: GitHubServer, tmp_path_factory: Any) -> Run:
    build: GhBuild | None = request.param if isinstance(request.param, GhBuild) else None
    route = "gh" if build is not None else request.param
    if build is not None:
        require_gh(build)
    transport = "gh" if route == "gh" else "http"
    repo = f"acme/{route}" if build is None else GH_REPOS[build.id]
    root = _project(tmp_path_factory.mktemp(f"github-{route}"), repo)
    env = _env(server, root, route)
    if build is not None:
        env["PATH"] = build.path_env(env["PATH"])
    emulator = server.emulator
    ledger_before = emulator.ledger_count()
    setup = _setup(root, env, transport, 3)
    assert setup.returncode == 0, setup.stderr
    setup_charges = emulator.ledger_entries()[ledger_before:]
    answers_before = len(emulator.answers)
    ledger_mid = emulator.ledger_count()
    # no warmup: the model's cold start (AO 0.10's: every guard and the list answer 200)
    # is in the window, so the brackets see core requests
    measure = ghbench(
        *("measure", "--project", "bench", "--sessions", "3", "--tick", "1s"),
        *("--driver", "workload", "--github", "github", "--transport", transport),
        *("--warmup", "0s", "--duration", "3s", "--out", "out"),
        cwd=root,
        env=env,
    )
    assert measure.returncode == 0, measure.stderr
    outputs = setup.stdout + setup.stderr + measure.stdout + measure.stderr
    window = emulator.answers[answers_before:]
    measure_charges = emulator.ledger_entries()[ledger_mid:]
    return Run(root, repo, route, outputs, setup_charges, window, measure_charges)


def test_setup_opens_a_pr_per_issue_with_a_contents_api_commit(run: Run, server: Any) -> None:
    data = run.artifact("setup-bench-*.json")
    assert data["ready"] is True and data["repo"] == run.repo
    sessions = data["sessions"]
    assert [s["issue"] for s in sessions] == [1, 2, 3]
    headers = {"Authorization": f"token {TOKEN}"}
    for s in sessions:
        pr = httpx.get(
            f"{server.url}/repos/{run.repo}/pulls/{s['prNumber']}", headers=headers
        ).json()
        assert (
            pr["state"] == "open" and pr["head"]["ref"] == s["branch"] == f"feat/issue-{s['issue']}"
        )
    # on GitHub nobody can push for the agents: each branch got its commit through the
    # contents API (the emulator refuses a PR whose branch has no commit of its own)
    assert [e.endpoint for e in run.setup_charges].count(CONTENTS) == 3
    assert {e.owner for e in run.setup_charges} == {USER}


def test_brackets_are_the_servers_rate_limit_and_burn_its_ledger(run: Run, server: Any) -> None:
    card = run.artifact("scorecard-*.json")
    assert card["incomplete"] is False
    assert card["scorecard"]["benchmarkControlCalls"] == 2
    before, after = run.window  # the server answered /rate_limit exactly twice
    snaps = card["rateLimitSnapshots"]
    for resource in ("core", "graphql"):
        for key in ("limit", "remaining", "used", "reset"):
            assert snaps["before"][resource][key] == before.bucket(resource)[key]
            assert snaps["after"][resource][key] == after.bucket(resource)[key]
    charged = server.emulator.charges_between(before, after)
    assert card["scorecard"]["bracketDelta"] == {
        "core": charged.get("core", 0),
        "graphql": charged.get("graphql", 0),
    }
    assert charged["core"] > 0
    # the orchestrator spent the very budget the brackets read: its rows carry that
    # bucket's reset (one token, one user, one window)
    rows = [json.loads(line) for line in Path(card["trace"]).read_text().splitlines()]
    core_resets = {r["rateLimitReset"] for r in rows if r.get("rateLimitResource") == "core"}
    assert core_resets == {before.bucket("core")["reset"]}
    assert all(r["ok"] or r.get("httpStatus") == 304 for r in rows)


def test_the_orchestrator_reaches_github_the_way_the_user_said(run: Run, server: Any) -> None:
    config = (run.root / "out" / "state" / "workload" / "bench" / "workload.yaml").read_text()
    if run.route == "http":
        assert f"api_url: {server.url}/" in config
    elif run.route == "enterprise":
        # the enterprise layout end to end: REST under /api/v3 and the orchestrator's
        # GraphQL at /api/graphql (the server answers /api/v3/graphql with a 404)
        assert f"api_url: {server.url}/api/v3/" in config
        charges = run.setup_charges + run.measure_charges
        assert any(e.resource == "graphql" for e in charges)
        assert [e for e in charges if e.endpoint.endswith("(unknown)")] == []  # no wrong paths
    else:  # GH_HOST alone: gh's REST root for it, reached through the proxy like gh
        assert "host: github.localhost" in config
        assert "api_url: http://api.github.localhost/" in config
    assert "token_env: GH_TOKEN" in config


def test_nothing_under_out_holds_the_token(run: Run) -> None:
    assert list((run.root / "out").rglob("*"))
    assert files_holding_a_token(run.root / "out", TOKEN) == []
    assert TOKEN not in run.outputs


def _token_root(tmp_path: Path) -> Path:
    return _project(tmp_path, "acme/tokens")


def _owners_since(server: GitHubServer, start: int) -> set[str]:
    return {e.owner for e in server.emulator.ledger_entries()[start:]}


def test_github_token_is_used_when_gh_token_is_absent(server: GitHubServer, tmp_path: Path) -> None:
    token = "ghp_" + "GithubTokenOnly" * 3
    server.emulator.create_user("hubot", [token])
    root = _token_root(tmp_path)
    start = server.emulator.ledger_count()
    env = clean_env(root, GITHUB_TOKEN=token, GITHUB_API_URL=server.url)
    proc = _setup(root, env, "http", 1)
    assert proc.returncode == 0, proc.stderr
    assert _owners_since(server, start) == {"hubot"}
    assert files_holding_a_token(root / "out", token) == []


@pytest.mark.gh
def test_gh_login_for_gh_host_is_used_when_no_token_is_set(
    server: GitHubServer, tmp_path: Path
) -> None:
    # gh's own store holds a token per host; GH_HOST names the server's. gh 2.23's
    # 'gh auth token' ignores GH_HOST and would answer with github.com's token (a bad
    # one here), so ghbench must ask for the host.
    token = "ghp_" + "FromGhHostsYml" * 3
    server.emulator.create_user("mona", [token])
    root = _token_root(tmp_path)
    env = {**clean_env(root), **gh_routing(server.url, root / "home")}
    Path(env["GH_CONFIG_DIR"], "hosts.yml").write_text(
        f"github.com:\n    oauth_token: ghp_{'x' * 36}\n    user: someone\n"
        f"github.localhost:\n    oauth_token: {token}\n    user: mona\n"
    )
    assert "GH_TOKEN" not in env and "GITHUB_TOKEN" not in env
    start = server.emulator.ledger_count()
    proc = _setup(root, env, "gh", 1)
    assert proc.returncode == 0, proc.stderr
    assert _owners_since(server, start) == {"mona"}
    assert files_holding_a_token(root / "out", token) == []


def test_a_rejected_token_is_one_line_and_nothing_is_written(
    server: GitHubServer, tmp_path: Path
) -> None:
    # GH_TOKEN wins over a valid GITHUB_TOKEN, as in gh; the server refuses it
    bad = "ghp_" + "NotARegisteredToken" * 2
    root = _token_root(tmp_path)
    env = clean_env(root, GH_TOKEN=bad, GITHUB_TOKEN=TOKEN, GITHUB_API_URL=server.url)
    proc = _setup(root, env, "http", 1)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "token from GH_TOKEN was rejected (401 Bad credentials)" in lines[0]
    assert "set a valid token in GH_TOKEN" in lines[0]
    assert bad not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
    assert not (root / "out").exists()


def test_a_missing_issue_is_refused_before_anything_starts(
    server: GitHubServer, tmp_path: Path
) -> None:
    root = _token_root(tmp_path)  # acme/tokens has issue #1 only
    env = clean_env(root, GH_TOKEN=TOKEN, GITHUB_API_URL=server.url)
    proc = _setup(root, env, "http", 2)
    assert proc.returncode == 1
    (line,) = proc.stderr.strip().splitlines()
    # #2 is missing, or is the PR a token test opened for #1: issues and PRs share numbers
    assert line == (
        "error: acme/tokens has no issue #2 (1 of 2 missing; a pull request's number is not"
        " an issue): create them in acme/tokens, or pass --issues that exist"
    )
    assert not (root / "out").exists()
