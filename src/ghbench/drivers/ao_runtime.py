"""What AO and its agents run in: one environment, a private tmux server, gh's config.

AO passes its agents only ``AO_*`` variables and ``PATH`` (``tmux new-session -e``);
everything else an agent sees comes from the tmux server's global environment, which
is the environment of whichever client started the server. So each AO gets a tmux
server of its own (``TMUX_TMPDIR`` in a short private directory, ``TMUX`` removed),
started by ghbench, before anything else touches it, with exactly the environment AO
itself gets: the backend's routing (gh's host and token, git's URL rewriting, proxies),
the private HOME and a gh config directory. Agents then reach the GitHub the run
measures, and only it, whatever tmux servers the user has; ``close`` kills the server.

gh: with the emulator, gh's config holds ``http_unix_socket`` (no secret), so every gh
request, github.com ones included, is plain HTTP over the emulator's socket; that is
what lets gh 2.23's ``auth status`` (AO's preflight) pass, which through a proxy also
checks github.com and fails on the refused CONNECT.

Agents' own gh calls: a record shim first on AO's PATH (agents inherit AO's PATH)
traces every gh call made with ``AO_SESSION`` set, tagged with that session; AO's own
calls (no ``AO_SESSION``) go straight to the real gh.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.drivers.ao_world import AoWorld
from ghbench.drivers.placeholders import Tmux
from ghbench.errors import ToolMissingError
from ghbench.procs import guard, unguard
from ghbench.record.contract import Sink
from ghbench.record.runner import find_real_gh, shim_script
from ghbench.trace.schema import AGENT

__all__ = ["LOOPBACK_PRELOAD", "AoRouting", "AoRuntime"]

# Node preloads this (NODE_OPTIONS=--require) in AO and every node process it starts:
# a server told to listen on a port with no host, or on every interface, listens on
# 127.0.0.1 instead. AO's dashboard (``next start -p PORT``) and its terminal
# WebSocket server (``listen(PORT)``) otherwise bind every interface.
LOOPBACK_PRELOAD = """\
// ghbench: servers started here listen on loopback only
"use strict";
const net = require("net");
const listen = net.Server.prototype.listen;
const ANY = new Set(["0.0.0.0", "::", "", undefined, null]);
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (first !== null && typeof first === "object" && !Array.isArray(first)) {
    if (first.path === undefined && first.fd === undefined && first.handle === undefined
        && ANY.has(first.host)) {
      args[0] = Object.assign({}, first, { host: "127.0.0.1" });
    }
  } else if (typeof first === "number" || (typeof first === "string" && /^\\d+$/.test(first))) {
    if (typeof args[1] === "string" && !ANY.has(args[1])) {
      // a host was named: keep it
    } else if (typeof args[1] === "string" || args[1] === undefined || args[1] === null) {
      args[1] = "127.0.0.1";
    } else {
      args.splice(1, 0, "127.0.0.1");
    }
  }
  return listen.apply(this, args);
};
"""
# Inherited variables that would send AO, gh, git or tmux somewhere else.
_NOT_INHERITED = frozenset(
    {
        "TMUX",
        "TMUX_PANE",
        "TMUX_TMPDIR",
        "AO_CONFIG_PATH",
        "AO_GLOBAL_CONFIG",
        "AO_GH_TRACE_FILE",
        "AO_AGENT_GH_TRACE",
        "GH_HOST",
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "GH_ENTERPRISE_TOKEN",
        "GITHUB_ENTERPRISE_TOKEN",
        "GH_CONFIG_DIR",
        "GITHUB_API_URL",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_COUNT",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_RUNTIME_DIR",
    }
)


@dataclass(frozen=True)
class AoRouting:
    """Where gh and git go: the backend's variables for AO and for its agents (on the
    emulator another token of the same user), and the emulator's unix socket."""

    env: Mapping[str, str]
    agent_env: Mapping[str, str] | None = None  # None: the agents get ``env``
    gh_socket: Path | None = None


def _inherited(base: Mapping[str, str]) -> dict[str, str]:
    return {
        k: v
        for k, v in base.items()
        if k not in _NOT_INHERITED
        and not k.startswith("GIT_CONFIG_KEY_")
        and not k.startswith("GIT_CONFIG_VALUE_")
    }


@dataclass
class AoRuntime:
    """One AO's environment and private tmux server; ``open`` before use, ``close`` after."""

    world: AoWorld
    base_env: Mapping[str, str]
    routing: AoRouting
    _dir: Path | None = field(default=None, repr=False)
    _tmux: Tmux | None = field(default=None, repr=False)
    _server_pid: int | None = field(default=None, repr=False)

    @property
    def opened(self) -> bool:
        return self._dir is not None

    def _private(self) -> Path:
        if self._dir is None:
            raise RuntimeError("AoRuntime.open() first")
        return self._dir

    def env(
        self,
        trace_path: Path | None = None,
        *,
        wrapper_trace: Path | None = None,
        for_agents: bool = False,
    ) -> dict[str, str]:
        """AO's environment; ``trace_path`` turns on AO's tracer, ``wrapper_trace`` the
        agent wrapper's (AO main's ``AO_AGENT_GH_TRACE``). ``for_agents``: what the
        tmux server, hence every agent, gets."""
        private = self._private()
        home = self.world.home
        env = _inherited(self.base_env)
        env.update(
            HOME=str(home),
            TMPDIR=str(self.world.tmp),
            TMUX_TMPDIR=str(private),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_CACHE_HOME=str(home / ".cache"),
            XDG_DATA_HOME=str(home / ".local" / "share"),
            XDG_STATE_HOME=str(home / ".local" / "state"),
            GH_CONFIG_DIR=str(private / "gh"),
            AO_CONFIG_PATH=str(self.world.config_path),
            AO_NO_UPDATE_NOTIFIER="1",
            GH_NO_UPDATE_NOTIFIER="1",
            GH_PROMPT_DISABLED="1",
        )
        routing = self.routing.env
        if for_agents and self.routing.agent_env is not None:
            routing = self.routing.agent_env
        env.update(routing)
        # AO's dashboard servers call listen(port) with no host (every interface):
        # a preload defaults their host to loopback (see LOOPBACK_PRELOAD)
        preload = f"--require {private / 'loopback.cjs'}"
        env["NODE_OPTIONS"] = " ".join(x for x in (env.get("NODE_OPTIONS"), preload) if x)
        env["PATH"] = os.pathsep.join([str(private / "bin"), env.get("PATH") or os.defpath])
        if trace_path is not None:
            env["AO_GH_TRACE_FILE"] = str(trace_path)
        if wrapper_trace is not None:
            env["AO_AGENT_GH_TRACE"] = str(wrapper_trace)
        return env

    @property
    def bin_dir(self) -> Path:
        """The directory first on AO's PATH, hence its agents': the gh shim's, and the
        agent model's ``claude`` when one runs (``ghbench.drivers.agent_launcher``)."""
        return self._private() / "bin"

    def tmux(self) -> Tmux:
        if self._tmux is None:
            raise RuntimeError("AoRuntime.open() first")
        return self._tmux

    def open(self) -> None:
        """Make the private directory (gh config, shim) and start the tmux server."""
        if self._dir is not None:
            return
        # tmux's socket path must stay short: /tmp, not under the output directory
        self._dir = Path(tempfile.mkdtemp(prefix="ghbench-ao-", dir="/tmp"))
        try:
            self._write_gh_config()
            (self._dir / "bin").mkdir()
            (self._dir / "loopback.cjs").write_text(LOOPBACK_PRELOAD)
            self._tmux = Tmux(self.env(for_agents=True))
            # agents start where the user's shell would have found them: AO's PATH
            # (bench-era AO types the launch command into a login shell, which would
            # reset PATH to the system profile's)
            self._tmux.start_server(shell=self.base_env.get("SHELL") or "/bin/sh")
            # tmux daemonizes: the server is in no group of ours, so it is named to the
            # lifeline, which stops it (and every agent on it) if ghbench dies
            self._server_pid = self._tmux.server_pid()
            if self._server_pid is not None:
                guard(self._server_pid)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Kill the private tmux server (every session on it) and remove the directory."""
        if self._tmux is not None:
            self._tmux.kill_server()
            self._tmux = None
        if self._server_pid is not None:
            unguard(self._server_pid)
            self._server_pid = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def _write_gh_config(self) -> None:
        config = self._private() / "gh"
        config.mkdir(mode=0o700)
        lines = ["# ghbench: gh's config for AO and its agents (no token here)\n"]
        if self.routing.gh_socket is not None:
            lines.append(f"http_unix_socket: {self.routing.gh_socket}\n")
        (config / "config.yml").write_text("".join(lines))

    def trace_agents(self, path: Path | None) -> None:
        """From now on, agents' gh calls go to ``path`` (None: untraced)."""
        shim = self.bin_dir / "gh"
        shim.unlink(missing_ok=True)
        if path is None:
            return
        real_gh = find_real_gh(self.base_env.get("PATH") or os.defpath)
        if real_gh is None:
            raise ToolMissingError("gh is not installed; install it (apt-get install gh)")
        state = self._private() / "shim-state"
        state.mkdir(exist_ok=True)
        sink = Sink(str(path), AGENT, str(state))
        script = shim_script(
            real_gh,
            [sink],
            sys.executable,
            only_when="AO_SESSION",
            session_from="AO_SESSION",
            project_from="AO_PROJECT_ID",
        )
        partial = shim.with_name("gh.partial")
        partial.write_text(script)
        partial.chmod(0o755)
        partial.replace(shim)  # an agent starting gh now sees the old shim or the new one
