"""The workload model as the orchestrator: ``ghbench workload run`` as a process, its
sessions' PRs made through the API, and its dashboard tab for S6."""
