"""What the driver families share, written once: the private world's environment, git
and tmux, AO's CLI, the agent model as AO's coding agent, the S6 readers' cadence, and
the registry of spawned sessions."""
