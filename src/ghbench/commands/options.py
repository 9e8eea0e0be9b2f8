"""The flag table's rows as click options: ``flag_options``, the one decorator.

``@flag_options("setup")`` gives a command every row of ``ghbench.runspec.flags`` that
names it, each with its type, its default for that command and its help; the command's
function receives its run as ``spec: RunSpec`` (``ghbench.runspec.build.build_spec``),
and by name whatever else it asks for: a row that sets no setting (``--json``), its own
options, ``typed`` (the flags given on the command line).
"""

from __future__ import annotations

import functools
import inspect
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

import click
from click.core import ParameterSource

from ghbench.artifacts.outdir import check_out_dir, held_out_dir
from ghbench.runspec.build import SETTINGS, build_spec
from ghbench.runspec.flag import Flag
from ghbench.runspec.flags import flags_of
from ghbench.runspec.names import RunBackendName
from ghbench.runspec.spec import RunSpec
from ghbench.workload.agents.profiles import canonical_agent_profile
from ghbench.workload.profiles import canonical_profile

__all__ = [
    "FiniteFloatRange",
    "flag_options",
    "given_flags",
    "hold_out",
    "path_option",
    "row_type",
]

F = TypeVar("F", bound=Callable[..., Any])
Base = RunSpec | Callable[[Mapping[str, Any]], RunSpec] | None


class FiniteFloatRange(click.FloatRange):
    """``click.FloatRange`` that also refuses ``nan`` and ``inf``: a NaN compares false
    with every bound, so the range alone lets it through."""

    name = "float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class _Named(click.Choice[str]):
    """A choice typed by its name or an old alias; the value is always the name, so what
    a run records does not depend on which of the two the user typed."""

    def __init__(self, choices: tuple[str, ...], canonical: Callable[[str], str]) -> None:
        super().__init__(choices)
        self.canonical = canonical

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return self.canonical(super().convert(value, param, ctx))


class _OutDir(click.ParamType):  # type: ignore[type-arg]
    """``--out``: a directory ghbench may write, checked before any work starts."""

    name = "directory"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = Path(value)
        check_out_dir(path, param.opts[0] if param is not None else "--out")
        return path


def _int(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


def _agents(name: str) -> str:
    return "none" if name == "none" else canonical_agent_profile(name)


def row_type(row: Flag, command: str) -> Any:
    """The click type of ``row``'s values in ``command`` (None: text)."""
    low, high = row.bounds
    kinds: dict[str, Callable[[], Any]] = {
        "choice": lambda: click.Choice(row.choices_for(command)),
        "int": lambda: (
            click.INT if row.bounds == (None, None) else click.IntRange(_int(low), _int(high))
        ),
        "number": lambda: FiniteFloatRange(min=low, min_open=True, max=high),
        "out": _OutDir,
        "file": lambda: click.Path(path_type=Path, **_PATH_KINDS["file"]),
        "profile": lambda: _Named(row.choices, canonical_profile),
        "agents": lambda: _Named(row.choices, _agents),
    }
    return kinds[row.kind]() if row.kind in kinds else None


def _option(row: Flag, command: str) -> Callable[[F], F]:
    default, required = row.default(command), row.required(command)
    if required:
        shown: bool | str = False
    elif default is None:
        shown = row.unset or False
    else:
        shown = not (default is False or default == ())
    return click.option(
        *row.names_in(command),
        row.dest,
        type=row_type(row, command),
        default=default,
        required=required,
        is_flag=row.kind == "switch",
        multiple=row.kind == "many",
        show_default=shown,
        metavar=row.metavar or ("DURATION" if row.kind == "duration" else None),
        help=row.help_for(command),
    )


_PATH_KINDS: dict[str, dict[str, bool]] = {
    "file": {"dir_okay": False},
    "dir": {"file_okay": False},
    "any": {},
}


def path_option(
    *names: str, help: str, kind: str = "file", required: bool = False, absolute: bool = False
) -> Callable[[F], F]:
    """A command's own option naming a path (``kind``: a file, a directory or either),
    given as a ``Path``; unset, it is None unless ``required``."""
    return click.option(
        *names,
        type=click.Path(path_type=Path, resolve_path=absolute, **_PATH_KINDS[kind]),
        default=None,
        required=required,
        help=help,
    )


def hold_out(out_dir: Path, flag: str = "--out") -> None:
    """``out_dir`` held by this run until the command ends (``held_out_dir``): taken
    after the flags are checked and before anything is written there."""
    click.get_current_context().with_resource(held_out_dir(out_dir, flag))


def given_flags() -> frozenset[str]:
    """The parameters of the running command given on its command line."""
    ctx = click.get_current_context()
    return frozenset(
        name for name in ctx.params if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    )


def flag_options(
    command: str, *, base: Base = None, words: Mapping[frozenset[RunBackendName], str] | None = None
) -> Callable[[F], F]:
    """The table's rows for ``command`` as its click options. The function gets, by the
    names of its parameters: ``spec`` (the run they describe, from ``base``: a spec, or
    one made from the values), ``typed`` (``given_flags``) and any flag's value."""
    rows = flags_of(command)

    def decorate(func: F) -> F:
        parameters = inspect.signature(func).parameters
        wanted = set(parameters)
        every = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
        missing = [r.name for r in rows if r.dest not in SETTINGS and r.dest not in wanted]
        assert every or not missing, f"{command}: {missing} reach no parameter"

        @functools.wraps(func)
        def run(**values: Any) -> Any:
            typed = given_flags()
            kwargs = {
                name: value
                for name, value in values.items()
                if name in wanted or (every and name not in SETTINGS)
            }
            if "spec" in wanted:
                start = base(values) if callable(base) else base
                kwargs["spec"] = build_spec(
                    command, values, typed, base=start, env=os.environ, words=words
                )
            if "typed" in wanted:
                kwargs["typed"] = typed
            return func(**kwargs)

        wrapped: Callable[..., Any] = run
        for row in reversed(rows):
            wrapped = _option(row, command)(wrapped)
        return cast(F, wrapped)

    return decorate
