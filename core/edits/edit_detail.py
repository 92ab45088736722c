"""One canvas edit shown in full (the Edits tab's right side, headless): its comparisons, highlights, drawing.

An edit is shown as two comparisons: against the model's call it edited, and its own step from the
entry it was made from (earlier steps are the earlier edits' own). Each comparison carries both
inputs parsed, the changes, the paths to highlight on each side (a reverse diff says which paths of
the model's input the person changed), the shapes of the drawing in the model's unit and the
changed vertices; `EditDetail` adds where each shown leaf's value came from (`wsi_inspector.core.edits.provenance`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wsi_inspector.core.edits.diff import Change, diff
from wsi_inspector.core.edits.edits import EditDiff, changed_paths, units_of
from wsi_inspector.core.edits.geometry import Shape, VertexMark, shapes, vertex_marks
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.edits.provenance import LeafOrigin, Provenance
from wsi_inspector.core.edits.units import Conversion


@dataclass(slots=True)
class Comparison:
    """Two entries side by side (inputs parsed), the changes between them, highlights, and the drawing."""

    title: str
    before: Entry
    after: Entry
    before_value: Any
    after_value: Any
    changes: list[Change]
    unit: str | None  # the unit the changes (and the drawing) are in: `before`'s
    raw_unit: str | None  # `after`'s own unit when its numbers were converted
    before_written: set[str]  # paths whose value differs in `before` (from the reverse diff)
    before_changed: set[str]  # those and their ancestors
    after_written: set[str]
    after_changed: set[str]
    before_shapes: list[Shape]
    after_shapes: list[Shape]
    marks: list[VertexMark]


@dataclass(slots=True)
class EditDetail:
    """Everything the Edits tab shows for one edit."""

    edit_diff: EditDiff
    comparisons: list[Comparison]
    origins: dict[str, dict[str, LeafOrigin]] = field(default_factory=dict)  # entry key → pointer → origin


def edit_detail(provenance: Provenance, edit_diff: EditDiff) -> EditDetail:
    """The edit's comparisons (against the model call, then its own step) with provenance and shapes."""
    pairing = edit_diff.pairing
    comparisons = []
    if pairing.base is not None:
        comparisons.append(comparison(f"{pairing.base.id} → {pairing.edit.id}  (the model's call → the person's edit)",
                                      pairing.base, pairing.edit, edit_diff.changes))
    if edit_diff.step is not None:
        step = edit_diff.step
        title = f"step {pairing.steps:,} of {pairing.steps:,}: {step.before.id} → {step.after.id}  (the edit's own step)"
        comparisons.append(comparison(title, step.before, step.after, step.changes))
    shown = {e.key: e for c in comparisons for e in (c.before, c.after)} or {pairing.edit.key: pairing.edit}
    origins = {key: {o.path: o for o in provenance.blame(entry)} for key, entry in shown.items()}
    return EditDetail(edit_diff, comparisons, origins)


def _written(changes: list[Change]) -> set[str]:
    return {c["path"] for c in changes if c["op"] != "remove"}


def comparison(title: str, before: Entry, after: Entry, changes: list[Change]) -> Comparison:
    """`before` and `after` side by side: `changes` (from `before` to `after`), highlights, and shapes."""
    before_value, after_value = before.input, after.input
    unit, raw_unit = units_of(before, after)
    # The reverse diff's paths are in the model's input, so they say what to highlight there.
    reverse = diff(after_value, before_value, after.unit, before.unit)
    conversion = Conversion(raw_unit, unit) if raw_unit and unit else None
    return Comparison(title, before, after, before_value, after_value, changes, unit, raw_unit,
                      _written(reverse), changed_paths(reverse), _written(changes), changed_paths(changes),
                      shapes(before_value), shapes(after_value, conversion), vertex_marks(changes))
