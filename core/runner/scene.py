"""The mock scene a body is handed (SPEC 5): what the guest's `scene` object reads, built on the host.

`scene.entities(filter?)` filters by an object of equal fields (`{type: "ward"}`), a type name, or a
predicate over the summaries; `scene.read(idOrHandle)` gives a copy of the entity's data;
`scene.get(id)` a handle fresh for this run; `scene.info()` the unit, counts per type and the kept
manifest. The guest implements these over the payload below.
"""
from __future__ import annotations

from typing import Any

from wsi_inspector.core.jsrules.run_inputs import kept_manifest


def scene_payload(scene: dict[str, Any] | None, kept: dict[str, Any]) -> dict[str, Any]:
    """The entities, unit and kept manifest the guest's `scene` serves."""
    scene = scene if isinstance(scene, dict) else {}
    entities = [e for e in scene.get("entities") or [] if isinstance(e, dict) and "id" in e]
    return {"unit": scene.get("unit"), "entities": entities, "keptManifest": kept_manifest(kept)}
