"""Repository labels: records with a name, colour and description.

Issues and pull requests carry label names. Names compare case-insensitively and the
label's own spelling wins, as on GitHub; naming a label that does not exist on an
issue (REST ``labels``, the control API) creates it with colour ``ededed``, which is
what GitHub does for the Issues API. A new repository gets GitHub's nine default
labels (:data:`DEFAULT_LABELS`). Renaming or deleting a label changes every issue and
pull request that carries it.
"""

from __future__ import annotations

from collections import defaultdict

from ghbench.emulator.errors import ValidationFailed, found
from ghbench.emulator.state.events import EventOps
from ghbench.emulator.state.models import Issue, Label, PullRequest, Record, Repo

__all__ = ["DEFAULT_LABELS", "LabelOps"]

# GitHub's labels for a new repository: name -> (colour, description).
DEFAULT_LABELS: dict[str, tuple[str, str]] = {
    "bug": ("d73a4a", "Something isn't working"),
    "documentation": ("0075ca", "Improvements or additions to documentation"),
    "duplicate": ("cfd3d7", "This issue or pull request already exists"),
    "enhancement": ("a2eeef", "New feature or request"),
    "good first issue": ("7057ff", "Good for newcomers"),
    "help wanted": ("008672", "Extra attention is needed"),
    "invalid": ("e4e669", "This doesn't seem right"),
    "question": ("d876e3", "Further information is requested"),
    "wontfix": ("ffffff", "This will not be worked on"),
}
IMPLICIT_COLOR = "ededed"


class LabelOps(EventOps):
    def _reset_indexes(self) -> None:
        super()._reset_indexes()
        # repo id -> casefolded name -> label
        self.labels_by_repo: dict[int, dict[str, Label]] = defaultdict(dict)

    def _index(self, record: Record) -> None:
        super()._index(record)
        if isinstance(record, Label):
            self.labels_by_repo[record.repo_id][record.name.casefold()] = record

    # -- reads -------------------------------------------------------------------
    def labels(self, repo: Repo) -> list[Label]:
        """A repository's labels in creation order."""
        return sorted(self.labels_by_repo.get(repo.id, {}).values(), key=lambda x: x.id)

    def label(self, repo: Repo, name: str) -> Label | None:
        return self.labels_by_repo.get(repo.id, {}).get(name.casefold())

    def get_label(self, repo: Repo, name: str) -> Label:
        return found(self.label(repo, name))

    # -- writes ------------------------------------------------------------------
    def create_label(
        self,
        repo: Repo,
        name: str,
        *,
        color: str = IMPLICIT_COLOR,
        description: str | None = None,
        default: bool = False,
    ) -> Label:
        if self.label(repo, name) is not None:
            raise ValidationFailed(
                errors=[{"resource": "Label", "code": "already_exists", "field": "name"}]
            )
        label = self.create(
            Label,
            "LA",
            repo_id=repo.id,
            name=name,
            color=color.lower(),
            description=description,
            default=default,
        )
        return label

    def add_default_labels(self, repo: Repo) -> None:
        for name, (color, description) in DEFAULT_LABELS.items():
            if self.label(repo, name) is None:
                self.create_label(repo, name, color=color, description=description, default=True)

    def update_label(
        self,
        label: Label,
        *,
        new_name: str | None = None,
        color: str | None = None,
        description: str | None = None,
    ) -> Label:
        """Rename (carried over to every issue and pull request), recolour, describe."""
        repo = self.repos[label.repo_id]
        if new_name is not None and new_name != label.name:
            clash = self.label(repo, new_name)
            if clash is not None and clash.id != label.id:
                raise ValidationFailed(
                    errors=[{"resource": "Label", "code": "already_exists", "field": "name"}]
                )
            old = label.name
            del self.labels_by_repo[repo.id][old.casefold()]
            label.name = new_name
            self.labels_by_repo[repo.id][new_name.casefold()] = label
            for item in self._carriers(repo, old):
                item.labels = [new_name if n == old else n for n in item.labels]
                self.save(item)
        if color is not None:
            label.color = color.lower()
        if description is not None:
            label.description = description
        label.updated_at = self.now()
        self.save(label)
        return label

    def delete_label(self, label: Label) -> None:
        repo = self.repos[label.repo_id]
        for item in self._carriers(repo, label.name):
            item.labels = [n for n in item.labels if n != label.name]
            self.save(item)
        del self.labels_by_repo[repo.id][label.name.casefold()]
        self.db.delete(label)
        self.touch(repo.id)

    def _carriers(self, repo: Repo, name: str) -> list[Issue | PullRequest]:
        items: list[Issue | PullRequest] = [
            i for (rid, _), i in self.issues_by_number.items() if rid == repo.id
        ]
        items += [p for (rid, _), p in self.pulls_by_number.items() if rid == repo.id]
        return [item for item in items if name in item.labels]

    def label_names(self, repo: Repo, names: list[str]) -> list[str]:
        """``names`` as the repository's labels spell them, creating missing ones
        (GitHub's Issues API does), without duplicates, in the order given."""
        out: list[str] = []
        for name in names:
            label = self.label(repo, name) or self.create_label(repo, name)
            if label.name not in out:
                out.append(label.name)
        return out

    def set_labels(self, item: Issue | PullRequest, names: list[str]) -> None:
        """Replace the labels of an issue or pull request (a ``labeled`` or
        ``unlabeled`` event per label added or removed)."""
        before = {n.casefold(): n for n in item.labels}
        item.labels = self.label_names(self.repos[item.repo_id], names)
        after = {n.casefold(): n for n in item.labels}
        item.updated_at = self.now()
        self.save(item)
        for key, name in after.items():
            if key not in before:
                self.record_event(item, "labeled", label=name)
        for key, name in before.items():
            if key not in after:
                self.record_event(item, "unlabeled", label=name)
