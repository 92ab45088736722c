"""The inputs and kept manifests as the CLI and the GUI show them (SPEC 6), built on run.inputs."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from wsi_inspector.core.session.model import State
from wsi_inspector.core.jsrules.run_inputs import KeptLine, ManifestEntry, entry_bytes, js_type, kept_manifest, manifest_entry


class InputsManifest(TypedDict):
    """`wsi manifest --json` (SPEC 6): the store at a state, untrimmed."""

    count: int
    bytes: int
    entries: list[ManifestEntry]


class KeptDocument(TypedDict):
    """`wsi kept --json` (SPEC 6): the kept manifest at a state."""

    count: int
    kept: list[KeptLine]


def inputs_manifest(state: State) -> InputsManifest:
    """`{"count", "bytes", "entries"}`: the whole store at the state, untrimmed."""
    entries = [manifest_entry(e) for e in state.store]
    total = 2 + sum(entry_bytes(e) for e in state.store) + max(len(state.store) - 1, 0)
    return {"count": len(entries), "bytes": total, "entries": entries}


def kept_document(state: State) -> KeptDocument:
    """`{"count", "kept"}`: the kept manifest at the state."""
    lines = kept_manifest(state.kept)
    return {"count": len(lines), "kept": lines}


def shape_text(line: Mapping[str, Any], limit: int = 60, value: Any = None) -> str:
    """A shape in a few words: `{spine, bandDepth}`, `[50]`, or the kind (`type`, else `value`'s)."""
    if "keys" in line:
        text = "{" + ", ".join(line["keys"]) + "}"
        return text if len(text) <= limit else text[: limit - 2] + "…}"
    if "array" in line:
        return f"[{line['array']}]"
    return line.get("type") or js_type(value)

