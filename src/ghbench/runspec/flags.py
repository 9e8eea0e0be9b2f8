"""The one table of flags: each setting of a run once, with which commands and drivers take it.

A row (``Flag``, ``ghbench.runspec.flag``) says a flag's names, what its text is
(``kind``), its help, which commands take it and with what default, and, for a setting
an orchestrator acts on, which kinds of driver take it and on which GitHubs (``takes``:
the workload model, AO's daemon, AO's TypeScript builds;
``runspec.names.DriverKindName``).
``ghbench.commands.options`` turns the rows a command names into its click options (one
decorator); the rows whose ``dest`` is a setting of ``RunSpec`` become the command's
spec in one function (``ghbench.runspec.build.build_spec``). A flag that a run's driver
would ignore is refused from this table, in every command: while the flags are parsed
when no kind of ``--driver`` acts on it, and once the run knows which kind it drives
when only the other kind would (``--ao-layout`` with AO's daemon:
``ghbench.runspec.build.check_kind``). The flows ask it too (``takes``: is a driver told
its poll interval?).

Pure data and pure functions: the CLI reads it while it parses flags.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ghbench.budgets import BUDGET_KINDS, MAX_COUNT
from ghbench.runspec.cells import DEFAULT_SCALES
from ghbench.runspec.flag import (
    EVERY_BACKEND,
    KIND_BACKENDS,
    KINDS,
    REAL_GITHUBS,
    REQUIRED,
    Flag,
)
from ghbench.runspec.names import (
    AGENTS_NAMES,
    AO_LAYOUT_NAMES,
    DRIVER_KIND_NAMES,
    DRIVER_NAMES,
    RUN_BACKEND_NAMES,
    DriverKindName,
    DriverName,
    RunBackendName,
)
from ghbench.workload.agents.profiles import AGENT_PROFILE_CHOICES, DEFAULT_AGENT_PROFILE
from ghbench.workload.profiles import DEFAULT_PROFILE, PROFILE_CHOICES

__all__ = [
    "DEFAULT_OUT",
    "FLAGS",
    "HISTORY_FORMATS",
    "MAX_ISSUE_NUMBER",
    "MAX_SESSIONS",
    "MAX_VIRTUAL_S",
    "ORCHESTRATED",
    "TRANSPORT_CHOICES",
    "flag_for",
    "flags_of",
    "takes",
]

MAX_SESSIONS = 10_000  # sessions (and so issues) one run may have
MAX_ISSUE_NUMBER = 2**31 - 1  # GitHub's issue numbers are 32-bit
# Virtual time costs real time and memory in proportion (simulate: about 1.2 s and
# 13 MB per hour of 50 sessions), so the model's runs are bounded tighter than the
# real ones (timefmt.MAX_DURATION_S)
MAX_VIRTUAL_S = 24 * 3600.0
# where commands write when --out is not given
DEFAULT_OUT = Path("ghbench-out")
# how the model (or an agent) calls GitHub; auto: the real gh when it is installed
TRANSPORT_CHOICES = ("gh", "http", "auto")
# --format's trend trackers' formats (``ghbench.pages.history.FORMATS``; a test holds
# them equal): Bencher's BMF, github-action-benchmark's customSmallerIsBetter
HISTORY_FORMATS = ("bmf", "gab")
_RUNS = {"setup": REQUIRED, "measure": REQUIRED, "ab": REQUIRED}  # the v1 harness's
# the commands that hold a run to a budget of some kind (``ghbench.budgets``)
_BUDGETED = ("matrix run", "capacity", "simulate", "replay", "lab")
# a budget is the emulator's to enforce: the model's runs in virtual time (a replay
# runs no orchestrator and is not checked)
_BUDGET_TAKES: Mapping[DriverKindName, frozenset[RunBackendName]] = {
    "workload": frozenset({"simulated"})
}

# fmt: off
FLAGS: tuple[Flag, ...] = (
    # -- the orchestrator ------------------------------------------------------------
    Flag(("--driver",), "driver", "choice",
         "The orchestrator: ao, the real AO (its build is what --ao names); workload,"
         " ghbench's model of AO.",
         dict.fromkeys(("setup", "measure", "ab", "matrix run", "capacity"), "workload"),
         choices=DRIVER_NAMES,
         takes=KIND_BACKENDS),
    Flag(("--ao",), "ao_command", "text",
         "An ao executable: AO's daemon, 0.12.6 (the desktop line) or 0.10.3 (npm's last),"
         " told apart by the binary itself; or a TypeScript build's checkout (its CLI: node"
         " packages/cli/dist/index.js).",
         dict.fromkeys(("setup", "measure", "matrix run", "capacity")),
         metavar="PATH", unset="$GHBENCH_AO, else 'ao' on PATH",
         takes={"ao-daemon": REAL_GITHUBS, "ao-typescript": REAL_GITHUBS}),
    Flag(("--ao-layout",), "ao_layout", "choice",
         "AO's TypeScript builds' session storage: json (current) or kv (bench-era"
         " key=value files).",
         dict.fromkeys(("setup", "measure"), "auto"),
         choices=AO_LAYOUT_NAMES, takes={"ao-typescript": REAL_GITHUBS}),
    Flag(("--transport",), "transport", "choice",
         "How the model calls GitHub: the real gh CLI, or HTTP (auto: gh when installed).",
         {**dict.fromkeys(("setup", "measure", "ab", "matrix run"), "gh"),
          "demo": "auto", "capacity": "http", "workload agent": "http"},
         choices=TRANSPORT_CHOICES, takes={"workload": REAL_GITHUBS}),
    Flag(("--profile",), "profile", "profile",
         "The AO build the model plays: ao-0.12.6, the daemon AO's users run today;"
         " ao-0.10.3, npm's last release; the others AO's TypeScript builds (old names:"
         " head, pre-b1).",
         dict.fromkeys(("setup", "measure", "matrix run", "capacity", "demo", "simulate"),
                       DEFAULT_PROFILE),
         choices=PROFILE_CHOICES, takes={"workload": EVERY_BACKEND}),
    Flag(("--agent-count",), "agent_count", "int",
         "How many of the sessions run their coding agent (the first M; with --agents):"
         " N sessions, M agents.",
         {"simulate": None}, bounds=(0, MAX_SESSIONS), metavar="M", unset="every session's",
         takes={"workload": frozenset({"simulated"})}),
    Flag(("--tick",), "tick", "duration",
         "The model's poll interval; a real-time matrix scales it with --duration-scale"
         " (at least 1s).",
         dict.fromkeys(("setup", "measure", "ab", "matrix run", "demo", "simulate", "capacity")),
         zero=False, metavar="DURATION", unset="the profile's", takes={"workload": EVERY_BACKEND}),
    Flag(("--agents",), "agents", "agents",
         "The sessions' coding agents, modelled: an agent profile (default:"
         f" {DEFAULT_AGENT_PROFILE}, claude-code with today's gh; claude-code-badge,"
         " claude-code-rest-checks; each also as NAME-gh-2.23, with Debian's gh 2.23) or"
         " none. They run in S3 and S4.",
         {**dict.fromkeys(("matrix run", "capacity", "simulate"), "none"),
          "workload agent": "default", "workload agents": "default"},
         choices=AGENTS_NAMES[:1] + AGENT_PROFILE_CHOICES,
         aliases=dict.fromkeys(("workload agent", "workload agents"), ("--profile",)),
         help_in=dict.fromkeys(
             ("workload agent", "workload agents"),
             "Agent profile: claude-code (default), claude-code-badge, claude-code-rest-checks,"
             " with today's gh 2.102 (also named NAME-gh-2.102); NAME-gh-2.23 with Debian's"
             " gh 2.23."),
         # in real time AO (its daemon, or a TypeScript build) launches the model as its
         # agents' claude; in virtual time the model's sessions run them
         takes={"ao-daemon": REAL_GITHUBS, "ao-typescript": REAL_GITHUBS,
                "workload": frozenset({"simulated"})}),
    # -- the GitHub ------------------------------------------------------------------
    Flag(("--backend", "--github"), "backend", "choice",
         "The GitHub: github, the real one as gh reaches it (GH_HOST, GITHUB_API_URL; a"
         " token from GH_TOKEN/GITHUB_TOKEN or gh's login); emulator, the embedded"
         " emulator (its state in OUT/state); simulated, the model in virtual time.",
         {**dict.fromkeys(("setup", "measure", "ab"), "github"), "matrix run": "simulated"},
         choices=RUN_BACKEND_NAMES,
         choices_in=dict.fromkeys(("setup", "measure", "ab"), ("github", "emulator"))),
    Flag(("--budget",), "budget", "choice",
         "The kind of token whose hourly budget the run is held to: pat (5,000 REST, 5,000"
         " GraphQL), app (an App installation: 5,000 + 50 per repository over 20 + 50 per"
         " user over 20, at most 12,500; --repos N, --users N), app-enterprise (15,000"
         " REST, 10,000 GraphQL), actions (GITHUB_TOKEN: 1,000 per repository), custom"
         " (--rest N, --graphql N). docs/budgets.md.",
         dict.fromkeys(_BUDGETED), choices=BUDGET_KINDS,
         unset="a user's token (replay: the recording's limits)", takes=_BUDGET_TAKES),
    Flag(("--repos",), "repos", "text",
         "A number: the repositories an App installation is on (--budget app). A list:"
         " owner/name repos on GitHub to use, comma-separated (matrix run --backend github;"
         " T2 cells need N/5, at least 2).",
         dict.fromkeys(_BUDGETED), metavar="N|LIST", unset="none",
         help_in=dict.fromkeys(("capacity", "simulate", "replay", "lab"),
                               "The repositories the App installation is on (--budget app).")),
    Flag(("--users",), "budget_users", "int",
         "The members of the organization the App is installed on (--budget app).",
         dict.fromkeys(_BUDGETED), bounds=(0, MAX_COUNT), metavar="N", unset="none"),
    Flag(("--rest",), "budget_rest", "int",
         "REST core requests an hour (--budget custom).",
         dict.fromkeys(_BUDGETED), bounds=(0, MAX_COUNT), metavar="N", unset="5,000"),
    Flag(("--graphql",), "budget_graphql", "int",
         "GraphQL points an hour (--budget custom).",
         dict.fromkeys(_BUDGETED), bounds=(0, MAX_COUNT), metavar="N", unset="5,000"),
    # -- what is measured ------------------------------------------------------------
    Flag(("--scenario",), "scenario", "text",
         "S1..S6 or a scenario's name.",
         dict.fromkeys(("simulate", "capacity")), unset="S2; S3 with --agents"),
    Flag(("--topology",), "topology", "text", "T1 (one repo) or T2 (spread).",
         dict.fromkeys(("simulate", "capacity"), "T1")),
    Flag(("--sessions",), "sessions", "int",
         "Number of sessions.",
         {**_RUNS, "demo": 5, "simulate": 50, "replay": None, "workload agents": 5,
          "capacity": None, "lab": None},
         bounds=(1, MAX_SESSIONS), unset="the recorded count",
         help_in={"capacity": "With --solve: the sessions the answer is for."}),
    # -- the budget lab (docs/policies.md) --------------------------------------------
    Flag(("--trace",), "trace_path", "file",
         "A recorded trace: AO's, record's, the agents', the network front's (with the"
         " agents' trace beside it, gh-trace-agents-*, when there is one).",
         dict.fromkeys(("lab", "replay"), REQUIRED)),
    Flag(("--policies",), "policies", "text",
         "Policies in front of GitHub: all, none, or names joined by + or , (probe, shim,"
         " reserve, cache, gate, cooldown), each with :key=value settings, e.g."
         " cache:ttl=60+gate:refill=3000 (docs/policies.md).",
         {"lab": "all", "replay": "none", "capacity": "none"}, metavar="POLICIES",
         help_in={"lab": "The policies tried, each alone and in the useful combinations"
                  " (all), or one choice beside none (docs/policies.md).",
                  "replay": "Policies in front of the re-issued calls: reserve, cache,"
                  " gate, cooldown, joined by + or , each with :key=value settings"
                  " (docs/policies.md); --ttl OP=DURATION is the cache policy for OP.",
                  "capacity": "With --from-trace: the policies in front of the replay at"
                  " each count (reserve, cache, gate, cooldown; docs/policies.md)."}),
    # -- a replay's counterfactuals ---------------------------------------------------
    Flag(("--speed",), "speed", "number",
         "Replay on the wall clock at this many times recorded speed [default: virtual time].",
         {"replay": None}, bounds=(0, None)),
    Flag(("--drop",), "drop", "many", "Do not re-issue operation OP.", {"replay": ()},
         metavar="OP"),
    Flag(("--ttl",), "ttl", "many",
         "Answer a call of OP from a cache when an identical one was re-issued within"
         " DURATION: the cache policy for OP alone (--policies cache:ttl=N is preferred for"
         " every operation).", {"replay": ()}, metavar="OP=DURATION"),
    Flag(("--interval",), "interval", "many",
         "A session re-issues OP at most once per DURATION (a slower poll).", {"replay": ()},
         metavar="OP=DURATION"),
    Flag(("--warmup",), "warmup", "duration",
         "Warmup before the window.",
         {**dict.fromkeys(("measure", "ab", "simulate"), "2m"), "demo": "10s",
          "capacity": None}, unset="the scenario's in the runbook"),
    Flag(("--duration",), "duration", "duration",
         "The measurement window, e.g. 15m.",
         {"measure": REQUIRED, "ab": REQUIRED, "demo": "60s", "simulate": "15m",
          "capacity": None, "workload agent": "30m", "workload agents": "30m"},
         zero=False, unset="the scenario's in the runbook"),
    Flag(("--duration-scale", "--verify-scale"), "duration_scale", "number",
         "Real time: the runbook's warmup and window (and the model's poll) times this,"
         " e.g. 0.01 for a smoke run.",
         dict.fromkeys(("matrix run", "capacity"), 1.0), bounds=(0.0, 1.0),
         takes=dict.fromkeys(DRIVER_KIND_NAMES, REAL_GITHUBS)),
    Flag(("--seed",), "seed", "int", "The random source's seed.",
         dict.fromkeys(("matrix run", "capacity", "simulate", "replay", "workload agent",
                        "workload agents", "emulator serve"), 0)),
    Flag(("--session-ids",), "session_ids", "switch", "The model's rows carry sessionId.",
         {"matrix run": False}, takes={"workload": frozenset({"simulated"})}),
    Flag(("--solve",), "solve", "choice",
         "Solve for what you control with --sessions N: tick, the fastest poll interval at"
         " which N sessions fit; agents, the most of them that may run their coding agent"
         " (with --agents; docs/capacity.md).",
         {"capacity": None}, choices=("tick", "agents"), unset="the most sessions that fit"),
    # -- capacity's search (docs/capacity.md) ----------------------------------------
    Flag(("--from-trace",), "from_trace", "file",
         "Answer from a recorded trace instead of the model: replayed at each count tried"
         " (with the agents' trace beside it, gh-trace-agents-*, when there is one).",
         {"capacity": None}),
    Flag(("--budget-fraction",), "budget_fraction", "number",
         "Share of every budget a count may use.", {"capacity": 0.8}, bounds=(0.0, 1.0)),
    Flag(("--poll-ceiling",), "poll_ceiling", "duration",
         "Longest acceptable poll cycle (AO's limit-finder: 60 s).",
         {"capacity": "60s"}, zero=False),
    Flag(("--max-sessions",), "max_sessions", "int", "Largest count tried.",
         {"capacity": 1000}, bounds=(1, 100_000)),
    Flag(("--verify",), "verify", "switch",
         "Run the count found and the next one in real time on the emulator, and say"
         " whether they agree with the model.", {"capacity": False}),
    # -- which cells (the matrix) ----------------------------------------------------
    Flag(("--cells",), "cells", "many", "Cell ids such as S2-T1-50 (comma-separated or repeated).",
         dict.fromkeys(("matrix run", "matrix plan"), ()), metavar="IDS"),
    Flag(("--priority",), "priority", "switch", "The runbook's priority cells.",
         dict.fromkeys(("matrix run", "matrix plan"), False)),
    Flag(("--all",), "everything", "switch", "Every cell (the default).",
         dict.fromkeys(("matrix run", "matrix plan"), False)),
    Flag(("--scales",), "scales", "text", "Session counts, comma-separated.",
         dict.fromkeys(("matrix run", "matrix plan")), metavar="LIST",
         unset=",".join(map(str, DEFAULT_SCALES))),
    # -- the setup -------------------------------------------------------------------
    Flag(("--project",), "project", "text",
         "Project id: in agent-orchestrator.yaml (AO's TypeScript builds, the model), or"
         " the id AO's daemon registers the checkout ghbench runs in under.", _RUNS),
    Flag(("--config",), "ao_config", "file",
         "agent-orchestrator.yaml to use (AO's daemon has none: run ghbench from the"
         " project's checkout).",
         dict.fromkeys(("setup", "measure", "ab")), unset="AO's own search order",
         takes={"ao-typescript": REAL_GITHUBS, "workload": EVERY_BACKEND}),
    Flag(("--issues",), "issues", "text",
         "Issues to spawn sessions for, one per session, e.g. 1,2,5-9.",
         {"setup": REQUIRED, "ab": None}, unset="1-SESSIONS"),
    Flag(("--poll-interval",), "poll_interval", "duration", "How often setup checks PRs.",
         dict.fromkeys(("setup", "ab"), "30s"), zero=False),
    Flag(("--timeout",), "setup_timeout", "duration", "How long setup waits for PRs.",
         dict.fromkeys(("setup", "ab"), "10m"), zero=False),
    # -- where things go, how they are shown -----------------------------------------
    Flag(("--out",), "out_dir", "out",
         "Directory for artifacts, traces and state.",
         {**dict.fromkeys(("setup", "measure", "capacity", "simulate", "replay", "report",
                           "workload agents", "lab"), DEFAULT_OUT),
          "ab": Path("ghbench-ab"), "matrix run": Path("ghbench-matrix"),
          "matrix merge": Path("ghbench-matrix"), "demo": None},
         unset=f"{DEFAULT_OUT}/demo-TIME",
         help_in={"capacity": "Where the plot and the HTML page go."}),
    Flag(("--no-plot",), "no_plot", "switch", "Do not draw the PNG.",
         dict.fromkeys(("measure", "capacity"), False),
         help_in={"capacity": "Do not write the PNG and the HTML page."}),
    Flag(("--json",), "as_json", "switch", "Print the result as JSON.",
         dict.fromkeys(("report", "simulate", "capacity", "replay", "workload agents",
                        "summarize", "analyze", "compare", "lab"), False)),
    Flag(("--format",), "fmt", "choice",
         "What to print; bmf: Bencher Metric Format, gab: github-action-benchmark's"
         " customSmallerIsBetter JSON, the other lines then on stderr (docs/ci.md).",
         {**dict.fromkeys(("report", "simulate", "compare", "matrix run", "matrix merge")),
          "matrix plan": "text"},
         choices=("text", "json", "markdown", "github-actions", *HISTORY_FORMATS),
         choices_in={
             **dict.fromkeys(("report", "simulate"), ("text", "json", *HISTORY_FORMATS)),
             "compare": ("text", "json", "markdown", *HISTORY_FORMATS),
             **dict.fromkeys(("matrix run", "matrix merge"), ("text", *HISTORY_FORMATS)),
             "matrix plan": ("text", "json", "github-actions"),
         },
         help_in={"matrix plan": "What to print (github-actions: one job per cell)."},
         unset="text"),
    Flag(("--fail",), "fail", "many",
         "Fail (exit 3) when EXPR holds: 'graphqlPointsPerHr>+10%' (change from the"
         " baseline) or 'opaqueCallPct>0.05' (the candidate's value). Repeatable.",
         dict.fromkeys(("compare", "ab"), ()), metavar="EXPR"),
)
# fmt: on

# the commands whose run has an orchestrator, so what its driver takes is checked (a
# coding agent's process, a replay and a reader of files run none)
ORCHESTRATED = frozenset({"setup", "measure", "ab", "demo", "matrix run", "capacity", "simulate"})
_BY_DEST = {f.dest: f for f in FLAGS}
assert len(_BY_DEST) == len(FLAGS), "one row per setting"
assert all(f.kind in KINDS for f in FLAGS)


def flags_of(command: str) -> tuple[Flag, ...]:
    """The rows ``command`` takes, in the table's order."""
    return tuple(f for f in FLAGS if command in f.commands)


def flag_for(dest: str) -> Flag:
    """The row of a setting (``tick``) or parameter (``out_dir``)."""
    return _BY_DEST[dest]


def takes(dest: str, driver: DriverName, backend: RunBackendName) -> bool:
    """Whether a run of ``driver`` on ``backend`` acts on the setting ``dest``."""
    return _BY_DEST[dest].taken(driver, backend)
