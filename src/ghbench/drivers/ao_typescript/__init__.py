"""AO's TypeScript builds: ``ao start``, ``ao batch-spawn``, ``agent-orchestrator.yaml``,
AO tracing its own gh calls to ``AO_GH_TRACE_FILE``; its web dashboard for S6."""
