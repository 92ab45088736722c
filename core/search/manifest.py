"""The inputs and kept manifests as the CLI and the GUI show them (SPEC 6), built on run.inputs."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypedDict

from wsi_inspector.core.session.model import State
from wsi_inspector.core.jsrules.run_inputs import KeptLine, ManifestEntry, js_type, kept_manifest, manifest_entry, store_bytes


class InputsManifest(TypedDict):
    """`wsi manifest --json` (SPEC 6): the store at a state, untrimmed."""

    count: int
    bytes: int
    entries: list[ManifestEntry]


class KeptDocument(TypedDict):
    """`wsi kept --json` (SPEC 6): the kept manifest at a state."""

    count: int
    kept: list[KeptLine]


class ManifestHead(TypedDict):
    """An inputs manifest's members before its `entries`."""

    count: int
    bytes: int


MANIFEST_CHUNK = 4096  # entries' lines made at a time by manifest_chunks: some 0.7 MB of dicts, 0.5 MB of JSON


def inputs_manifest(state: State) -> InputsManifest:
    """`{"count", "bytes", "entries"}`: the whole store at the state, untrimmed."""
    head = manifest_head(state)
    return {"count": head["count"], "bytes": head["bytes"], "entries": [manifest_entry(e) for e in state.store]}


def manifest_head(state: State) -> ManifestHead:
    """`{"count", "bytes"}` of the inputs manifest at the state: what comes before its entries."""
    store = state.store
    return {"count": len(store), "bytes": store_bytes(store)}


def manifest_chunks(state: State, size: int | None = None) -> Iterator[list[ManifestEntry]]:
    """The inputs manifest's `entries`, `size` lines at a time, in order: what `wsi manifest --json` writes
    as it makes them, where the whole list (a dict per entry) and its JSON were a third of a big session's
    text (100,000 entries of 1.3 KB: 18.5 MiB of dicts, 13.3 MiB of JSON). `size`: MANIFEST_CHUNK unless given."""
    size = size or MANIFEST_CHUNK
    chunk: list[ManifestEntry] = []
    for entry in state.store:
        chunk.append(manifest_entry(entry))
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


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

