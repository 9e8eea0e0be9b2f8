"""Offline stand-ins' one script: artifacts and the Actions cache as directories.

act runs a workflow offline, but actions/upload-artifact, actions/download-artifact and
actions/cache are not to be had here (only checkout's and setup-python's sources are,
../shared/actions/README.md). tests/ci/test_act.py puts in act's action cache small
composite actions under those names, with the inputs the documented workflow uses, that
call this script; it moves files as the real actions' contracts say:

- ``upload``: ``path`` (lines, globs with ``**``) under the artifact ``name``, rooted at
  the paths' least common ancestor; a name taken twice in a run is an error (v4 on);
- ``download``: the artifact ``name`` into ``path``, or each one matching ``pattern``
  into ``path/NAME``;
- ``restore``/``save``: ``path`` under ``key``; a restore takes the exact key, else the
  newest key starting with one of ``restore-keys``; a saved key is never overwritten.

Artifacts live in ``$GHBENCH_ACT_ARTIFACTS`` (one directory per workflow run), the cache
in ``$GHBENCH_ACT_CACHE`` (shared by the runs, as a repository's cache is). Inputs come
in the environment (``INPUT_*``), outputs go to ``$GITHUB_OUTPUT``.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import shutil
import sys
from pathlib import Path


def _lines(name: str) -> list[str]:
    return [line.strip() for line in os.environ.get(name, "").splitlines() if line.strip()]


def _output(**values: str) -> None:
    with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as out:
        for key, value in values.items():
            out.write(f"{key}={value}\n")


def _files(patterns: list[str]) -> tuple[Path, list[Path]]:
    found: list[Path] = []
    roots: list[str] = []
    for pattern in patterns:
        for match in sorted(glob.glob(pattern, recursive=True)):
            path = Path(match)
            if path.is_dir():
                roots.append(str(path))
                found += [p for p in sorted(path.rglob("*")) if p.is_file()]
            elif path.is_file():
                roots.append(str(path.parent))
                found.append(path)
    root = Path(os.path.commonpath(roots)) if roots else Path(".")
    return root, found


def upload() -> int:
    name = os.environ["INPUT_NAME"] or "artifact"
    root, files = _files(_lines("INPUT_PATH"))
    if not files:
        print(f"no files for the artifact {name}", file=sys.stderr)
        return 1 if os.environ.get("INPUT_IF_NO_FILES_FOUND") == "error" else 0
    target = Path(os.environ["GHBENCH_ACT_ARTIFACTS"]) / name
    if target.exists():
        print(f"an artifact named {name} was already uploaded in this run", file=sys.stderr)
        return 1
    for f in files:
        dest = target / f.relative_to(root)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    print(f"uploaded {len(files)} file(s) as {name}")
    return 0


def download() -> int:
    store = Path(os.environ["GHBENCH_ACT_ARTIFACTS"])
    path = Path(os.environ.get("INPUT_PATH") or ".")
    name, pattern = os.environ.get("INPUT_NAME", ""), os.environ.get("INPUT_PATTERN", "")
    if name:
        if not (store / name).is_dir():
            print(f"no artifact named {name}", file=sys.stderr)
            return 1
        shutil.copytree(store / name, path, dirs_exist_ok=True)
        return 0
    for artifact in sorted(store.iterdir()) if store.is_dir() else []:
        if fnmatch.fnmatch(artifact.name, pattern or "*"):
            shutil.copytree(artifact, path / artifact.name, dirs_exist_ok=True)
            print(f"downloaded {artifact.name}")
    return 0


def restore() -> int:
    cache = Path(os.environ["GHBENCH_ACT_CACHE"])
    key = os.environ["INPUT_KEY"]
    matched = key if (cache / key).is_dir() else None
    for prefix in _lines("INPUT_RESTORE_KEYS") if matched is None else []:
        keys = [p for p in cache.iterdir() if p.name.startswith(prefix)] if cache.is_dir() else []
        if keys:
            matched = max(keys, key=lambda p: p.stat().st_mtime_ns).name
            break
    if matched is None:
        print(f"no cache for {key}")
        _output(**{"cache-hit": "false", "cache-primary-key": key, "cache-matched-key": ""})
        return 0
    for path in _lines("INPUT_PATH"):
        if (cache / matched / path).exists():
            shutil.copytree(cache / matched / path, path, dirs_exist_ok=True)
    print(f"restored {matched}")
    hit = "true" if matched == key else "false"
    _output(**{"cache-hit": hit, "cache-primary-key": key, "cache-matched-key": matched})
    return 0


def save() -> int:
    target = Path(os.environ["GHBENCH_ACT_CACHE"]) / os.environ["INPUT_KEY"]
    if target.exists():
        print(f"a cache for {target.name} exists; not saved")
        return 0
    for path in _lines("INPUT_PATH"):
        shutil.copytree(path, target / path)
    print(f"saved {target.name}")
    return 0


if __name__ == "__main__":
    sys.exit(
        {"upload": upload, "download": download, "restore": restore, "save": save}[sys.argv[1]]()
    )
