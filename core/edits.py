"""Canvas edits (SPEC 4): each applied entry paired with the model call it edited, its chain, its diff.

Pairing: an applied entry's *predecessor* is the entry its `editOf` names (when that is an earlier
entry), else the newest earlier entry of exactly the same call. Predecessors are followed while
they are applied (the person edited their own edit), so the chain runs from the model call (the
base) through each of the person's steps to the edit. With no editOf this is exactly "the newest
earlier non-applied entry of the same call". A broken `editOf` (unknown or later) falls back to the
same-call rule and says so; an edit whose chain reaches no model call has base None and a warning.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from core.diff import Change, delta, diff, is_number, is_point, parse_pointer, pointer, with_conversion
from core.model import Entry, Id
from core.session import Session

IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
SUMMARY_ITEMS = 8
VALUE_TEXT = 40


@dataclass(slots=True)
class Pairing:
    """A canvas edit, the model call it is compared with (None: none found), and the chain between."""

    edit: Entry
    base: Entry | None
    chain: list[Entry]  # base (when found) … edit, oldest first; each step is one person's edit
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Step:
    """One step of a chain: the changes from one entry's input to the next's."""

    before: Entry
    after: Entry
    changes: list[Change]


@dataclass(slots=True)
class EditDiff:
    """An edit against its model call: the changes, each chain step, and the unit difference if any."""

    pairing: Pairing
    changes: list[Change]
    steps: list[Step]
    unit_note: str | None = None

    @property
    def edit(self) -> Entry:
        return self.pairing.edit

    @property
    def base(self) -> Entry | None:
        return self.pairing.base


def canvas_edits(session: Session) -> list[Entry]:
    """The applied entries, in timeline order."""
    return [e for e in session.entries if e.applied]


def predecessors(source: Session | Sequence[Entry]) -> dict[str, tuple[Entry | None, str | None]]:
    """For each entry (by key): the entry it was made from, and a note when its editOf was broken.

    An applied entry was made from what its editOf names, when that is earlier; every other entry
    (and an applied one without a usable editOf) from the newest earlier entry of the same call.
    `source` is a session, or any run of entries in timeline order (a state's store).
    """
    entries = source.entries if isinstance(source, Session) else source
    every_key = {e.key for e in entries}
    newest_of_call: dict[str, Entry] = {}
    earlier: dict[str, Entry] = {}
    found: dict[str, tuple[Entry | None, str | None]] = {}
    for entry in entries:
        fallback = newest_of_call.get(entry.call)
        if not entry.applied or entry.edit_of is None:
            found[entry.key] = (fallback, None)
        elif str(entry.edit_of) in earlier:
            found[entry.key] = (earlier[str(entry.edit_of)], None)
        else:
            which = "a later" if str(entry.edit_of) in every_key else "no"
            instead = f"compared with {fallback.id!r}, the newest earlier {entry.call}" if fallback else "nothing to compare with"
            found[entry.key] = (fallback, f"editOf {entry.edit_of!r} names {which} entry; {instead}")
        newest_of_call[entry.call] = entry
        earlier[entry.key] = entry
    return found


def edit_chain(edit: Entry, made_from: dict[str, tuple[Entry | None, str | None]]) -> tuple[list[Entry], list[str]]:
    """The chain from the model call (when found) to `edit`, oldest first, and the edit's own notes."""
    chain, notes = [edit], []
    node = edit
    while node.applied:
        previous, note = made_from[node.key]
        if note and node is edit:  # an earlier step's broken editOf is reported on that edit itself
            notes.append(note)
        if previous is None:
            break
        chain.append(previous)
        node = previous
    chain.reverse()
    return chain, notes


def model_call(entries: Sequence[Entry], edit: Entry) -> Entry | None:
    """The model call a canvas edit was compared with (SPEC 4), among `entries` in timeline order."""
    chain, _ = edit_chain(edit, predecessors(entries))
    return None if chain[0].applied else chain[0]


def pair_edits(session: Session) -> list[Pairing]:
    """Every canvas edit paired with its model call, chains followed back (timeline order)."""
    made_from = predecessors(session)
    pairings = []
    for edit in canvas_edits(session):
        chain, notes = edit_chain(edit, made_from)
        base = chain[0] if not chain[0].applied else None
        if base is None:
            notes.append(
                f"no model call of {edit.call} before {chain[0].id!r} to compare against; "
                "add editOf naming the call the person edited"
            )
        pairings.append(Pairing(edit, base, chain, notes))
    return pairings


def diff_edit(pairing: Pairing) -> EditDiff:
    """The changes from the base's input to the edit's, each chain step's, and the unit note."""
    steps = []
    if len(pairing.chain) > 2 or pairing.base is None:
        steps = [Step(x, y, diff(x.input, y.input)) for x, y in zip(pairing.chain, pairing.chain[1:])]
    base, edit = pairing.base, pairing.edit
    if base is None:
        return EditDiff(pairing, [], steps)
    changes = diff(base.input, edit.input)
    note = None
    if base.unit != edit.unit:
        if base.unit and edit.unit:
            changes = with_conversion(changes, edit.unit, base.unit)
            note = (f"units differ: the model's call {base.id!r} is in {base.unit}, the edit in {edit.unit}; "
                    f"numbers are also shown converted to {base.unit}")
        else:
            note = (f"units differ: the model's call {base.id!r} is in {base.unit or 'no unit'}, "
                    f"the edit in {edit.unit or 'no unit'}; nothing could be converted")
    return EditDiff(pairing, changes, steps, note)


def diff_edits(session: Session, edit_id: Id | None = None) -> list[EditDiff]:
    """Every canvas edit's diff, or only edit `edit_id`'s (KeyError when it is not a canvas edit)."""
    pairings = pair_edits(session)
    if edit_id is not None:
        pairings = [p for p in pairings if p.edit.key == str(edit_id)]
        if not pairings:
            raise KeyError(edit_id)
    return [diff_edit(p) for p in pairings]


def edit_document(edit_diff: EditDiff) -> dict[str, Any]:
    """One edit as SPEC 6 has it (`edit`, `base`, `call`, `changes`), then chain, steps, units, notes."""
    pairing = edit_diff.pairing
    document: dict[str, Any] = {
        "edit": pairing.edit.id,
        "base": pairing.base.id if pairing.base else None,
        "call": pairing.edit.call,
        "changes": edit_diff.changes,
        "chain": [e.id for e in pairing.chain],
    }
    if edit_diff.steps:
        document["steps"] = [{"from": s.before.id, "to": s.after.id, "changes": s.changes} for s in edit_diff.steps]
    if pairing.edit.unit:
        document["unit"] = pairing.edit.unit
    if pairing.base and pairing.base.unit != pairing.edit.unit:
        document["baseUnit"] = pairing.base.unit
    if edit_diff.unit_note:
        document["unitNote"] = edit_diff.unit_note
    if pairing.notes:
        document["notes"] = pairing.notes
    return document


def diff_document(edit_diffs: list[EditDiff]) -> dict[str, Any]:
    """`{"edits": [...]}` of SPEC 6."""
    return {"edits": [edit_document(d) for d in edit_diffs]}


def value_text(value: Any, limit: int = VALUE_TEXT) -> str:
    """A value as short JSON for one line of text (`[1500,18000]`, `"north"`, `{…}` cut with `…`)."""
    if is_number(value) and float(value).is_integer() and abs(value) < 1e21:
        return str(int(value))
    try:
        text = orjson.dumps(value).decode()
    except TypeError:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def signed(number: int | float) -> str:
    """`+2`, `-0.5`: a delta as a designer reads it."""
    text = value_text(number)
    return text if text.startswith("-") or number == 0 else "+" + text


def display_path(path: str) -> str:
    """A pointer as shown in text: `spine/3` (the root is `(whole input)`)."""
    return path[1:] if path else "(whole input)"


def change_text(change: Change, unit: str | None) -> str:
    """One change in words: `bandDepth 32 → 34 mm (+2)`, `notes added: "x"`, `tags/2 removed (was 1)`."""
    where = display_path(change["path"])
    if change["op"] == "add":
        return f"{where} added: {value_text(change['to'])}"
    if change["op"] == "remove":
        return f"{where} removed (was {value_text(change['from'])})"
    suffix = f" {unit}" if unit and (is_number(change["to"]) or is_point(change["to"])) else ""
    text = f"{where} {value_text(change['from'])} → {value_text(change['to'])}{suffix}"
    if "delta" in change:
        text += f" ({signed(change['delta'])})"
    converted = change.get("converted")
    if converted:
        text += f" [= {value_text(converted['to'])} {converted['unit']}"
        text += f", {signed(converted['delta'])}]" if "delta" in converted else "]"
    return text


def _indices(indices: list[str]) -> str:
    shown = ", ".join(indices[:3])
    return shown + (", …" if len(indices) > 3 else "")


def summary_items(changes: list[Change], unit: str | None) -> list[str]:
    """The changes in words; changes to the points of one array read `spine: 1 point added at 12, 3 moved`."""
    items: list[str] = []
    groups: dict[str, dict[str, list[str]]] = {}
    for change in changes:
        parent, _, last = change["path"].rpartition("/")
        value = change.get("to", change.get("from"))
        if last.isdigit() and is_point(value) and (change["op"] != "replace" or is_point(change["from"])):
            if parent not in groups:
                groups[parent] = {"add": [], "remove": [], "replace": []}
                items.append(parent)  # placeholder, filled in below so the group keeps its place
            groups[parent][change["op"]].append(last)
        else:
            items.append(change_text(change, unit))
    return [_group_text(item, groups[item]) if item in groups else item for item in items]


def _group_text(parent: str, ops: dict[str, list[str]]) -> str:
    parts = []
    if ops["add"]:
        parts.append(f"{len(ops['add'])} point{'s' if len(ops['add']) > 1 else ''} added at {_indices(ops['add'])}")
    if ops["remove"]:
        parts.append(f"{len(ops['remove'])} removed at {_indices(ops['remove'])}")
    if ops["replace"]:
        parts.append(f"{len(ops['replace'])} moved")
    return f"{display_path(parent)}: {', '.join(parts)}"


def summary_line(edit_diff: EditDiff) -> str:
    """The edit in one line: `call  c7 → c9 (the person's edit)  bandDepth 32 → 34 mm (+2)  spine: …`."""
    pairing = edit_diff.pairing
    edit = pairing.edit
    if pairing.base is None:
        return f"{edit.call}  (no model call) → {edit.id} (the person's edit)  not compared"
    steps = len(pairing.chain) - 1
    chain = f", {steps} steps: " + " → ".join(str(e.id) for e in pairing.chain) if steps > 1 else ""
    head = f"{edit.call}  {pairing.base.id} → {edit.id} (the person's edit{chain})"
    items = summary_items(edit_diff.changes, edit.unit)
    if not items:
        return f"{head}  no change"
    more = len(items) - SUMMARY_ITEMS
    shown = items[:SUMMARY_ITEMS] + ([f"… {more} more"] if more > 0 else [])
    return "  ".join([head, *shown])


def copy_as_body(edit_diff: EditDiff, session: Session) -> str:
    """A body that rebuilds the edit from the model's call: spread its input, set the changed top-level fields.

    It names the module as `inputs.last("<module>")` asks, unless another fn of that module was
    called in the session: then `last(module)` could hand back that fn's input, so the full call is named.
    """
    edit, base = edit_diff.edit, edit_diff.base
    value = edit.input  # parsed once: a loaded entry parses its text on every read
    if base is None or not isinstance(base.input, dict) or not isinstance(value, dict):
        return f"return {_js(value)};\n"
    siblings = {e.call for e in session.entries if e.module == edit.module}
    wanted = edit.module if siblings == {edit.call} else edit.call
    fields = []
    changed = _top_level_keys(edit_diff.changes)
    for key in [k for k in value if k in changed] + [k for k in changed if k not in value]:
        name = key if IDENTIFIER.match(key) else _js(key)
        fields.append(f"  {name}: {_js(value[key]) if key in value else 'undefined'},")
    return "return {\n" + f"  ...inputs.last({_js(wanted)}),\n" + "\n".join(fields) + ("\n" if fields else "") + "};\n"


def _top_level_keys(changes: list[Change]) -> list[str]:
    keys: list[str] = []
    for change in changes:
        tokens = parse_pointer(change["path"])
        if tokens and tokens[0] not in keys:
            keys.append(tokens[0])
    return keys


def _js(value: Any) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def filter_changes(changes: list[Change], text: str, unit: str | None = None) -> list[int]:
    """Indices of the changes whose words (op, path, values) contain `text`, case-insensitive."""
    wanted = text.strip().casefold()
    if not wanted:
        return list(range(len(changes)))
    return [i for i, c in enumerate(changes) if wanted in f"{c['op']} {change_text(c, unit)}".casefold()]


# --- geometry: what the Edits view draws ------------------------------------------------------------

# Two-number arrays under these keys are sizes, not positions: they are not drawn as points.
NOT_POSITIONS = frozenset({"size", "module", "dims", "dimensions", "extent", "scale", "span"})
POSITION_KEYS = ("at", "origin", "position")


@dataclass(slots=True)
class Shape:
    """Geometry found in an input: a polyline (an array of points), a point, or a box (`at` + `size`)."""

    path: str
    kind: str  # "polyline" | "point" | "box"
    points: list[tuple[float, float]]


@dataclass(slots=True)
class VertexMark:
    """A changed point: where it was (None: added) and where it is (None: removed), in words for a tooltip."""

    path: str
    before: tuple[float, float] | None
    after: tuple[float, float] | None
    text: str


def xy(point: Any) -> tuple[float, float]:
    """The x and y of a point, `[x, y(, z)]` or `{x, y(, z)}`."""
    return (point["x"], point["y"]) if isinstance(point, dict) else (point[0], point[1])


def shapes(value: Any) -> list[Shape]:
    """Every polyline, point and box in `value`, depth first, each named by its JSON Pointer."""
    found: list[Shape] = []
    _shapes(value, (), None, found)
    return found


def _shapes(value: Any, tokens: tuple, key: Any, found: list[Shape]) -> None:
    if isinstance(value, list) and len(value) >= 2 and all(is_point(v) for v in value):
        found.append(Shape(pointer(tokens), "polyline", [xy(v) for v in value]))
    elif is_point(value):
        if key not in NOT_POSITIONS:
            found.append(Shape(pointer(tokens), "point", [xy(value)]))
    elif isinstance(value, dict):
        size = value.get("size")
        at = next((value[k] for k in POSITION_KEYS if is_point(value.get(k))), None)
        if at is not None and isinstance(size, list) and len(size) == 2 and all(is_number(v) for v in size):
            (x, y), (w, h) = xy(at), size
            found.append(Shape(pointer(tokens), "box", [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]))
        for child_key, child in value.items():
            if at is None or child is not at:  # the box already draws its corner point
                _shapes(child, tokens + (child_key,), child_key, found)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            _shapes(child, tokens + (index,), index, found)


def vertex_marks(changes: list[Change]) -> list[VertexMark]:
    """The changes that move, add or remove a point, with where it was and where it is."""
    marks = []
    for change in changes:
        before = xy(change["from"]) if is_point(change.get("from")) else None
        after = xy(change["to"]) if is_point(change.get("to")) else None
        if before is None and after is None:
            continue
        where = display_path(change["path"])
        if change["op"] == "add" and after:
            text = f"{where} added at {_xy_text(after)}"
        elif change["op"] == "remove" and before:
            text = f"{where} removed from {_xy_text(before)}"
        elif before and after:
            text = (f"{where} moved {_xy_text(before)} → {_xy_text(after)} "
                    f"(Δ {signed(delta(before[0], after[0]))}, {signed(delta(before[1], after[1]))})")
        else:
            text = change_text(change, None)
        marks.append(VertexMark(change["path"], before, after, text))
    return marks


def _xy_text(point: tuple[float, float]) -> str:
    return f"({value_text(point[0])}, {value_text(point[1])})"


def changed_paths(changes: list[Change]) -> set[str]:
    """The pointers an `add` or `replace` wrote, and every ancestor of any change: what to highlight in the result."""
    paths: set[str] = set()
    for change in changes:
        path = change["path"]
        if change["op"] == "remove":  # gone from the result: only its container changed
            if not path:
                continue
            path = path.rpartition("/")[0]
        while path not in paths:
            paths.add(path)
            if not path:
                break
            path = path.rpartition("/")[0]
    return paths
