"""The plan of one ``matrix run`` invocation, kept for ``--resume``, and its policy.

``matrix-state.json`` records which cells the invocation meant to run, in order, and
every setting that changes what a cell measures (backend, driver, seed, duration
scale, repos, transport, profile, tick, AO command, agents), so ``--resume`` runs the
remaining cells exactly as the interrupted invocation would have. Progress is not
stored here: a cell is done when a run of this invocation (same ``matrixRun`` id,
``ghbench.matrix.runs``) says ``ok``, so a crash between writing a run and updating
any index loses nothing.

The policy: a flag the run would ignore is refused on a fresh run (``check_applicable``,
a table over the drivers' traits); ``--resume`` runs the stored settings, and a typed
flag that contradicts them is refused (``resume_plan``); the AO a matrix runs is fixed
when it starts (``resolve_ao``), so a resume from elsewhere runs the same one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import msgspec

from ghbench.artifacts.io import replace_atomic
from ghbench.clock import Clock
from ghbench.errors import ArtifactError, UsageError
from ghbench.runspec.cells import Cell
from ghbench.runspec.names import DRIVERS, AgentsName, DriverName, DriverTraits, RunBackendName
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.timefmt import iso_s
from ghbench.workload.agents.profiles import profile_before_gh_2_102
from ghbench.workload.config import TransportName
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName, unalias_profile

__all__ = [
    "READABLE_VERSIONS",
    "SETTINGS",
    "STATE_FILE",
    "STATE_SCHEMA_VERSION",
    "MatrixPlan",
    "check_applicable",
    "describe_settings",
    "load_plan",
    "new_plan",
    "resolve_ao",
    "resume_plan",
    "resumed_plan",
    "save_plan",
]

STATE_FILE = "matrix-state.json"
# Format history:
#   1: the selection, backend, driver, seed, scales, sessionIds (repos always empty).
#   2: the run's settings: durationScale, repos, transport, profile, tick, aoCommand.
#   3: agents (the agent model's profile, or none).
#   4: agents name the gh their requests are captured from (claude-code-gh-2.102); a
#      version-3 plan's claude-code ran gh 2.23's (claude-code-gh-2.23).
STATE_SCHEMA_VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)


class MatrixPlan(msgspec.Struct, kw_only=True, rename="camel", frozen=True):
    schema_version: int = STATE_SCHEMA_VERSION
    matrix_run: str
    backend: str
    driver: str
    seed: int
    scales: list[int]
    cells: list[str]  # ids, in run order
    session_ids: bool = False
    repos: list[str] = msgspec.field(default_factory=list)  # --repos (--backend github)
    # Version 2. The defaults are what a version-1 invocation ran with when the flags
    # were not given on the command line.
    duration_scale: float = 1.0
    transport: str = "gh"
    profile: ProfileName = DEFAULT_PROFILE
    tick: float | None = None  # seconds; None: the profile's (scaled in real time)
    ao_command: str | None = None  # as resolved when the matrix started
    # Version 3: the agents S3 and S4 cells run ("none" before: they ran none).
    agents: AgentsName = "none"

    @property
    def settings_recorded(self) -> bool:
        """False for a version-1 plan: it kept the selection but not the other flags."""
        return self.schema_version >= 2

    def run_spec(self) -> RunSpec:
        """What every cell of the plan runs with (each cell's own timing, seed and
        directory are set when it runs: ``ghbench.matrix.runner``)."""
        tick = None if self.tick is None else Duration(self.tick, f"{self.tick:g}s")
        # setup's PR polling: the emulator answers at once, GitHub is polled as AO would
        poll = Duration(1.0, "1s") if self.backend == "emulator" else Duration(30.0, "30s")
        return RunSpec(
            # as stored: only a plan that runs is turned into a spec (a merged one's
            # names are not settings)
            driver=cast(DriverName, self.driver),
            backend=cast(RunBackendName, self.backend),
            ao_command=self.ao_command,
            transport=cast(TransportName, self.transport),
            profile=self.profile,
            tick=tick,
            repos=tuple(self.repos),
            duration_scale=self.duration_scale,
            seed=self.seed,
            session_ids=self.session_ids,
            poll_interval=poll,
            agents=self.agents,
        )


def save_plan(matrix_dir: Path, plan: MatrixPlan) -> Path:
    plan = msgspec.structs.replace(plan, schema_version=STATE_SCHEMA_VERSION)
    data = msgspec.json.format(msgspec.json.encode(plan), indent=2) + b"\n"
    return replace_atomic(Path(matrix_dir) / STATE_FILE, data)


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
    if "profile" in raw:  # a plan written before the profiles had their builds' names
        raw["profile"] = unalias_profile(raw["profile"])
    if version == 3 and "agents" in raw:  # agents before their gh's name: gh 2.23's
        raw["agents"] = profile_before_gh_2_102(raw["agents"])
    try:
        return msgspec.convert(raw, MatrixPlan)
    except msgspec.ValidationError as exc:
        raise ArtifactError(f"{path}: invalid matrix state ({exc})") from exc


# The plan fields a ``matrix run`` flag sets, with the flag: every one changes what a
# cell measures, so ``--resume`` keeps them. (``--operator`` only names the runs.)
SETTINGS: tuple[tuple[str, str], ...] = (
    ("backend", "--backend"),
    ("driver", "--driver"),
    ("seed", "--seed"),
    ("session_ids", "--session-ids"),
    ("duration_scale", "--duration-scale"),
    ("repos", "--repos"),
    ("transport", "--transport"),
    ("profile", "--profile"),
    ("tick", "--tick"),
    ("ao_command", "--ao"),
    ("agents", "--agents"),
)
_RECORDED_IN_V1 = frozenset({"backend", "driver", "seed", "session_ids"})


def _show(field: str, value: Any) -> str:
    if field == "session_ids":
        return "on" if value else "off"
    if field == "repos":
        return ",".join(value) if value else "none"
    if field == "tick":
        return "the profile's" if value is None else f"{value:g}s"
    if field == "ao_command":
        return "none ($GHBENCH_AO or ao on PATH)" if value is None else str(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def resume_plan(
    stored: MatrixPlan, given: Mapping[str, Any], explicit: Collection[str], where: Path
) -> MatrixPlan:
    """The plan ``--resume`` continues with: the stored settings, never the flags.

    ``given`` maps each SETTINGS field to the command line's value (normalized as the
    plan stores it, defaults included); ``explicit`` names the fields whose flag was
    typed. A typed flag that differs from the stored value is a usage error. A
    version-1 plan did not record every setting: those come from the command line,
    as they did then, and the returned plan records them (the caller saves it).
    """
    updates: dict[str, Any] = {}
    for field, flag in SETTINGS:
        if not stored.settings_recorded and field not in _RECORDED_IN_V1:
            updates[field] = given[field]
            continue
        value = getattr(stored, field)
        if field in explicit and given[field] != value:
            raise UsageError(
                f"--resume: {flag} {_show(field, given[field])} conflicts with the stored"
                f" {_show(field, value)} of this matrix ({where}); drop {flag} to resume"
                " with the stored settings, or start a new matrix in another --out"
            )
    if not updates:
        return stored
    return msgspec.structs.replace(stored, schema_version=STATE_SCHEMA_VERSION, **updates)


def describe_settings(plan: MatrixPlan) -> str:
    """The plan's settings in one line (those left at their defaults omitted)."""
    plain = MatrixPlan(matrix_run="", backend="", driver="", seed=0, scales=[], cells=[])
    parts = [f"backend {plan.backend}", f"driver {plan.driver}", f"seed {plan.seed}"]
    for field, flag in SETTINGS[3:]:
        value = getattr(plan, field)
        if value != getattr(plain, field):
            parts.append(f"{flag} {_show(field, value)}")
    return ", ".join(parts)


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


# field -> (applies to the run the plan describes?, what it needs): a typed flag the
# run would ignore is refused on a fresh run
_APPLIES: dict[str, tuple[Callable[[MatrixPlan], bool], str]] = {
    # virtual time has no orchestrator process: it is always the workload model
    "driver": (
        lambda p: p.backend != "simulated" or p.driver == "workload",
        "--backend emulator|github",
    ),
    "session_ids": (lambda p: p.backend == "simulated", "--backend simulated"),
    "duration_scale": (lambda p: p.backend != "simulated", "--backend emulator|github"),
    "repos": (lambda p: p.backend == "github", "--backend github"),
    "transport": (
        lambda p: p.backend != "simulated" and _traits(p).transport,
        "--backend emulator|github with --driver workload",
    ),
    "profile": (lambda p: _traits(p).profile, "--driver workload"),
    "tick": (lambda p: _traits(p).tick, "--driver workload"),
    "ao_command": (lambda p: _traits(p).ao, "--driver ao"),
    # virtual time runs the model's sessions' agents; in real time the driver must
    "agents": (
        lambda p: p.backend == "simulated" or _traits(p).agents,
        "--backend simulated or --driver ao",
    ),
}


def _traits(plan: MatrixPlan) -> DriverTraits:
    return DRIVERS[cast(DriverName, plan.driver)]


def _given(settings: Mapping[str, Any]) -> MatrixPlan:
    return MatrixPlan(matrix_run="", scales=[], cells=[], **settings)


def check_applicable(given: Mapping[str, Any], explicit: Collection[str]) -> None:
    """A typed flag the run would ignore is an error: the user expects it to matter."""
    flags = dict(SETTINGS)
    plan, plain = (
        _given(given),
        MatrixPlan(
            matrix_run="", backend="simulated", driver="workload", seed=0, scales=[], cells=[]
        ),
    )
    for name, (applies, needs) in _APPLIES.items():
        value = getattr(plan, name)
        if name in explicit and value != getattr(plain, name) and not applies(plan):
            shown = f" {value}" if name == "driver" else ""
            raise UsageError(f"{flags[name]}{shown} applies only with {needs}; drop it")


def new_plan(
    out_dir: Path, chosen: Sequence[Cell], given: Mapping[str, Any], clock: Clock
) -> MatrixPlan:
    """A fresh invocation's plan of ``chosen`` cells, saved in ``out_dir``."""
    stamp = iso_s(clock.now()).replace("-", "").replace(":", "")
    plan = MatrixPlan(
        matrix_run=f"m{stamp}-{os.getpid()}",
        scales=sorted({c.sessions for c in chosen}),
        cells=[c.id for c in chosen],
        **given,
    )
    save_plan(out_dir, plan)
    return plan


def resumed_plan(
    out_dir: Path, given: Mapping[str, Any], explicit: Collection[str], env: Mapping[str, str]
) -> MatrixPlan:
    """The stored plan ``--resume`` continues, checked against the typed flags (a
    version-1 plan is saved again, now recording its settings)."""
    stored = load_plan(out_dir)
    if stored.matrix_run == "merged":
        raise UsageError(
            f"--resume: {out_dir} was assembled by 'matrix merge'; resume in the job"
            " directories it was merged from, then merge again"
        )
    if not stored.settings_recorded and stored.driver == "ao":
        given = {**given, "ao_command": resolve_ao(given["ao_command"], env)}
    plan = resume_plan(stored, given, explicit, out_dir / STATE_FILE)
    if plan is not stored:  # a version-1 plan now records what it runs with
        save_plan(out_dir, plan)
    return plan
