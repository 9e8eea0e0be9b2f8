"""What git can hold as a ref's name and as a path in a tree: the rules the emulator
checks before a name reaches its repositories on disk (a ref is a file under
``refs/``, so ``heads/../../x`` would be a file elsewhere).

Ref names follow ``git check-ref-format``; paths, what GitHub's contents API accepts.
"""

from __future__ import annotations

__all__ = ["path_problem", "ref_problem"]

# characters git refuses anywhere in a ref name (besides control characters)
_REF_FORBIDDEN = frozenset(" ~^:?*[\\\x7f")


def ref_problem(name: str) -> str | None:
    """Why ``name`` (below ``refs/``: ``heads/main``) cannot be a ref, or None."""
    if not name or name.endswith(("/", ".")) or name == "@":
        return "it is empty or ends with a slash or a dot"
    if ".." in name or "@{" in name or "//" in name:
        return "it holds '..', '@{' or '//'"
    if any(c in _REF_FORBIDDEN or ord(c) < 0x20 for c in name):
        return "it holds a space, a control character or one of ~^:?*[\\"
    if any(part.startswith(".") or part.endswith(".lock") for part in name.split("/")):
        return "a component starts with a dot or ends with .lock"
    return None


def path_problem(path: str) -> str | None:
    """Why ``path`` cannot be a file's path in a tree, or None: a leading slash, an
    empty, ``.``, ``..`` or ``.git`` component, or a NUL byte."""
    if path.startswith("/"):
        return "path cannot start with a slash"
    if any(
        part in ("", ".", "..") or part.lower() == ".git" or "\x00" in part
        for part in path.rstrip("/").split("/")
    ):
        return "path contains a malformed path component"
    return None
