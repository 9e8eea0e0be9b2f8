"""Hostile and mistaken input (issue 12): every case is one line naming the flag or
file, exit 2 (usage) or 1 (runtime), no traceback, and nothing left behind."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import WORKLOAD_FLAGS, clean_env, ghbench, make_project

NINES = "9" * 400
PROJECT = ["--project", "todo-app", "--sessions", "2"]


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _refused(proc: subprocess.CompletedProcess[str], code: int, *needles: str) -> str:
    assert proc.returncode == code, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def _case(argv: list[str], code: int, *needles: str) -> object:
    return pytest.param(argv, code, needles, id=" ".join(argv)[:50])


CASES = [
    # durations: finite, positive, bounded, the bound named
    _case(["simulate", "--duration", NINES], 2, "--duration: ", "is not a duration"),
    _case(["simulate", "--duration", "100000000h"], 2, "longer than the maximum, 24h"),
    _case(["simulate", "--duration", "25h"], 2, "'25h' is longer than the maximum, 24h"),
    _case(["demo", "--warmup", "inf"], 2, "--warmup: 'inf' is not a duration"),
    _case(["demo", "--duration", "nan"], 2, "--duration: 'nan' is not a duration"),
    _case(["measure", *PROJECT, "--duration", "100000000h"], 2, "--duration", "168h"),
    _case(["setup", *PROJECT, "--issues", "1-2", "--poll-interval", "0"], 2, "--poll-interval"),
    _case(["matrix", "run", "--backend", "emulator", "--duration-scale", "nan"], 2, "finite"),
    _case(["capacity", "--budget-fraction", "nan"], 2, "--budget-fraction", "finite"),
    # ranges have a maximum
    _case(["setup", *PROJECT, "--issues", "1-100000000000"], 2, "--issues: 1-100000000000"),
    _case(["setup", "--project", "todo-app", "--sessions", "99999999999", "--issues", "1"], 2),
    _case(["matrix", "run", "--scales", "99999999999"], 2, "--scales: 99999999999"),
    # times outside years 1..9999 once their offset applies
    _case(["report", "--example", "--warmup-end", "0001-01-01T00:00:00+01:00"], 2, "1 to 9999"),
    # matrix selections are checked before matrix-state.json is written
    _case(["matrix", "run", "--priority", "--all"], 2, "--priority and --all"),
    _case(["matrix", "run", "--backend", "github", "--repos", "not-a-repo"], 2, "'not-a-repo'"),
    _case(
        ["matrix", "run", "--backend", "github", "--cells", "S2-T2-10", "--repos", "o/a"],
        2,
        "--repos: cell S2-T2-10",
    ),
    # record: the command is checked before a ghbench-out/ is made
    _case(["record", "--", "/nonexistent"], 1, "cannot run '/nonexistent'"),
]


@pytest.mark.parametrize(("argv", "code", "needles"), CASES)
@pytest.mark.slow
def test_refused_with_one_line_and_nothing_written(
    root: Path, argv: list[str], code: int, needles: tuple[str, ...]
) -> None:
    before = _tree(root)
    flags = WORKLOAD_FLAGS if argv[0] in ("setup", "measure") else []
    proc = ghbench(*argv, *flags, cwd=root, env=clean_env(root))
    _refused(proc, code, *needles)
    assert _tree(root) == before


def test_a_config_that_is_not_utf8_is_named(root: Path) -> None:
    (root / "binary.yaml").write_bytes(b"limits:\n  core: \xff\xfe\n")
    before = _tree(root)
    proc = ghbench("emulator", "serve", "--config", "binary.yaml", cwd=root, env=clean_env(root))
    _refused(proc, 2, "--config binary.yaml: not UTF-8 text (byte 16)")
    proc = ghbench(
        "setup",
        *PROJECT,
        "--issues",
        "1-2",
        "--config",
        "binary.yaml",
        *WORKLOAD_FLAGS,
        cwd=root,
        env=clean_env(root),
    )
    _refused(proc, 2, "binary.yaml: not UTF-8 text")
    assert _tree(root) == before


def test_a_setup_artifact_whose_created_at_is_not_a_date(root: Path) -> None:
    out = root / "out"
    out.mkdir()
    artifact = {
        "schemaVersion": 1,
        "scenarioId": "quiet-steady.single-repo.2",
        "createdAt": "not a date",
        "project": "todo-app",
        "repo": "acme/todo",
        "scenario": "quiet-steady",
        "topology": "single-repo",
        "sessionCount": 2,
        "ready": True,
        "sessions": [],
    }
    (out / "setup-todo-app-quiet-steady.single-repo.2.json").write_text(json.dumps(artifact))
    before = _tree(root)
    proc = ghbench(
        "measure",
        *PROJECT,
        "--duration",
        "1m",
        "--out",
        "out",
        *WORKLOAD_FLAGS,
        cwd=root,
        env=clean_env(root),
    )
    _refused(proc, 1, "createdAt 'not a date' is not a timestamp", "re-create it")
    assert _tree(root) == before


def test_summarize_names_a_directory_as_one(root: Path) -> None:
    proc = ghbench("summarize", "todo-app", cwd=root, env=clean_env(root))
    _refused(proc, 1, "trace todo-app is a directory")


def test_an_out_that_cannot_be_written(root: Path) -> None:
    # sysfs refuses new files even to root, as a read-only directory does to a user
    before = _tree(root)
    proc = ghbench("demo", "--out", "/sys/kernel", cwd=root, env=clean_env(root))
    _refused(proc, 2, "--out /sys/kernel: cannot write there")
    assert _tree(root) == before


@pytest.mark.gh
def test_record_refuses_a_trace_it_cannot_or_must_not_write(root: Path) -> None:
    (root / "a-file").write_text("not a directory\n")
    binary = root / "program.bin"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    before = _tree(root)
    content = binary.read_bytes()
    for trace, needle in (
        ("a-file/gh.jsonl", "a-file is a file, not a directory"),
        ("program.bin", "exists and is not a trace"),
    ):
        proc = ghbench("record", "--trace", trace, "--", "true", cwd=root, env=clean_env(root))
        _refused(proc, 2, f"--trace {trace}", needle)
    assert binary.read_bytes() == content
    assert _tree(root) == before


@pytest.mark.gh
def test_record_skips_a_path_directory_it_may_not_read(tmp_path: Path) -> None:
    """As a shell does. Root reads every directory; as root the command runs without
    the capabilities that let it (setpriv drops CAP_DAC_OVERRIDE and _READ_SEARCH)."""
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    hidden.chmod(0o000)
    env = clean_env(tmp_path, PATH=f"{hidden}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    argv = [sys.executable, "-m", "ghbench", "record", "--", "true"]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv is not None, "setpriv (util-linux) is needed to test this as root"
        argv = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--", *argv]
    try:
        proc = subprocess.run(
            argv,
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    finally:
        hidden.chmod(0o755)
    assert proc.returncode == 0, proc.stderr
    assert "no gh HTTP exchanges were recorded" in proc.stderr


@pytest.mark.slow
def test_a_setup_that_fills_the_disk_says_so(root: Path) -> None:
    """A file-size limit (RLIMIT_FSIZE, inherited by the emulator ghbench starts) is a
    full disk as a writer sees it: the error is the disk, not the emulator."""
    prlimit = shutil.which("prlimit")
    assert prlimit is not None, "prlimit (util-linux) sets the file-size limit"
    argv = ["setup", *PROJECT, "--issues", "1-2", "--poll-interval", "1s", "--out", "out"]
    proc = subprocess.run(
        [prlimit, "--fsize=200000", sys.executable, "-m", "ghbench", *argv, *WORKLOAD_FLAGS],
        cwd=root,
        env=clean_env(root),
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    # the state fills up while setup runs (at start-up the emulator says so itself);
    # setup's progress lines come before the error
    assert proc.returncode == 1, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ") and "(disk I/O error)" in line, line
    assert str(root / "out" / "state" / "emulator") in line
    assert "HTTP 500" not in line.split("the failing call was")[0]
    assert not list((root / "out").glob("setup-*.json"))
