"""git's object format, in Python: ids, encodings and parsing. Pure functions.

An object's id is the SHA-1 of ``"<type> <size>\\0" + body``; a loose object on disk is
that header and body, zlib-compressed. The emulator writes blobs, trees and commits
this way (no git process per commit), so its shas are the ones git computes for the
same content, and ``git`` reads the objects as its own.

A *flat tree* maps each file's path to ``(mode, blob id)``; ``write_tree`` turns one
into git's nested tree objects and ``parse_tree`` reads one level back.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

__all__ = [
    "FILE_MODE",
    "TREE_MODE",
    "FlatTree",
    "ParsedCommit",
    "Signature",
    "commit_body",
    "loose_bytes",
    "object_id",
    "parse_commit",
    "parse_loose",
    "parse_tree",
    "write_tree",
]

FILE_MODE = "100644"
TREE_MODE = "40000"
TreeEntry = tuple[str, str]  # (mode, object id)
FlatTree = Mapping[str, TreeEntry]  # path -> (mode, blob id)
ObjectSink = Callable[[str, bytes], str]  # (type, body) -> id


def object_id(kind: str, body: bytes) -> str:
    """git's id of an object of type ``kind`` with ``body``."""
    return hashlib.sha1(b"%s %d\0" % (kind.encode(), len(body)) + body).hexdigest()


def loose_bytes(kind: str, body: bytes, level: int = 1) -> bytes:
    """The bytes of a loose object file (git reads any zlib level)."""
    return zlib.compress(b"%s %d\0" % (kind.encode(), len(body)) + body, level)


def parse_loose(data: bytes) -> tuple[str, bytes]:
    """``(type, body)`` of a loose object file's bytes."""
    raw = zlib.decompress(data)
    header, _, body = raw.partition(b"\0")
    kind, _, _size = header.partition(b" ")
    return kind.decode(), body


@dataclass(frozen=True)
class Signature:
    """An author or committer line: ``Name <email> 1700000000 +0000``."""

    name: str
    email: str
    when: int  # epoch seconds
    tz: str = "+0000"

    def encode(self) -> bytes:
        return f"{self.name} <{self.email}> {self.when} {self.tz}".encode()

    @classmethod
    def decode(cls, line: bytes) -> Signature:
        text = line.decode("utf-8", "replace")
        name, _, rest = text.partition(" <")
        email, _, stamp = rest.partition("> ")
        when, _, tz = stamp.strip().partition(" ")
        try:
            seconds = int(when)
        except ValueError:
            seconds = 0
        return cls(name.strip(), email, seconds, tz or "+0000")


def commit_body(
    tree: str, parents: list[str], author: Signature, committer: Signature, message: str
) -> bytes:
    lines = [b"tree " + tree.encode()]
    lines += [b"parent " + p.encode() for p in parents]
    lines += [b"author " + author.encode(), b"committer " + committer.encode()]
    text = message if message.endswith("\n") else message + "\n"
    return b"\n".join(lines) + b"\n\n" + text.encode()


@dataclass(frozen=True)
class ParsedCommit:
    tree: str
    parents: list[str]
    author: Signature
    committer: Signature
    message: str


def parse_commit(body: bytes) -> ParsedCommit:
    head, _, message = body.partition(b"\n\n")
    tree, parents = "", []
    author = committer = Signature("", "", 0)
    for line in head.split(b"\n"):
        key, _, value = line.partition(b" ")
        if key == b"tree":
            tree = value.decode()
        elif key == b"parent":
            parents.append(value.decode())
        elif key == b"author":
            author = Signature.decode(value)
        elif key == b"committer":
            committer = Signature.decode(value)
    return ParsedCommit(tree, parents, author, committer, message.decode("utf-8", "replace"))


def parse_tree(body: bytes) -> Iterator[tuple[str, str, str]]:
    """``(mode, name, id)`` for each entry of a tree object."""
    pos = 0
    while pos < len(body):
        space = body.index(b" ", pos)
        nul = body.index(b"\0", space)
        mode = body[pos:space].decode()
        name = body[space + 1 : nul].decode("utf-8", "surrogateescape")
        yield mode, name, body[nul + 1 : nul + 21].hex()
        pos = nul + 21


def _tree_body(entries: dict[str, TreeEntry]) -> bytes:
    # git sorts entries by name, a directory's name as if it ended with "/"
    def key(name: str) -> bytes:
        mode = entries[name][0]
        raw = name.encode("utf-8", "surrogateescape")
        return raw + b"/" if mode == TREE_MODE else raw

    out = bytearray()
    for name in sorted(entries, key=key):
        mode, oid = entries[name]
        out += mode.encode() + b" " + name.encode("utf-8", "surrogateescape") + b"\0"
        out += bytes.fromhex(oid)
    return bytes(out)


def write_tree(flat: FlatTree, sink: ObjectSink) -> str:
    """Write the nested tree objects of ``flat`` through ``sink``; the root tree's id."""
    root: dict[str, object] = {}
    for path, entry in flat.items():
        node = root
        *dirs, name = path.split("/")
        for part in dirs:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValueError(f"{path}: {part} is a file, not a directory")
            node = child
        if isinstance(node.get(name), dict):
            raise ValueError(f"{path} is a directory, not a file")
        node[name] = entry

    def emit(node: dict[str, object]) -> str:
        entries: dict[str, TreeEntry] = {}
        for name, value in node.items():
            if isinstance(value, dict):
                entries[name] = (TREE_MODE, emit(value))
            else:
                assert isinstance(value, tuple)
                entries[name] = value
        return sink("tree", _tree_body(entries))

    return emit(root)
