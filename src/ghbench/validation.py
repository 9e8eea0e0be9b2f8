"""One way to validate a config: a msgspec struct with constraints, and errors one can act on.

A config's shape, defaults and limits are declared once, on the struct (``Annotated``
types with ``msgspec.Meta``: ``pattern`` with a ``description`` saying what it means,
``ge``/``gt``, ``Literal`` choices). ``convert`` decodes already-parsed YAML or JSON
into it, and turns msgspec's error into one line that names the file, the key
(``sessions[3].pr``, ``projects.todo-app.repo``) and what is allowed: the choices of a
``Literal``, the known keys when one is unknown, the described form of a pattern, or
the bound of a number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from msgspec import inspect as mi

from ghbench.errors import ConfigError

__all__ = ["convert", "describe_error", "read_text", "updated"]

T = TypeVar("T")

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
# msgspec's path: .field, [index], and [...] for a mapping's value (it names no key)
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<name>[^`]*)`")
_MISSING = re.compile(r"Object missing required field `(?P<name>[^`]*)`")
_EXPECTED = re.compile(r"Expected `(?P<type>[^`]*)`, got `[^`]*`")


def read_text(path: Path, label: str) -> str:
    """A config file's text; ConfigError ``"{label}: ..."`` when it cannot be read or is
    not UTF-8 (a binary file given by mistake), naming the first byte that is not."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{label}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{label}: not UTF-8 text (byte {exc.start}); save it as UTF-8 YAML or JSON"
        ) from None


def convert(data: Any, type_: type[T], *, source: str, prefix: str = "") -> T:
    """``data`` as ``type_``; ConfigError ``"{source}: {key}: ..."`` when it does not fit.

    ``prefix`` is the key ``data`` sits under in the file (``"policy"``).
    """
    try:
        return msgspec.convert(data, type_)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"{source}: {describe_error(exc, data, type_, prefix)}") from None


def updated(struct: T, changes: Mapping[str, Any], *, source: str, prefix: str = "") -> T:
    """A copy of ``struct`` with ``changes`` applied, validated as a whole (the same
    errors as ``convert``, keys named under ``prefix``); ``struct`` is left alone."""
    merged = {**msgspec.structs.asdict(struct), **changes}  # type: ignore[arg-type]
    return convert(merged, type(struct), source=source, prefix=prefix)


def describe_error(exc: msgspec.ValidationError, data: Any, type_: Any, prefix: str = "") -> str:
    """msgspec's message as ``key: what is wrong, what is allowed``."""
    text = str(exc)
    at = _AT.search(text)
    path = _name_mapping_keys(_segments(at.group("path")) if at else [], data, type_)
    detail = text[: at.start()] if at else text
    node, value = _walk(mi.type_info(type_), data, path)
    key = ".".join(k for k in (prefix, _key(path)) if k).replace(".[", "[")
    if m := _UNKNOWN.match(detail):
        known = ", ".join(f.encode_name for f in getattr(_member(node, value), "fields", ()))
        name = f"{key}.{m['name']}" if key else m["name"]
        return f"unknown key {name}; known keys: {known}"
    if m := _MISSING.match(detail):
        name = f"{key}.{m['name']}" if key else m["name"]
        return f"{name} is required"
    if (m := _EXPECTED.fullmatch(detail)) and value is not None:
        detail = f"expected {m['type'].replace(' | ', ' or ')}, got {value!r}"
    return f"{key or '(top level)'}: {_allowed(node, value) or detail}"


_ANY_KEY = -1  # the [...] segment


def _segments(path: str) -> list[str | int]:
    return [
        name if name else (_ANY_KEY if index == "..." else int(index))
        for name, index in _SEGMENT.findall(path)
    ]


def _error_path(data: Any, type_: Any) -> list[str | int] | None:
    """Where converting ``data`` fails (msgspec's path), or None when it does not."""
    try:
        msgspec.convert(data, type_)
    except msgspec.ValidationError as exc:
        at = _AT.search(str(exc))
        return _segments(at.group("path")) if at else []
    return None


def _at(data: Any, path: list[str | int]) -> Any:
    for seg in path:
        if isinstance(data, dict):
            data = data.get(seg)
        elif isinstance(data, list) and isinstance(seg, int) and 0 <= seg < len(data):
            data = data[seg]
        else:
            return None
    return data


def _with(data: Any, path: list[str | int], value: Any) -> Any:
    """A copy of ``data`` with ``value`` at ``path`` (containers on the way copied)."""
    if not path:
        return value
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _with(data[path[0]], path[1:], value)
    return copy


def _name_mapping_keys(path: list[str | int], data: Any, type_: Any) -> list[str | int]:
    """msgspec names no key inside a mapping (``[...]``): find the entry that fails by
    converting ``data`` with that mapping cut down to one entry at a time."""
    out: list[str | int] = []
    for i, seg in enumerate(path):
        named = seg
        mapping = _at(data, out) if seg == _ANY_KEY else None
        if isinstance(mapping, dict):
            for key, value in mapping.items():
                failed = _error_path(_with(data, out, {key: value}), type_)
                if failed is not None and failed[: i + 1] == path[: i + 1]:
                    named = key
                    break
        out.append(named)
    return out


def _key(path: list[str | int]) -> str:
    out = ""
    for seg in path:
        if isinstance(seg, int):
            out += "[...]" if seg == _ANY_KEY else f"[{seg}]"
        else:
            out += f".{seg}" if out else seg
    return out


def _unwrap(node: Any) -> tuple[Any, dict[str, Any]]:
    """The type under Metadata and Optional, and the JSON-schema extras met on the way."""
    extra: dict[str, Any] = {}
    while True:
        if isinstance(node, mi.Metadata):
            extra.update(node.extra_json_schema or {})
            node = node.type
        elif isinstance(node, mi.UnionType):
            kinds = [t for t in node.types if not isinstance(t, mi.NoneType)]
            if len(kinds) != 1:
                return node, extra
            node = kinds[0]
        else:
            return node, extra


def _walk(node: Any, value: Any, path: list[str | int]) -> tuple[Any, Any]:
    """The declared type and the given value at ``path`` (either may end up unknown)."""
    for seg in path:
        inner = _member(node, value)
        if isinstance(seg, int):
            items = getattr(inner, "item_types", None)  # a tuple: one type per place
            if items is not None:
                node = items[seg] if 0 <= seg < len(items) else None
            else:
                node = getattr(inner, "item_type", getattr(inner, "value_type", None))
            listed = isinstance(value, list | tuple) and 0 <= seg < len(value)
            value = value[seg] if listed else None
        else:
            field = next((f for f in getattr(inner, "fields", ()) if f.encode_name == seg), None)
            node = field.type if field else getattr(inner, "value_type", None)
            value = value.get(seg) if isinstance(value, dict) else None
    return node, value


def _member(node: Any, value: Any) -> Any:
    """``node`` unwrapped; of a union, the member a value of this kind decodes as."""
    inner, _ = _unwrap(node)
    if isinstance(inner, mi.UnionType):
        wanted = (mi.StructType, mi.DictType) if isinstance(value, dict) else (mi.StrType,)
        for member in inner.types:
            candidate, _ = _unwrap(member)
            if isinstance(candidate, wanted):
                return candidate
    return inner


def _allowed(node: Any, value: Any) -> str | None:
    """What the value should have been, in words; None when msgspec's text says it best."""
    inner, extra = _unwrap(node)
    shown = "" if value is None else f", got {value!r}"
    if isinstance(inner, mi.LiteralType):
        choices = ", ".join(str(v) for v in inner.values)
        return f"{value!r} is not one of {choices}"
    if "description" in extra and isinstance(inner, mi.StrType):
        return f"{value!r} is not {extra['description']}"
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(inner, mi.IntType | mi.FloatType) and number:
        if inner.gt is not None and value <= inner.gt:
            return f"must be more than {inner.gt}{shown}"
        if inner.ge is not None and value < inner.ge:
            return f"must be at least {inner.ge}{shown}"
        if inner.lt is not None and value >= inner.lt:
            return f"must be less than {inner.lt}{shown}"
        if inner.le is not None and value > inner.le:
            return f"must be at most {inner.le}{shown}"
    return None
