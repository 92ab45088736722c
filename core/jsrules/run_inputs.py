"""The run.inputs functions of SPEC 3, exactly as the editor defines them.

Every size is `json_bytes`, the UTF-8 length of JavaScript's `JSON.stringify`. Values are what a
JSON parser gives Python (dict, list, str, int, float, bool, None); a Python callable stands for a
JavaScript function (the runner's guest hands functions back that way).
"""
from __future__ import annotations

import builtins
import re
from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict, cast

from wsi_inspector.core.jsrules.jsonsize import js_keys, json_bytes, json_text_and_bytes
from wsi_inspector.core.session.model import Entry, Id, id_key

MAX_KEEP_BYTES = 65_536
KEEP_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # used with fullmatch: `$` alone would let "name\n" through


class Described(TypedDict):
    """What the manifest says of a value (`describeValue`): its keys or its array length (neither for a
    scalar), then its size."""

    keys: NotRequired[list[str]]
    array: NotRequired[int]
    bytes: int


class ManifestEntry(TypedDict):
    """One store entry's manifest line (SPEC 3 `manifestEntry`; a line of `wsi manifest --json`'s `entries`)."""

    id: Id
    call: str
    unit: NotRequired[str]
    applied: NotRequired[bool]
    keys: NotRequired[list[str]]
    array: NotRequired[int]
    bytes: int


class KeptLine(TypedDict):
    """One kept value's line (SPEC 3 `keptManifest`; a line of `wsi kept --json`'s `kept`)."""

    name: str
    keys: NotRequired[list[str]]
    array: NotRequired[int]
    bytes: int


class InvalidKeepError(ValueError):
    """A body's `keep` that the editor refuses; the message says what to keep instead."""

    def __init__(self, message: str, name: str | None = None):
        super().__init__(message)
        self.name = name


def describe_value(value: Any) -> Described:
    """`{"keys": [...]}` or `{"array": n}`, then `"bytes"`: what the manifest says of a value."""
    described = value_shape(value)
    described.pop("type", None)
    described["bytes"] = json_bytes(value)
    return cast(Described, described)


def value_shape(value: Any) -> dict[str, Any]:
    """`{"keys": [...]}`, `{"array": n}`, or `{"type": kind}` for anything else (not a manifest field)."""
    if isinstance(value, dict):
        return {"keys": js_keys(value)}
    if isinstance(value, list):
        return {"array": len(value)}
    return {"type": js_type(value)}


def manifest_entry(entry: Entry) -> ManifestEntry:
    """The manifest line of one store entry: id, call, unit?, applied?, then the input's shape."""
    line: dict[str, Any] = {"id": entry.id, "call": entry.call}
    if entry.unit is not None:
        line["unit"] = entry.unit
    if entry.applied:
        line["applied"] = True
    shape = input_shape(entry)
    if "type" not in shape:
        line.update(shape)
    line["bytes"] = input_bytes(entry)
    return cast(ManifestEntry, line)  # built in the editor's key order, which a literal of the type cannot keep


def input_bytes(entry: Entry) -> int:
    """json_bytes of the entry's input, computed once: inputs are read-only, and big."""
    if entry.input_bytes is None:
        entry.input_bytes = json_bytes(entry.input)
    return entry.input_bytes


def input_shape(entry: Entry) -> dict[str, Any]:
    """value_shape of the entry's input, computed once."""
    if entry.input_shape is None:
        entry.input_shape = value_shape(entry.input)
    return entry.input_shape


def measure(entry: Entry) -> bytes | None:
    """Size and shape the entry's input while it is parsed, so neither needs it parsed again; its orjson text."""
    value = entry.input
    text, entry.input_bytes = json_text_and_bytes(value)
    entry.input_shape = value_shape(value)
    return text


def call_matches(call: str, wanted: str) -> bool:
    """True for the exact call, or for a module (`group.module`) that the call belongs to."""
    if call == wanted:
        return True
    return wanted.count(".") == 1 and call.startswith(wanted + ".")


def entry_bytes(entry: Entry) -> int:
    """Size of the entry as the editor injects it (the inspector's metadata counts for nothing)."""
    if entry.size is not None:
        return entry.size
    # {"id":…,"call":…,"input":…,"unit":…,"applied":true} counted piece by piece: the input is
    # measured once and cached, and a call is identifiers and dots, so it needs no escapes.
    size = len('{"id":,"call":"","input":}') + _id_bytes(entry.id) + len(entry.call) + input_bytes(entry)
    if entry.unit is not None:
        size += len(',"unit":""') + len(entry.unit)
    if entry.applied:
        size += len(',"applied":true')
    entry.size = size
    return size


def _id_bytes(value: Any) -> int:
    if isinstance(value, str) and value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return len(value) + 2  # nothing to escape: the quotes and the characters
    return json_bytes(value)


def store_bytes(entries: Sequence[Entry], sizes: Sequence[int] | None = None) -> int:
    """Size of the store as a JSON array of editor-shaped entries: 2 + Σ sizes + commas."""
    if sizes is None:  # summed as made: a list of them is an int object each (4 MB at a load's peak, 100,000 entries)
        return 2 + sum(entry_bytes(e) for e in entries) + max(len(entries) - 1, 0)
    return 2 + sum(sizes) + max(len(sizes) - 1, 0)


def trim_store(
    store: Sequence[Entry], max_bytes: int, sizes: Sequence[int] | None = None
) -> tuple[list[Entry], int]:
    """The longest suffix of the store that fits `max_bytes`, and how many entries fell."""
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise ValueError(f"maxBytes must be a whole number ≥ 0, not {max_bytes!r}")
    if sizes is None:
        sizes = [entry_bytes(e) for e in store]
    total = 2
    start = len(store)
    for i in range(len(store) - 1, -1, -1):
        grown = total + sizes[i] + (1 if start < len(store) else 0)
        if grown > max_bytes:
            break
        total = grown
        start = i
    return list(store[start:]), start


class Inputs:
    """The `inputs` object a body is handed: `last`, `at`, and Python's `list` and `manifest`."""

    def __init__(self, store: Sequence[Entry]):
        self._store = store

    def last_entry(self, wanted: str) -> Entry | None:
        """The newest entry whose call matches `wanted` (a module or a full call)."""
        for entry in reversed(self._store):
            if call_matches(entry.call, wanted):
                return entry
        return None

    def entry_at(self, entry_id: Any) -> Entry | None:
        """The entry whose id equals `entry_id`, compared as strings."""
        key = id_key(entry_id)
        for entry in reversed(self._store):
            if entry.key == key:
                return entry
        return None

    def last(self, wanted: str) -> Any:
        """The input of the newest matching entry, the stored object itself; None when none."""
        entry = self.last_entry(wanted)
        return None if entry is None else entry.input

    def at(self, entry_id: Any) -> Any:
        """The input of the entry with that id; None when none."""
        entry = self.entry_at(entry_id)
        return None if entry is None else entry.input

    def list(self, wanted: str | None = None) -> list[Entry]:
        """The entries (oldest first) whose call matches `wanted`, or all of them."""
        if wanted is None:
            return list(self._store)
        return [e for e in self._store if call_matches(e.call, wanted)]

    def manifest(self) -> builtins.list[ManifestEntry]:  # `list` here is the method above
        """The manifest of every entry, oldest first."""
        return [manifest_entry(e) for e in self._store]


def make_inputs(store: Sequence[Entry]) -> Inputs:
    """Build the `inputs` object from the store (oldest first). Pure: reads the store only."""
    return Inputs(store)


def _is_handle(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("__h"), str)


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def find_unkeepable(value: Any, path: str = "") -> list[str]:
    """Dotted paths, depth first in key order, of handles and functions inside `value`."""
    found: list[str] = []
    todo: list[tuple[Any, str]] = [(value, path)]  # a stack, not recursion: values nest up to 1,024 deep
    while todo:
        item, where = todo.pop()
        if callable(item) or _is_handle(item):
            found.append(where)
        elif isinstance(item, dict):
            todo.extend((item[key], _join(where, key)) for key in reversed(js_keys(item)))
        elif isinstance(item, list):
            todo.extend((item[index], _join(where, index)) for index in range(len(item) - 1, -1, -1))
    return found


def _format_bytes(n: int) -> str:
    return f"{n:,} bytes"


def validate_keep(keep: Any, max_bytes: int = MAX_KEEP_BYTES) -> list[dict[str, Any]]:
    """The keep requests of a body's `keep`, or InvalidKeepError about the first offending entry."""
    if not isinstance(keep, dict) or _is_handle(keep):
        kind = "a handle" if _is_handle(keep) else type_name(keep)
        raise InvalidKeepError(
            f"keep must be a plain object of named values, like {{ spine, departmentId }}, not {kind}."
        )
    requests = []
    for name in js_keys(keep):
        value = keep[name]
        if not KEEP_NAME.fullmatch(name):
            raise InvalidKeepError(
                f"keep.{name}: {name!r} is not a name a later body can read as kept.<name>; "
                "use an identifier (letters, digits, _ or $, not starting with a digit), e.g. "
                f"{suggest_name(name)!r}.",
                name,
            )
        bad = find_unkeepable(value, name)
        if bad:
            raise InvalidKeepError(_unkeepable_message(name, value, bad[0]), name)
        size = json_bytes(value)
        if size > max_bytes:
            raise InvalidKeepError(
                f"keep.{name} is {_format_bytes(size)}, over the keep cap of {_format_bytes(max_bytes)}; "
                "keep an id or a smaller summary (e.g. the entity id, or a few key numbers) and read "
                "the rest again in the next body.",
                name,
            )
        requests.append({"name": name, "value": value, "bytes": size})
    return requests


def _unkeepable_message(name: str, value: Any, path: str) -> str:
    inner = value
    for part in path.split(".")[1:]:
        inner = inner[int(part)] if isinstance(inner, list) else inner[part]
    if callable(inner):
        return (
            f"keep.{path} is a function, which does not survive the worker; "
            "keep the data it computes instead (call it and keep the result)."
        )
    # A run's handle is `h<n>.<secret>`: the secret is the run's own, so a message naming it would
    # differ from run to run (and `wsi reduce` could never see "the same" failure again).
    shown = str(inner["__h"]).split(".", 1)[0]
    return (
        f"keep.{path} is a handle ({{__h: {shown!r}}}), which dies with the worker; "
        "keep the entity id or the points it was built from instead, and get a fresh handle "
        "with scene.get(id) in the next body."
    )


def suggest_name(name: str) -> str:
    """A nearby identifier for a keep name that is not one."""
    cleaned = re.sub(r"[^A-Za-z0-9_$]+", "_", name).strip("_") or "value"
    return "_" + cleaned if cleaned[0].isdigit() else cleaned


def js_type(value: Any) -> str:
    """The JSON/JavaScript word for a value's kind: null, boolean, number, string, array, function, object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if callable(value):
        return "function"
    return "object"


def type_name(value: Any) -> str:
    """The kind with its article, for messages: "a number", "an array", "null"."""
    kind = js_type(value)
    return kind if kind == "null" else ("an " if kind[0] in "aeiou" else "a ") + kind


def _utf16_key(name: str) -> list[int]:
    data = name.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def sorted_names(kept: dict[str, Any]) -> list[str]:
    """Kept names in UTF-16 code unit order, as JavaScript's default sort puts them."""
    return sorted(kept, key=_utf16_key)


def kept_manifest(kept: dict[str, Any]) -> list[KeptLine]:
    """One line per kept value, sorted by name in UTF-16 code unit order (JavaScript's sort)."""
    return [{"name": name, **describe_value(kept[name])} for name in sorted_names(kept)]

