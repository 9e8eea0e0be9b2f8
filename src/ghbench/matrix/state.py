"""The plan of one ``matrix run`` invocation, kept for ``--resume``, and its policy.

``matrix-state.json`` records which cells the invocation meant to run, in order, and
the ``RunSpec`` every cell runs with (backend, driver, seed, duration scale, repos,
transport, profile, tick, AO command, agents: whatever changes what a cell measures), so
``--resume`` runs the remaining cells exactly as the interrupted invocation would have.
Progress is not stored here: a cell is done when a run of this invocation (same
``matrixRun`` id, ``ghbench.matrix.runs``) says ``ok``, so a crash between writing a run
and updating any index loses nothing.

The policy: ``--resume`` runs the stored spec, and a typed flag that contradicts it is
refused (``resume_plan``; which flags are settings is the flag table's, as is what a
fresh run's driver takes); the AO a matrix runs is fixed when it starts
(``resolve_ao``), so a resume from elsewhere runs the same one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from ghbench.artifacts.io import replace_atomic
from ghbench.clock import Clock
from ghbench.errors import ArtifactError, GhbenchError, UsageError
from ghbench.runspec.cells import Cell
from ghbench.runspec.flag import Flag
from ghbench.runspec.flags import flags_of
from ghbench.runspec.names import RUN_BACKEND_NAMES
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.timefmt import iso_s
from ghbench.workload.agents.profiles import profile_before_gh_2_102
from ghbench.workload.profiles import unalias_profile

__all__ = [
    "READABLE_VERSIONS",
    "STATE_FILE",
    "STATE_SCHEMA_VERSION",
    "MatrixPlan",
    "describe_settings",
    "load_plan",
    "new_plan",
    "resolve_ao",
    "resume_plan",
    "save_plan",
]

STATE_FILE = "matrix-state.json"
# Format history:
#   1: the selection, backend, driver, seed, scales, sessionIds (repos always empty).
#   2: the run's settings: durationScale, repos, transport, profile, tick, aoCommand.
#   3: agents (the agent model's profile, or none).
#   4: agents name the gh their requests are captured from (claude-code-gh-2.102); a
#      version-3 plan's claude-code ran gh 2.23's (claude-code-gh-2.23).
#   5: the settings as the run's spec (``spec``: a RunSpec) instead of flat fields.
STATE_SCHEMA_VERSION = 5
READABLE_VERSIONS = (1, 2, 3, 4, 5)
COMMAND = "matrix run"


class MatrixPlan(msgspec.Struct, kw_only=True, rename="camel", frozen=True):
    schema_version: int = STATE_SCHEMA_VERSION
    matrix_run: str
    scales: list[int]
    cells: list[str]  # ids, in run order
    # what every cell runs with (each cell's own timing, seed and directory are set
    # when it runs: ``ghbench.matrix.runner.cell_spec``); None: a merged directory's
    spec: RunSpec | None = None

    @property
    def settings_recorded(self) -> bool:
        """False for a version-1 plan: it kept the selection but not the other flags."""
        return self.schema_version >= 2

    @property
    def run(self) -> RunSpec:
        """The spec the plan runs (a merged directory's plan runs nothing)."""
        if self.spec is None:
            raise UsageError("a merged matrix directory has no settings to run with")
        return self.spec


def _path_text(value: object) -> str:
    if isinstance(value, Path):
        return str(value)
    raise NotImplementedError(f"{type(value).__name__} in a matrix plan")


def _path(kind: type, value: object) -> object:
    if kind is Path and isinstance(value, str):
        return Path(value)
    raise NotImplementedError(f"{kind} from {type(value).__name__}")


def save_plan(matrix_dir: Path, plan: MatrixPlan) -> Path:
    """The plan in ``matrix_dir``; its spec's ``out_dir`` is that directory, stored as
    ``.`` (a matrix directory moved or merged elsewhere stays whole)."""
    here = None if plan.spec is None else msgspec.structs.replace(plan.spec, out_dir=Path("."))
    plan = msgspec.structs.replace(plan, schema_version=STATE_SCHEMA_VERSION, spec=here)
    data = msgspec.json.format(msgspec.json.encode(plan, enc_hook=_path_text), indent=2) + b"\n"
    return replace_atomic(Path(matrix_dir) / STATE_FILE, data)


# versions 1 to 4: the settings as flat fields (camelCase), read into a spec; a field
# the file does not have is the default that version ran with
_FLAT = {
    "backend": "backend",
    "driver": "driver",
    "seed": "seed",
    "sessionIds": "session_ids",
    "repos": "repos",
    "durationScale": "duration_scale",
    "transport": "transport",
    "profile": "profile",
    "tick": "tick",
    "aoCommand": "ao_command",
    "agents": "agents",
}
_FIELDS = frozenset(f.name for f in msgspec.structs.fields(RunSpec))


def _flat_spec(raw: dict[str, Any]) -> dict[str, Any] | None:
    if raw.get("backend") not in RUN_BACKEND_NAMES:
        return None  # a merged directory's: its names were never settings
    spec = {field: raw[key] for key, field in _FLAT.items() if raw.get(key) is not None}
    if "tick" in spec:
        spec["tick"] = {"seconds": spec["tick"], "text": f"{spec['tick']:g}s"}
    # setup's PR polling: the emulator answers at once, GitHub is polled as AO would
    spec["poll_interval"] = {"seconds": 1.0, "text": "1s"} if raw["backend"] == "emulator" else None
    return {k: v for k, v in spec.items() if v is not None}


def load_plan(matrix_dir: Path) -> MatrixPlan:
    """The stored plan; unknown fields are ignored, missing ones take their defaults."""
    path = Path(matrix_dir) / STATE_FILE
    if not path.exists():
        raise UsageError(
            f"--resume: {path} does not exist; start the matrix without --resume first"
        )
    try:
        raw = msgspec.json.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError) as exc:
        raise ArtifactError(f"{path} is unreadable ({exc}); remove it and start again") from exc
    version = raw.get("schemaVersion") if isinstance(raw, dict) else None
    if version not in READABLE_VERSIONS:
        raise ArtifactError(
            f"{path}: schemaVersion {version!r} is not supported (expected one of"
            f" {', '.join(map(str, READABLE_VERSIONS))}); upgrade ghbench or start a new"
            " matrix directory"
        )
    spec = raw.get("spec") if version >= 5 else _flat_spec(raw)
    if isinstance(spec, dict):  # a newer ghbench's settings are not ours to judge
        spec = {k: v for k, v in spec.items() if k in _FIELDS}
        if "profile" in spec:  # a plan written before the profiles had their builds' names
            spec["profile"] = unalias_profile(spec["profile"])
        if version <= 3 and "agents" in spec:  # agents before their gh's name: gh 2.23's
            spec["agents"] = profile_before_gh_2_102(spec["agents"])
    keep = ("schemaVersion", "matrixRun", "scales", "cells")
    try:
        stored = {**{k: raw[k] for k in keep if k in raw}, "spec": spec}
        plan = msgspec.convert(stored, MatrixPlan, dec_hook=_path)
    except (msgspec.ValidationError, GhbenchError) as exc:
        raise ArtifactError(f"{path}: invalid matrix state ({exc})") from exc
    if plan.spec is None:
        return plan
    return msgspec.structs.replace(
        plan, spec=msgspec.structs.replace(plan.spec, out_dir=Path(matrix_dir))
    )


# what version 1 recorded; its other settings come from the command line, as then
_RECORDED_IN_V1 = frozenset({"backend", "driver", "seed", "session_ids"})


def _settings() -> tuple[Flag, ...]:
    """The ``matrix run`` flags that change what a cell measures (``--operator`` only
    names the runs; ``--out`` is where the plan is)."""
    return tuple(f for f in flags_of(COMMAND) if f.dest in _FIELDS and f.dest != "out_dir")


def _same(a: object, b: object) -> bool:
    if isinstance(a, Duration) and isinstance(b, Duration):
        return a.seconds == b.seconds
    return a == b


def _show(dest: str, value: Any) -> str:
    if dest == "session_ids":
        return "on" if value else "off"
    if dest == "repos":
        return ",".join(value) if value else "none"
    if dest == "tick":
        return "the profile's" if value is None else f"{value.seconds:g}s"
    if dest == "budget":
        return "a user's token" if value is None else str(value.label)
    if dest == "ao_command":
        return "none ($GHBENCH_AO or ao on PATH)" if value is None else str(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def resume_plan(
    stored: MatrixPlan, given: RunSpec, typed: Collection[str], where: Path
) -> MatrixPlan:
    """The plan ``--resume`` continues with: the stored settings, never the flags.

    ``given`` is the run the command line describes (defaults included); ``typed``
    names the settings whose flag was typed. A typed flag that differs from the stored
    value is a usage error. A version-1 plan did not record every setting: those come
    from the command line, as they did then, and the returned plan records them (the
    caller saves it).
    """
    spec = stored.run
    updates: dict[str, Any] = {}
    for flag in _settings():
        dest = flag.dest
        if not stored.settings_recorded and dest not in _RECORDED_IN_V1:
            updates[dest] = getattr(given, dest)
            continue
        value, wanted = getattr(spec, dest), getattr(given, dest)
        if dest in typed and not _same(wanted, value):
            raise UsageError(
                f"--resume: {flag.name} {_show(dest, wanted)} conflicts with the stored"
                f" {_show(dest, value)} of this matrix ({where}); drop {flag.name} to resume"
                " with the stored settings, or start a new matrix in another --out"
            )
    if not updates:
        return stored
    return msgspec.structs.replace(
        stored,
        schema_version=STATE_SCHEMA_VERSION,
        spec=msgspec.structs.replace(spec, **updates),
    )


def describe_settings(plan: MatrixPlan) -> str:
    """The plan's settings in one line (those left at their defaults omitted)."""
    spec = plan.run
    parts = [f"backend {spec.backend}", f"driver {spec.driver}", f"seed {spec.seed}"]
    for flag in _settings():
        value = getattr(spec, flag.dest)
        if flag.dest in ("backend", "driver", "seed") or _same(value, _default(flag)):
            continue
        parts.append(f"{flag.name} {_show(flag.dest, value)}")
    return ", ".join(parts)


def _default(flag: Flag) -> Any:
    default = flag.default(COMMAND)
    if flag.dest == "repos":
        return ()
    return None if flag.kind == "duration" and default is None else default


def resolve_ao(spec: str | None, env: Mapping[str, str]) -> str | None:
    """The AO a matrix runs, fixed when it starts so a resume from another directory or
    environment runs the same one: ``--ao``, else ``$GHBENCH_AO``, else ``ao`` on PATH,
    as an absolute path. Unresolvable: as given (None when nothing was), and the cells
    fail with the driver's message saying what to pass."""
    chosen = spec or env.get("GHBENCH_AO") or None
    path = Path(chosen or "ao").expanduser()
    if chosen is not None and path.exists():
        return str(path.resolve())
    found = shutil.which(str(path), path=env.get("PATH"))
    return found or chosen


def new_plan(out_dir: Path, chosen: Sequence[Cell], spec: RunSpec, clock: Clock) -> MatrixPlan:
    """A fresh invocation's plan of ``chosen`` cells, saved in ``out_dir``."""
    stamp = iso_s(clock.now()).replace("-", "").replace(":", "")
    plan = MatrixPlan(
        matrix_run=f"m{stamp}-{os.getpid()}",
        scales=sorted({c.sessions for c in chosen}),
        cells=[c.id for c in chosen],
        spec=spec,
    )
    save_plan(out_dir, plan)
    return plan
