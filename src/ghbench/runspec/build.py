"""``build_spec``: a command's flag values as its ``RunSpec``, in one function.

The values come parsed by the flags' types (``ghbench.commands.options``); here each
setting's row of the flag table (``ghbench.runspec.flags``) says what its text becomes
(a ``Duration``, a list of issues, a cell), and a run whose driver would not act on a
typed flag is refused, naming what the flag needs; ``check_kind`` refuses, once a run
knows which kind of driver it runs (AO's daemon or a TypeScript build), a setting that
kind would not act on.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import msgspec

from ghbench.budgets import Budget, parse_budget
from ghbench.errors import UsageError
from ghbench.runspec.cells import SCENARIOS, TOPOLOGIES, Cell, parse_topology, scenario_for
from ghbench.runspec.flag import KIND_NOTES, KIND_NOUNS, Flag, backend_words
from ghbench.runspec.flags import (
    FLAGS,
    MAX_ISSUE_NUMBER,
    MAX_SESSIONS,
    MAX_VIRTUAL_S,
    ORCHESTRATED,
    flags_of,
)
from ghbench.runspec.names import KINDS_OF, DriverKindName, RunBackendName
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.timefmt import MAX_DURATION_S

__all__ = [
    "BUDGET_PARTS",
    "CELL_PARTS",
    "SETTINGS",
    "build_spec",
    "check_kind",
    "check_taken",
    "parse_issue_list",
    "pick_transport",
]

CELL_PARTS = frozenset({"scenario", "topology", "sessions"})
# the flags that make the run's budget (``--repos`` too, when it is a number)
BUDGET_PARTS = frozenset({"budget", "budget_users", "budget_rest", "budget_graphql"})
# what a flag may set: a field of the spec, or a part of its cell or budget
SETTINGS = frozenset(f.name for f in msgspec.structs.fields(RunSpec)) | CELL_PARTS | BUDGET_PARTS

_RANGE = re.compile(r"^([0-9]+)-([0-9]+)$")
_NUMBER = re.compile(r"^[0-9]+$")


def build_spec(
    command: str,
    values: Mapping[str, Any],
    typed: Collection[str] = (),
    *,
    base: RunSpec | None = None,
    env: Mapping[str, str] | None = None,
    words: Mapping[frozenset[RunBackendName], str] | None = None,
) -> RunSpec:
    """The run ``command``'s flags describe: ``base`` with every setting a flag gave
    (a value of None leaves ``base``'s). ``typed`` names the flags given on the command
    line (by ``dest``): one that the run's driver would not act on is refused. ``words``:
    how the command says which GitHub a run calls (``--verify``), for that refusal."""
    spec = base or RunSpec()
    flags = [f for f in flags_of(command) if f.dest in SETTINGS]
    virtual = spec.backend == "simulated" or values.get("backend") == "simulated"
    maximum = MAX_VIRTUAL_S if virtual else MAX_DURATION_S
    changes: dict[str, Any] = {}
    for flag in flags:
        value = values.get(flag.dest)
        if value is not None and flag.dest not in CELL_PARTS | BUDGET_PARTS:
            changes[flag.dest] = _setting(flag, value, maximum, env)
    dests = {f.dest for f in flags}
    if "budget" in dests:
        backend = values.get("backend") or spec.backend
        changes["budget"] = _budget(spec.budget, values, github=backend == "github")
    agents = changes.get("agents", spec.agents)
    cell = _cell(spec.cell, values, dests, agents=agents != "none")
    changes["cell"] = cell
    for dest, runbook in (("warmup", cell.info.warmup_s), ("duration", cell.info.duration_s)):
        if dest in dests and values.get(dest) is None:
            changes[dest] = Duration(runbook, f"{runbook:g}s")
    if "issues" in dests:
        changes["issues"] = _issues(values.get("issues"), cell.sessions)
    built = msgspec.structs.replace(spec, **changes)
    if built.backend != "simulated":  # the orchestrator runs in directories of its own
        built = msgspec.structs.replace(built, out_dir=built.out_dir.resolve())
    if command in ORCHESTRATED:
        check_taken(command, built, values, typed, words)
    return built


def _setting(flag: Flag, value: Any, maximum: float, env: Mapping[str, str] | None) -> Any:
    if flag.kind == "duration":
        return Duration.parse(flag.name, value, allow_zero=flag.zero, maximum=maximum)
    if flag.dest == "repos":
        return () if _count(value) else tuple(r.strip() for r in value.split(",") if r.strip())
    if flag.dest == "transport" and value == "auto":
        return pick_transport(env)
    if flag.kind == "out":
        return Path(value)
    return value


def _count(repos: str | None) -> bool:
    """Whether ``--repos`` is a number (an App installation's repositories), not a list."""
    return repos is not None and _NUMBER.match(repos.strip()) is not None


def _budget(base: Budget | None, values: Mapping[str, Any], *, github: bool) -> Budget | None:
    """``--budget`` and what sizes it (``--repos N``, ``--users``, ``--rest``,
    ``--graphql``); ``base``'s when none of them is given. A list of repositories is
    the ones a run on GitHub uses (``github``); a budget's repositories are a number."""
    repos = values.get("repos")
    counted = _count(repos)
    if repos is not None and not counted and not github:
        raise UsageError(
            f"--repos {repos}: a list names repositories on GitHub (--backend github);"
            " an App installation's are a number, e.g. --budget app --repos 40"
        )
    sizes = {
        "repos": int(repos) if counted and repos is not None else None,
        "users": values.get("budget_users"),
        "rest": values.get("budget_rest"),
        "graphql": values.get("budget_graphql"),
    }
    kind = values.get("budget")
    if kind is None:
        named = next((name for name, value in sizes.items() if value is not None), None)
        if named is None:
            return base
        kinds = {"repos": "app", "users": "app", "rest": "custom", "graphql": "custom"}
        raise UsageError(f"--{named} sizes a budget: give --budget {kinds[named]} with it")
    return parse_budget(kind, **sizes)


def _cell(base: Cell, values: Mapping[str, Any], dests: Collection[str], *, agents: bool) -> Cell:
    scenario = (
        scenario_for(values.get("scenario"), agents=agents)
        if "scenario" in dests
        else SCENARIOS[base.scenario]
    )
    topology = values.get("topology")
    topo = TOPOLOGIES[base.topology if topology is None else parse_topology(topology)]
    sessions = values.get("sessions")
    if sessions is None:  # a spread holds two sessions at least
        sessions = max(base.sessions, topo.min_sessions)
    return Cell(scenario.id, topo.id, sessions)


def _issues(text: str | None, sessions: int) -> tuple[int, ...]:
    """``--issues``, one per session; not given: issues 1 to SESSIONS."""
    if text is None:
        return tuple(range(1, sessions + 1))
    issues = parse_issue_list(text)
    if len(issues) != sessions:
        raise UsageError(
            f"--issues lists {len(issues)} issues but --sessions is {sessions};"
            " give exactly one issue per session"
        )
    return tuple(issues)


def check_taken(
    command: str,
    spec: RunSpec,
    values: Mapping[str, Any],
    typed: Collection[str],
    words: Mapping[frozenset[RunBackendName], str] | None = None,
) -> None:
    """A typed flag (other than its default) that ``spec``'s driver would not act on is
    an error: the user expects it to matter."""
    for flag in flags_of(command):
        if flag.takes is None or flag.dest not in typed:
            continue
        if values.get(flag.dest) == flag.default(command):
            continue
        if flag.dest == "driver" and not flag.taken(spec.driver, spec.backend):
            kinds = KINDS_OF[spec.driver]
            runs_on = backend_words(frozenset().union(*(flag.takes[k] for k in kinds)), words)
            raise UsageError(f"{flag.name} {spec.driver} applies only with {runs_on}; drop it")
        if not flag.taken(spec.driver, spec.backend):
            raise UsageError(f"{flag.name} applies only with {flag.needs(words)}; drop it")


def check_kind(spec: RunSpec, driver_kind: DriverKindName) -> None:
    """A setting only the other kind of ``spec``'s driver acts on (``--ao-layout`` with
    AO's daemon), set in ``spec`` (not ``RunSpec``'s default), is an error: the flags
    alone could not tell, what ``--ao`` names does."""
    default = RunSpec()
    for flag in FLAGS:
        if flag.takes is None or not flag.split(spec.driver, spec.backend):
            continue  # every kind agrees: the flags were checked as they were parsed
        if flag.taken_by(driver_kind, spec.backend):
            continue
        if getattr(spec, flag.dest) == getattr(default, flag.dest):
            continue
        raise UsageError(
            f"{flag.name} applies only with {flag.needs()}; the AO this run drives is"
            f" {KIND_NOUNS[driver_kind]}{KIND_NOTES.get(driver_kind, '')}: drop it"
        )


def pick_transport(env: Mapping[str, str] | None) -> str:
    """``auto``: the real gh when it is installed, else HTTP."""
    path = None if env is None else env.get("PATH")
    return "gh" if shutil.which("gh", path=path) else "http"


def parse_issue_list(text: str) -> list[int]:
    """``1,2,5-9`` -> [1, 2, 5, 6, 7, 8, 9]; duplicates are an error, and so is a list
    longer than MAX_SESSIONS or a number GitHub could not have given an issue."""
    out: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        m = _RANGE.match(part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise UsageError(f"--issues: range {part} runs backwards; write {hi}-{lo}")
            if hi - lo + 1 + len(out) > MAX_SESSIONS:
                raise UsageError(
                    f"--issues: {part} lists {hi - lo + 1:,} issues; give at most"
                    f" {MAX_SESSIONS:,} in all (one per session)"
                )
            out.extend(range(lo, hi + 1))
        elif _NUMBER.match(part):
            out.append(int(part))
        else:
            raise UsageError(f"--issues: {part!r} is not an issue number or range like 5-9")
    if not out:
        raise UsageError("--issues: give at least one issue number, e.g. --issues 1,2,5-9")
    if len(out) > MAX_SESSIONS:
        raise UsageError(f"--issues: {len(out):,} issues; give at most {MAX_SESSIONS:,}")
    if any(n <= 0 for n in out):
        raise UsageError("--issues: issue numbers start at 1")
    if max(out) > MAX_ISSUE_NUMBER:
        raise UsageError(
            f"--issues: {max(out)} is not an issue number (at most {MAX_ISSUE_NUMBER})"
        )
    dupes = sorted(n for n, seen in Counter(out).items() if seen > 1)
    if dupes:
        raise UsageError(f"--issues: issue {dupes[0]} is listed twice; list each issue once")
    return out
