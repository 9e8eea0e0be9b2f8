"""A driver's directory layout written as data: each path one line, ``home = Below("home")``,
instead of a property a path."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self, overload

__all__ = ["Below"]


class Below:
    """A path below an instance's directory (its ``root`` attribute unless ``base``
    names another), read as an attribute of the instance."""

    def __init__(self, name: str, *, base: str = "root") -> None:
        self.name = name
        self.base = base

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Self: ...
    @overload
    def __get__(self, obj: object, owner: type[Any] | None = None) -> Path: ...
    def __get__(self, obj: object | None, owner: type[Any] | None = None) -> Path | Self:
        if obj is None:
            return self
        directory: Path = getattr(obj, self.base)
        return directory / self.name
