"""Both AO storage layouts: what ``mark_pr_open`` writes and what it drops."""

import hashlib
import json
import os
from pathlib import Path

from ghbench.drivers.ao_typescript.layout import (
    JsonLayout,
    KvLayout,
    detect_layout,
    parse_kv,
    render_kv,
    storage_key,
)

FIELDS = {
    "id": "ta-1",
    "worktree": "/w/ta-1",
    "branch": "feat/issue-1",
    "pr": "https://github.com/acme/todo/pull/7",
    "project": "todo-app",
}


def test_kv_round_trip_keeps_json_values() -> None:
    values = {"branch": "feat/x", "runtimeHandle": '{"id":"a=b"}'}
    assert parse_kv(render_kv(values)) == values


def test_storage_key_is_the_config_dir_hash_and_basename(tmp_path: Path) -> None:
    cfg = tmp_path / "agent-orchestrator.yaml"
    digest = hashlib.sha256(os.path.realpath(tmp_path).encode()).hexdigest()[:12]
    assert storage_key(cfg, Path("/x/todo-app")) == f"{digest}-todo-app"


def test_json_restore_drops_the_killed_lifecycle(tmp_path: Path) -> None:
    layout = JsonLayout(tmp_path, "todo-app")
    path = layout.metadata_path("ta-1")
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps(
            {
                "status": "killed",
                "lifecycle": {"state": "killed"},
                "issue": "1",
                "createdAt": "then",
            }
        )
    )
    layout.mark_pr_open(FIELDS)
    meta = json.loads(path.read_text())
    assert meta["status"] == "pr_open" and "lifecycle" not in meta
    assert meta["tmuxName"] == "ta-1" and meta["pr"].endswith("/pull/7")
    assert meta["issue"] == "1" and meta["createdAt"] == "then"


def test_kv_restore_names_tmux_with_the_storage_key(tmp_path: Path) -> None:
    layout = KvLayout(tmp_path, "abc123abc123-todo-app")
    path = layout.metadata_path("ta-1")
    path.parent.mkdir(parents=True)
    path.write_text("status=killed\nstateVersion=2\nstatePayload={}\nissue=1\n")
    layout.mark_pr_open(FIELDS)
    meta = parse_kv(path.read_text())
    assert meta["status"] == "pr_open"
    assert "stateVersion" not in meta and "statePayload" not in meta
    assert meta["tmuxName"] == "abc123abc123-todo-app-ta-1"
    assert json.loads(meta["runtimeHandle"])["id"] == meta["tmuxName"]


def test_auto_detection_looks_on_disk(tmp_path: Path) -> None:
    cfg = tmp_path / "agent-orchestrator.yaml"
    args = {
        "home": tmp_path,
        "project_id": "todo-app",
        "config_path": cfg,
        "project_path": Path("/x/todo-app"),
    }
    assert detect_layout("auto", **args) is None
    kv_dir = tmp_path / ".agent-orchestrator" / storage_key(cfg, Path("/x/todo-app")) / "sessions"
    kv_dir.mkdir(parents=True)
    found = detect_layout("auto", **args)
    assert found is not None and found.name == "kv"
    (tmp_path / ".agent-orchestrator" / "projects" / "todo-app" / "sessions").mkdir(parents=True)
    found = detect_layout("auto", **args)
    assert found is not None and found.name == "json"
