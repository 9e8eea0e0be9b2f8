"""The emulator's git repositories: one bare repository per emulated repository.

Objects are written in Python (``objects.py``): a commit made through the API costs a
few SHA-1s and, once the repository is on disk, a few small files; no git process.
Where the repositories live:

- an emulator with a state directory keeps them in ``STATE/git/<repo id>.git``,
  written as objects are made, so they survive a restart with the SQLite records
  that name them;
- an emulator without one (the in-process simulation, tests) keeps objects in
  memory and writes a repository to a temporary directory only when something needs
  git itself (serving a clone, a diff, a merge). A simulation in virtual time never
  does, so it writes nothing; the directory is removed by ``close()`` (or when the
  emulator is garbage-collected, or at exit; one left by a process that was killed is
  removed by the next emulator that needs a temporary directory).

Refs: the emulator's records are the truth. A repository on disk gets the records'
refs when it is written and every ref change after that (``set_ref``); a push changes
refs on disk first and is imported into the records (``emulator/git/imports.py``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import weakref
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ghbench.emulator.git.command import run_git
from ghbench.emulator.git.objects import (
    TREE_MODE,
    FlatTree,
    loose_bytes,
    object_id,
    parse_loose,
    parse_tree,
)
from ghbench.errors import EmulatorError, make_dir

__all__ = ["GitStorage", "RepoGit"]

_CONFIG = """\
[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = true
[http]
\treceivepack = true
[gc]
\tauto = 0
[receive]
\tautogc = false
\tdenyDeleteCurrent = refuse
\thideRefs = refs/pull
"""
_FLAT_CACHE_MAX = 4096


_TEMP_PREFIX = "ghbench-git-"


def _remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _sweep_orphans() -> None:
    """Remove temporary repositories whose process is gone without removing them (a
    process killed, or one that ends with ``os._exit``, as test workers may)."""
    for path in Path(tempfile.gettempdir()).glob(f"{_TEMP_PREFIX}*-*"):
        pid = path.name.removeprefix(_TEMP_PREFIX).partition("-")[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            _remove(path)
        except PermissionError:
            continue  # alive, someone else's


class RepoGit:
    """One repository's objects and refs: in memory until written to ``path``."""

    def __init__(self, path: Path, *, on_disk: bool) -> None:
        self.path = path
        self.on_disk = on_disk
        self.pending: dict[str, tuple[str, bytes]] = {}
        self.flat_cache: dict[str, dict[str, tuple[str, str]]] = {}
        self._fanout: set[str] = set()  # objects/xx directories known to exist

    # -- objects -----------------------------------------------------------------
    def put(self, kind: str, body: bytes) -> str:
        oid = object_id(kind, body)
        if self.on_disk:
            self._write_loose(oid, kind, body)
        else:
            self.pending[oid] = (kind, body)
        return oid

    def _loose_path(self, oid: str) -> Path:
        return self.path / "objects" / oid[:2] / oid[2:]

    def _write_loose(self, oid: str, kind: str, body: bytes) -> None:
        target = self._loose_path(oid)
        if target.exists():
            return
        if oid[:2] not in self._fanout:
            target.parent.mkdir(exist_ok=True)
            self._fanout.add(oid[:2])
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix="tmp_obj_")
        with os.fdopen(fd, "wb") as out:
            out.write(loose_bytes(kind, body))
        os.chmod(tmp, 0o444)
        os.replace(tmp, target)

    def get(self, oid: str) -> tuple[str, bytes] | None:
        """``(type, body)`` of an object, or None if the repository has no such object."""
        found = self.pending.get(oid)
        if found is not None or not self.on_disk:
            return found
        try:
            return parse_loose(self._loose_path(oid).read_bytes())
        except (FileNotFoundError, NotADirectoryError):
            pass
        # packed (a push of many objects): ask git
        _, out = run_git(self.path, ["cat-file", "--batch"], input=oid.encode() + b"\n")
        header, _, rest = out.partition(b"\n")
        parts = header.split()
        if len(parts) != 3:
            return None
        return parts[1].decode(), rest[: int(parts[2])]

    def blob(self, oid: str) -> bytes | None:
        found = self.get(oid)
        return found[1] if found is not None and found[0] == "blob" else None

    def entries(self, tree: str) -> list[tuple[str, str, str]]:
        """``(mode, name, id)`` of each entry of tree object ``tree``."""
        obj = self.get(tree)
        if obj is None or obj[0] != "tree":
            raise EmulatorError(f"git object {tree} is missing from {self.path}")
        return list(parse_tree(obj[1]))

    def flat_tree(self, tree: str) -> dict[str, tuple[str, str]]:
        """Every file under tree ``tree``: path -> (mode, blob id). Cached (trees never
        change); callers must not modify the result."""
        found = self.flat_cache.get(tree)
        if found is not None:
            return found
        out: dict[str, tuple[str, str]] = {}
        stack = [("", tree)]
        while stack:
            prefix, oid = stack.pop()
            obj = self.get(oid)
            if obj is None or obj[0] != "tree":
                raise EmulatorError(f"git object {oid} is missing from {self.path}")
            for mode, name, child in parse_tree(obj[1]):
                if mode == TREE_MODE:
                    stack.append((f"{prefix}{name}/", child))
                else:
                    out[prefix + name] = (mode, child)
        if len(self.flat_cache) >= _FLAT_CACHE_MAX:
            self.flat_cache.clear()
        self.flat_cache[tree] = out
        return out

    def remember_flat(self, tree: str, flat: FlatTree) -> None:
        """Cache a tree the caller just built (saves reading it back)."""
        if len(self.flat_cache) >= _FLAT_CACHE_MAX:
            self.flat_cache.clear()
        self.flat_cache[tree] = dict(flat)

    # -- on disk -----------------------------------------------------------------
    def write(self, refs: Mapping[str, str], head: str) -> None:
        """Lay out the bare repository at ``path`` and write what is in memory."""
        for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags", "info"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)
        config = self.path / "config"
        if not config.exists():
            config.write_text(_CONFIG)
        self.on_disk = True
        for oid, (kind, body) in self.pending.items():
            self._write_loose(oid, kind, body)
        self.pending.clear()
        self.set_head(head)
        for name, sha in refs.items():
            self.set_ref(name, sha)

    def set_head(self, branch: str) -> None:
        if self.on_disk:
            _atomic_write(self.path / "HEAD", f"ref: refs/heads/{branch}\n")

    def set_ref(self, name: str, sha: str | None) -> None:
        """Write (or, with None, delete) ``refs/<name>`` if the repository is on disk."""
        if not self.on_disk:
            return
        target = self.path / "refs" / name
        if sha is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            _atomic_write(target, sha + "\n")
            return
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
        _drop_packed_ref(self.path, f"refs/{name}")
        # git removes directories a deleted ref leaves empty; so do we. After a push
        # git itself has deleted the ref and its folder: nothing is left to remove there.
        parent = target.parent
        while parent != self.path / "refs":
            try:
                parent.rmdir()
            except FileNotFoundError:
                pass
            except OSError:  # not empty: other refs live there
                break
            parent = parent.parent

    def disk_refs(self) -> dict[str, str]:
        """The branches and tags on disk (``heads/main`` -> commit sha; an annotated
        tag peeled to its commit), packed or loose, read without running git."""
        refs: dict[str, str] = {}
        packed = self.path / "packed-refs"
        if packed.exists():
            last = ""
            for line in packed.read_text().splitlines():
                if line.startswith("^") and last:
                    refs[last] = line[1:].strip()  # the peeled value of the line before
                elif line and not line.startswith("#"):
                    sha, _, name = line.partition(" ")
                    last = name.removeprefix("refs/")
                    refs[last] = sha
        base = self.path / "refs"
        for kind in ("heads", "tags"):
            for path in (base / kind).rglob("*"):
                if path.is_file() and not path.name.startswith(".tmp-") and path.suffix != ".lock":
                    sha = path.read_text().strip()
                    refs[path.relative_to(base).as_posix()] = self._peel(sha)
        return {n: s for n, s in refs.items() if n.startswith(("heads/", "tags/"))}

    def _peel(self, sha: str) -> str:
        for _ in range(8):  # a tag of a tag of ... a commit
            found = self.get(sha)
            if found is None or found[0] != "tag":
                return sha
            sha = found[1].split(b"\n", 1)[0].removeprefix(b"object ").decode()
        return sha


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w") as out:
        out.write(text)
    os.replace(tmp, path)


def _drop_packed_ref(git_dir: Path, full_name: str) -> None:
    packed = git_dir / "packed-refs"
    try:
        lines = packed.read_text().splitlines(keepends=True)
    except FileNotFoundError:
        return
    kept, skip_peeled = [], False
    for line in lines:
        if skip_peeled and line.startswith("^"):
            continue
        skip_peeled = line.rstrip("\n").endswith(" " + full_name)
        if not skip_peeled:
            kept.append(line)
    if len(kept) != len(lines):
        _atomic_write(packed, "".join(kept))


class GitStorage:
    """The bare repositories of one emulator, by repository id.

    ``root``: where they live (``STATE/git``), written as objects are made; None: in
    memory, written under a temporary directory on demand and removed by ``close()``.
    """

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.durable = root is not None
        self._temp: Path | None = None
        self._repos: dict[int, RepoGit] = {}
        self._finalizer: Any = None  # weakref.finalize removing the temporary directory
        if root is not None:
            make_dir(
                root,
                lambda why: EmulatorError(
                    f"cannot create the emulator's git directory {root} ({why}); "
                    "choose a writable --state directory"
                ),
            )

    def _base(self) -> Path:
        if self.root is not None:
            return self.root
        if self._temp is None:
            _sweep_orphans()
            self._temp = Path(tempfile.mkdtemp(prefix=f"{_TEMP_PREFIX}{os.getpid()}-"))
            self._finalizer = weakref.finalize(self, _remove, self._temp)
        return self._temp

    def repo(self, repo_id: int) -> RepoGit:
        found = self._repos.get(repo_id)
        if found is None:
            if self.durable:
                found = RepoGit(self._base() / f"{repo_id}.git", on_disk=True)
            else:
                found = RepoGit(Path(f"<memory>/{repo_id}.git"), on_disk=False)
            self._repos[repo_id] = found
        return found

    def create(self, repo_id: int, head: str) -> RepoGit:
        """A new, empty repository (on disk at once when durable)."""
        repo = self.repo(repo_id)
        if self.durable:
            repo.write({}, head)
        return repo

    def on_disk(self, repo_id: int, refs: Mapping[str, str], head: str) -> Path:
        """The repository's directory, written first if it is only in memory."""
        repo = self.repo(repo_id)
        if not repo.on_disk:
            repo.path = self._base() / f"{repo_id}.git"
            repo.write(refs, head)
        return repo.path

    def forget(self, repo_ids: Iterable[int] | None = None) -> None:
        """Drop repositories (all of them with None), on disk too."""
        ids = list(self._repos) if repo_ids is None else list(repo_ids)
        for repo_id in ids:
            repo = self._repos.pop(repo_id, None)
            if repo is not None and repo.on_disk:
                _remove(repo.path)
        if repo_ids is None and self.root is not None:
            for child in self.root.glob("*.git"):
                _remove(child)

    def close(self) -> None:
        """Remove the temporary directory, if one was made."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
            self._temp = None
            self._repos.clear()
