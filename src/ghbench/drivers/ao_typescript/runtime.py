"""What AO and its agents run in: one environment, a private tmux server, gh's config.

Each AO gets a tmux server of its own (``ghbench.drivers.common.tmux.PrivateTmux``),
started with exactly the environment AO itself gets: the backend's routing (gh's host
and token, git's URL rewriting, proxies), the private HOME and a gh config directory.
Agents then reach the GitHub the run measures, and only it, whatever tmux servers the
user has; ``close`` kills the server.

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
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.drivers.ao_typescript.world import AoWorld
from ghbench.drivers.common.environment import TRACE_VARS, inherited, private_home
from ghbench.drivers.common.tmux import PrivateTmux, Tmux, user_shell
from ghbench.errors import ToolMissingError
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
# AO's own variables the user may have set, which would point it elsewhere
_NOT_INHERITED = ("AO_CONFIG_PATH", "AO_GLOBAL_CONFIG", *TRACE_VARS)


@dataclass(frozen=True)
class AoRouting:
    """Where gh and git go: the backend's variables for AO and for its agents (on the
    emulator another token of the same user), and the emulator's unix socket."""

    env: Mapping[str, str]
    agent_env: Mapping[str, str] | None = None  # None: the agents get ``env``
    gh_socket: Path | None = None


@dataclass
class AoRuntime:
    """One AO's environment and private tmux server; ``open`` before use, ``close`` after."""

    world: AoWorld
    base_env: Mapping[str, str]
    routing: AoRouting
    _tmux: PrivateTmux = field(default_factory=lambda: PrivateTmux("ghbench-ao-"), repr=False)

    @property
    def opened(self) -> bool:
        return self._tmux.path is not None

    def _private(self) -> Path:
        if self._tmux.path is None:
            raise RuntimeError("AoRuntime.open() first")
        return self._tmux.path

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
        env = inherited(self.base_env, also=_NOT_INHERITED)
        env.update(private_home(self.world.home, self.world.tmp, private / "gh"))
        env.update(
            TMUX_TMPDIR=str(private),
            AO_CONFIG_PATH=str(self.world.config_path),
            AO_NO_UPDATE_NOTIFIER="1",
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
        agent model's ``claude`` when one runs (``ghbench.drivers.common.agent_launcher``)."""
        return self._private() / "bin"

    def tmux(self) -> Tmux:
        return self._tmux.tmux()

    def open(self) -> None:
        """Make the private directory (gh config, shim) and start the tmux server."""
        if self.opened:
            return
        private = self._tmux.directory()
        try:
            self._write_gh_config()
            (private / "bin").mkdir()
            (private / "loopback.cjs").write_text(LOOPBACK_PRELOAD)
            # agents start where the user's shell would have found them: AO's PATH
            # (bench-era AO types the launch command into a login shell, which would
            # reset PATH to the system profile's)
            self._tmux.start(self.env(for_agents=True), user_shell(self.base_env))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Kill the private tmux server (every session on it) and remove the directory."""
        self._tmux.close()

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
