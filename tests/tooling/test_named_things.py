"""What the docs, the README and src's comments and docstrings name exists: every dotted
``ghbench.…`` name is a module or an attribute of one, every ``make`` target a README
or doc tells a reader to run is in the Makefile, and every repository path a doc names
is there. A rename that leaves a stale name behind fails here, not in a reader's hands."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROSE = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
SOURCES = sorted((ROOT / "src" / "ghbench").glob("**/*.py"))

_DOTTED = re.compile(r"(?<![/\w])ghbench(?:\.[A-Za-z_]\w*)+")
_FILE_SUFFIXES = frozenset({"lock", "log", "db", "json", "jsonl", "md", "py", "toml", "sock"})
_MAKE = re.compile(r"`make ([a-z][\w-]*)`")
_MAKE_TARGET = re.compile(r"^([a-z][\w.-]*):", re.MULTILINE)
# a path a doc gives for this repository's own code (not a file in an emulated repository,
# nor one in AO's tarball), and a link from one page to another
_REPO_PATH = re.compile(r"`((?:src/ghbench|tests|bench|scripts)/[\w./-]*\w)`")
_LINK = re.compile(r"\]\(([\w./-]+\.md)(?:#[\w-]*)?\)")


def _resolves(name: str) -> bool:
    """``name`` is a module, or a module's attribute (a submodule counts)."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attr in parts[split:]:
            if hasattr(target, attr):
                target = getattr(target, attr)
            elif isinstance(target, ModuleType) and hasattr(target, "__path__"):
                try:
                    target = importlib.import_module(f"{target.__name__}.{attr}")
                except ModuleNotFoundError:
                    return False
            else:
                return False
        return True
    return False


def _named(paths: list[Path]) -> dict[str, set[str]]:
    named: dict[str, set[str]] = {}
    for path in paths:
        for found in _DOTTED.finditer(path.read_text(encoding="utf-8")):
            if found.group(0).rsplit(".", 1)[1] not in _FILE_SUFFIXES:  # ghbench.lock, a file
                named.setdefault(found.group(0), set()).add(str(path.relative_to(ROOT)))
    return named


@pytest.mark.parametrize("where", ["prose", "src"])
def test_every_dotted_ghbench_name_exists(where: str) -> None:
    named = _named(PROSE if where == "prose" else SOURCES)
    assert len(named) > 20  # the scan reads what it should
    stale = {name: sorted(files) for name, files in named.items() if not _resolves(name)}
    assert stale == {}


def test_the_resolver_refuses_what_is_not_there() -> None:
    assert _resolves("ghbench.runspec.flags.FLAGS")
    assert _resolves("ghbench.emulator.graphql")
    assert not _resolves("ghbench.artifacts.lock")  # a name a comment once gave
    assert not _resolves("ghbench.runspec.flags.NO_SUCH_TABLE")


def test_every_make_target_the_docs_give_is_in_the_makefile() -> None:
    targets = set(_MAKE_TARGET.findall((ROOT / "Makefile").read_text(encoding="utf-8")))
    given = {t for p in PROSE for t in _MAKE.findall(p.read_text(encoding="utf-8"))}
    assert {"test", "demo", "bench"} <= given
    assert given - targets == set()


def test_every_repository_path_the_docs_give_is_there() -> None:
    given = {
        (found.group(1), str(p.relative_to(ROOT)))
        for p in PROSE
        for found in _REPO_PATH.finditer(p.read_text(encoding="utf-8"))
    }
    assert len(given) > 10
    missing = sorted((path, doc) for path, doc in given if not (ROOT / path).exists())
    assert missing == []


def test_every_link_between_pages_is_to_a_page_that_is_there() -> None:
    links = {(p, found.group(1)) for p in PROSE for found in _LINK.finditer(p.read_text("utf-8"))}
    assert links
    broken = sorted(
        (str(p.relative_to(ROOT)), link) for p, link in links if not (p.parent / link).exists()
    )
    assert broken == []
