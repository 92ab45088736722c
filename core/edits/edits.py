"""Canvas edits (SPEC 4): each applied entry paired with the model call it edited, its chain, its diff.

Pairing: an applied entry's *predecessor* is the entry its `editOf` names (when that is an earlier
entry), else the newest earlier entry of exactly the same call. Predecessors are followed while
they are applied (the person edited their own edit), so the chain runs from the model call (the
base) through each of the person's steps to the edit. With no editOf this is exactly "the newest
earlier non-applied entry of the same call". A broken `editOf` (unknown or later) falls back to the
same-call rule and says so; an edit whose chain reaches no model call has base None and a warning.

Chains are computed once, in timeline order: each edit names its base and its `previous` entry
(the base, or the person's earlier edit it was made from) and is diffed against both, never
against every step again. So a 4,000-step chain costs 4,000 pairings and 8,000 diffs, and
`wsi diff --json` grows linearly: an edit lists `previous` and its own step's changes, and the
whole chain is read by following `previous`.

Units: an edit is compared in its base's unit (`wsi_inspector.core.edits.diff`, `wsi_inspector.core.edits.units`): from/to/delta in the
model's unit, `raw` in the edit's own. A step is compared in its previous entry's unit.
"""
from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import orjson

from wsi_inspector.core.edits.diff import Change, diff, parse_pointer
from wsi_inspector.core.jsrules.json_values import is_point, json_equal
from wsi_inspector.core.jsrules.jsonsize import compact_json, js_stringify
from wsi_inspector.core.session.model import Entry, Id
from wsi_inspector.core.jsrules.run_inputs import trim_store
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.edits.units import LENGTH, Conversion, power_at, unit_text

IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
SUMMARY_ITEMS = 8
VALUE_TEXT = 40
CHAIN_SHOWN = 4  # a chain of more steps than this is shown as its ends: c1 → … → e3999 → e4000
PARSED_KEPT = 4  # parsed inputs kept while diffing a session's edits (the base and the previous step recur)


@dataclass(slots=True, eq=False)
class Pairing:
    """A canvas edit, the model call it is compared with (None: none found), and the entry it was made from."""

    edit: Entry
    base: Entry | None
    previous: Entry | None  # the base, or the person's earlier edit this one was made from; None: nothing
    earlier: Pairing | None  # the pairing of `previous` when that is itself a canvas edit
    steps: int  # the person's edits from the base (or the chain's first edit) to this one
    first: Entry  # the chain's oldest entry: the base, or the person's first edit when there is no model call
    notes: list[str] = field(default_factory=list)

    @property
    def chain(self) -> list[Entry]:
        """Every entry from the base (when found) to this edit, oldest first: walks `steps` links."""
        entries, pairing = [self.edit], self
        while pairing.earlier is not None:
            pairing = pairing.earlier
            entries.append(pairing.edit)
        if pairing.previous is not None:
            entries.append(pairing.previous)
        entries.reverse()
        return entries


@dataclass(slots=True)
class Step:
    """One step of a chain: the changes from one entry's input to the next's (in the earlier one's unit)."""

    before: Entry
    after: Entry
    changes: list[Change]


@dataclass(slots=True)
class EditDiff:
    """An edit against its model call, its own step (when made from an earlier edit), and the unit difference."""

    pairing: Pairing
    changes: list[Change]
    step: Step | None  # previous → edit, when previous is the person's earlier edit
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
    """Every canvas edit paired with its model call and previous entry, in timeline order, in one pass."""
    made_from = predecessors(session)
    by_key: dict[str, Pairing] = {}
    pairings = []
    for edit in canvas_edits(session):
        previous, note = made_from[edit.key]
        earlier = by_key.get(previous.key) if previous is not None and previous.applied else None
        if previous is None:
            base, steps = None, 0
        elif earlier is None:
            base, steps = previous, 1
        else:
            base, steps = earlier.base, earlier.steps + 1
        first = base if base is not None else earlier.first if earlier is not None else edit
        pairing = Pairing(edit, base, previous, earlier, steps, first, [note] if note else [])
        if base is None:
            pairing.notes.append(f"no model call of {edit.call} before {pairing.first.id!r} to compare against; "
                                 "add editOf naming the call the person edited")
        by_key[edit.key] = pairing
        pairings.append(pairing)
    return pairings


class _Inputs:
    """Parsed inputs of the last few entries asked for: a loaded entry parses its record on every read."""

    def __init__(self) -> None:
        self.kept: OrderedDict[str, Any] = OrderedDict()

    def __call__(self, entry: Entry) -> Any:
        if entry.key in self.kept:
            self.kept.move_to_end(entry.key)
            return self.kept[entry.key]
        value = self.kept[entry.key] = entry.input
        if len(self.kept) > PARSED_KEPT:
            self.kept.popitem(last=False)
        return value


def compare(before: Entry, after: Entry, inputs: _Inputs | None = None) -> list[Change]:
    """The changes from `before`'s input to `after`'s, in `before`'s unit when both have one."""
    read = inputs or _Inputs()
    return diff(read(before), read(after), before.unit, after.unit)


def diff_edit(pairing: Pairing, inputs: _Inputs | None = None) -> EditDiff:
    """The changes from the base's input to the edit's, the edit's own step, and the unit note."""
    read = inputs or _Inputs()
    base, edit, previous = pairing.base, pairing.edit, pairing.previous
    step = None
    if previous is not None and previous.applied:
        step = Step(previous, edit, compare(previous, edit, read))
    if base is None:
        return EditDiff(pairing, [], step)
    changes = compare(base, edit, read)
    note = None
    if base.unit != edit.unit:
        if base.unit and edit.unit:
            note = (f"units differ: the model's call {base.id!r} is in {base.unit}, the edit in {edit.unit}; "
                    f"compared in {base.unit} (raw: the edit's own numbers, in {edit.unit})")
        else:
            note = (f"units differ: the model's call {base.id!r} is in {base.unit or 'no unit'}, "
                    f"the edit in {edit.unit or 'no unit'}; nothing could be converted")
    return EditDiff(pairing, changes, step, note)


def diff_edits(session: Session, edit_id: Id | None = None) -> list[EditDiff]:
    """Every canvas edit's diff, or only edit `edit_id`'s (KeyError when it is not a canvas edit)."""
    pairings = pair_edits(session)
    if edit_id is not None:
        pairings = [p for p in pairings if p.edit.key == str(edit_id)]
        if not pairings:
            raise KeyError(edit_id)
    inputs = _Inputs()
    return [diff_edit(p, inputs) for p in pairings]


def chain_steps(pairing: Pairing) -> list[Step]:
    """Every step of one edit's chain, oldest first (one diff per step: for one edit, not a whole session)."""
    chain, inputs = pairing.chain, _Inputs()
    return [Step(x, y, compare(x, y, inputs)) for x, y in zip(chain, chain[1:])]


class EditLine(TypedDict):
    """One canvas edit of `wsi diff --json`'s `edits` (SPEC 6, then its chain, units and notes: see edit_document)."""

    edit: Id
    base: Id | None
    call: str
    changes: list[Change]
    previous: Id | None
    steps: int
    stepChanges: NotRequired[list[Change]]
    unit: NotRequired[str]
    baseUnit: NotRequired[str | None]
    unitNote: NotRequired[str]
    notes: NotRequired[list[str]]


class DiffDocument(TypedDict):
    """`wsi diff --json` (SPEC 6): every canvas edit against the model call it was made from."""

    edits: list[EditLine]


def edit_document(edit_diff: EditDiff) -> EditLine:
    """One edit as SPEC 6 has it (`edit`, `base`, `call`, `changes`), then its place in the chain, units, notes.

    `previous` is the entry the edit was made from and `steps` how many of the person's edits lead
    from the base to it; when `previous` is an earlier edit, `stepChanges` are the changes from it.
    The chain is not repeated: follow `previous` through the other edits.
    """
    pairing = edit_diff.pairing
    document: EditLine = {
        "edit": pairing.edit.id,
        "base": pairing.base.id if pairing.base else None,
        "call": pairing.edit.call,
        "changes": edit_diff.changes,
        "previous": pairing.previous.id if pairing.previous else None,
        "steps": pairing.steps,
    }
    if edit_diff.step is not None:
        document["stepChanges"] = edit_diff.step.changes
    if pairing.edit.unit:
        document["unit"] = pairing.edit.unit
    if pairing.base and pairing.base.unit != pairing.edit.unit:
        document["baseUnit"] = pairing.base.unit
    if edit_diff.unit_note:
        document["unitNote"] = edit_diff.unit_note
    if pairing.notes:
        document["notes"] = pairing.notes
    return document


def diff_document(edit_diffs: list[EditDiff]) -> DiffDocument:
    """`{"edits": [...]}` of SPEC 6."""
    return {"edits": [edit_document(d) for d in edit_diffs]}


def chain_text(pairing: Pairing) -> str:
    """The chain in ids, its ends only when long: `c4 → e1 → e2`, `c0 → … → e3999 → e4000`."""
    ids: list[str] = []
    link: Pairing | None = pairing
    while link is not None and len(ids) < CHAIN_SHOWN:
        ids.append(str(link.edit.id))
        link = link.earlier
    if link is None:
        start = [str(pairing.base.id)] if pairing.base is not None else []
        return " → ".join(start + ids[::-1])
    return " → ".join([str(pairing.first.id), "…", *reversed(ids[:2])])


def value_text(value: Any, limit: int = VALUE_TEXT) -> str:
    """A value as short JSON for one line of text (`[1500,18000]`, `"north"`, `{…}` cut with `…`)."""
    # An int is compared before any float(): one of 400 digits is a JSON number too, and float() of it
    # overflows. Past 2^53 JavaScript prints the nearest double, which js_stringify writes.
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 2**53:
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return compact_json(value, limit - 1)  # as JavaScript prints it (900.0 → 900), the "…" within `limit`


def signed(number: int | float) -> str:
    """`+2`, `-0.5`: a delta as a designer reads it."""
    text = value_text(number)
    return text if text.startswith("-") or number == 0 else "+" + text


def display_path(path: str) -> str:
    """A pointer as shown in text: `spine/3` (the root is `(whole input)`)."""
    return path[1:] if path else "(whole input)"


def change_text(change: Change, unit: str | None, raw_unit: str | None = None) -> str:
    """One change in words: `bandDepth 32 → 34 mm (+2)`, `notes added: "x"`, `tags/2 removed (was 1)`.

    With `raw_unit` (the edit's own, where it differs), the edit's own numbers follow: `[as cm: 3.2 → 3.4]`.
    """
    where = display_path(change["path"])
    raw = change.get("raw")
    raw_text = ""
    if raw and raw_unit:
        if change["op"] == "replace" and (raw["from"] != change["from"] or raw["to"] != change["to"]):
            raw_text = f" [as {raw_unit}: {value_text(raw['from'])} → {value_text(raw['to'])}]"
        elif change["op"] == "add" and raw["to"] != change["to"]:
            raw_text = f" [as {raw_unit}: {value_text(raw['to'])}]"
        elif change["op"] == "remove" and raw["from"] != change["from"]:
            raw_text = f" [as {raw_unit}: {value_text(raw['from'])}]"
    if change["op"] == "add":
        return f"{where} added: {value_text(change['to'])}{raw_text}"
    if change["op"] == "remove":
        return f"{where} removed (was {value_text(change['from'])}){raw_text}"
    suffix = unit_text(unit, parse_pointer(change["path"]), change["to"])
    suffix = f" {suffix}" if suffix else ""
    text = f"{where} {value_text(change['from'])} → {value_text(change['to'])}{suffix}"
    if "delta" in change:
        text += f" ({signed(change['delta'])})"
    return text + raw_text


def _indices(indices: list[str]) -> str:
    shown = ", ".join(indices[:3])
    return shown + (", …" if len(indices) > 3 else "")


def summary_items(changes: list[Change], unit: str | None, raw_unit: str | None = None) -> list[str]:
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
            items.append(change_text(change, unit, raw_unit))
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


def units_of(before: Entry, after: Entry) -> tuple[str | None, str | None]:
    """The unit a comparison's numbers are in, and the edit's own unit when its numbers were converted."""
    if before.unit and after.unit and before.unit != after.unit:
        return before.unit, after.unit
    return before.unit or after.unit, None


def summary_line(edit_diff: EditDiff) -> str:
    """The edit in one line: `call  c7 → c9 (the person's edit)  bandDepth 32 → 34 mm (+2)  spine: …`."""
    pairing = edit_diff.pairing
    edit = pairing.edit
    if pairing.base is None:
        return f"{edit.call}  (no model call) → {edit.id} (the person's edit)  not compared"
    chain = f", {pairing.steps:,} steps: {chain_text(pairing)}" if pairing.steps > 1 else ""
    head = f"{edit.call}  {pairing.base.id} → {edit.id} (the person's edit{chain})"
    items = summary_items(edit_diff.changes, *units_of(pairing.base, edit))
    if not items:
        return f"{head}  no change"
    more = len(items) - SUMMARY_ITEMS
    shown = items[:SUMMARY_ITEMS] + ([f"… {more} more"] if more > 0 else [])
    return "  ".join([head, *shown])


def copy_as_body(edit_diff: EditDiff, session: Session) -> str:
    """A body that returns the edit's input, built from the model's call: `inputs.at(base)` and the changed fields.

    It names the base by id, so at every cursor after the edit it starts from that call (never a
    newer one that `inputs.last` would give), drops the keys the person removed, and sets the
    top-level fields the person changed, as the edit's own numbers. When the base falls at the
    session's store cap (then it falls at every later cursor too), the body returns the input whole.
    """
    edit, base = edit_diff.edit, edit_diff.base
    value = edit.input  # parsed once: a loaded entry parses its text on every read
    model = base.input if base is not None else None
    head = f"// Rebuilds the person's edit {edit.id} ({edit.call})"
    if base is None or not isinstance(value, dict) or not isinstance(model, dict):
        return f"{head}.\nreturn {_js(value)};\n"
    if not _kept_at_end(session, base):
        return f"{head}: {base.id} falls at the store cap, so the input is written out whole.\nreturn {_js(value)};\n"
    removed = [key for key in model if key not in value]
    changed = [key for key, item in value.items() if key not in model or not json_equal(model[key], item)]
    lines = [f"{head} from the model's call {base.id}."]
    start = f"inputs.at({_js(base.id)})"
    if removed:
        names = ", ".join(f"{_js(key)}: _{number}" for number, key in enumerate(removed))
        lines.append(f"const {{ {names}, ...model }} = {start};  // the person removed these")
        start = "model"
    fields = [f"  {key if IDENTIFIER.match(key) else _js(key)}: {_js(value[key])}," for key in changed]
    lines += ["return {", f"  ...{start},", *fields, "};"]
    return "\n".join(lines) + "\n"


def _kept_at_end(session: Session, entry: Entry) -> bool:
    """Whether `entry` is in the store a body at the end of the session gets, trimmed to `caps.storeBytes`."""
    cap = session.caps.store_bytes
    if cap is None:
        return True
    tail, _ = trim_store(session.entries, cap)
    return any(e is entry for e in tail)


def _js(value: Any) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # nested past orjson's limit, integers beyond 64 bits, lone surrogates
        return js_stringify(value) or "undefined"


def filter_changes(changes: list[Change], text: str, unit: str | None = None, raw_unit: str | None = None) -> list[int]:
    """Indices of the changes whose words (op, path, values) contain `text`, case-insensitive."""
    wanted = text.strip().casefold()
    if not wanted:
        return list(range(len(changes)))
    return [i for i, c in enumerate(changes) if wanted in f"{c['op']} {change_text(c, unit, raw_unit)}".casefold()]


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


# --- diffing a session's edits in another process ------------------------------------------------
# Diffing every edit of a big session is seconds of pure Python; a window runs it in a worker process
# (wsi_inspector.gui.background.jobs), so it does not hold the GUI thread's interpreter. What crosses is plain data that
# pickles: the entries involved (id, unit, applied, record text or input) once each, rows of indices
# into them, and back each row's changes.

PortableEntry = tuple[Id, str | None, bool, bytes | None, Any]  # id, unit, applied, record text, input
PortableRow = tuple[int | None, int, int | None]  # base, edit, previous: indices into the entries
RowDiff = tuple[int, list[Change] | None, list[Change] | None, str | None]  # row, changes, step, note or error


def portable_rows(pairings: Sequence[Pairing]) -> tuple[list[PortableEntry], list[PortableRow]]:
    """The entries `diff_rows` needs for `pairings` (each once) and each pairing's row of indices."""
    positions: dict[int, int] = {}
    entries: list[PortableEntry] = []

    def place(entry: Entry | None) -> int | None:
        if entry is None:
            return None
        found = positions.get(id(entry))
        if found is None:
            text = entry.text
            entries.append((entry.id, entry.unit, entry.applied, bytes(memoryview(text)) if text is not None else None,
                            entry.input if text is None else None))
            found = positions[id(entry)] = len(entries) - 1
        return found

    rows = [(place(p.base), place(p.edit), place(p.previous)) for p in pairings]
    return entries, [(base, edit, previous) for base, edit, previous in rows if edit is not None]


def _made(portable: PortableEntry) -> Entry:
    entry_id, unit, applied, text, value = portable
    entry = Entry(entry_id, "", value, unit, applied)
    if text is not None:
        entry.hold_as_text(text)
    return entry


def diff_rows(entries: list[PortableEntry], rows: list[PortableRow], report: Callable[[list[RowDiff]], None],
              batch_s: float = 0.2) -> int:
    """Diff each row as `diff_edit` does, handing `report` what is done at most every `batch_s`; returns the count."""
    made = [_made(e) for e in entries]
    inputs = _Inputs()
    batch: list[RowDiff] = []
    sent = time.perf_counter()
    for row, (base, edit, previous) in enumerate(rows):
        pairing = Pairing(made[edit], made[base] if base is not None else None,
                          made[previous] if previous is not None else None, None, 0, made[edit])
        try:
            edit_diff = diff_edit(pairing, inputs)
            batch.append((row, edit_diff.changes, edit_diff.step.changes if edit_diff.step else None, edit_diff.unit_note))
        except Exception as exc:  # that row says what went wrong; the others go on
            batch.append((row, None, None, f"{type(exc).__name__}: {exc}"))
        if time.perf_counter() - sent > batch_s:
            report(batch)
            batch, sent = [], time.perf_counter()
    report(batch)
    return len(rows)


def edit_diff_of(pairing: Pairing, row: RowDiff) -> EditDiff:
    """The `EditDiff` of `pairing` from its `diff_rows` answer (ValueError carries a row's error)."""
    _row, changes, step_changes, note = row
    if changes is None:
        raise ValueError(note)
    step = Step(pairing.previous, pairing.edit, step_changes) if step_changes is not None and pairing.previous else None
    return EditDiff(pairing, changes, step, note)


def change_in_unit(change: Change, from_unit: str | None, to_unit: str | None) -> Change:
    """A change (`from`, `to`, `delta` at `path`) with its lengths in `to_unit` (the change as it is when a unit is missing)."""
    if not from_unit or not to_unit or from_unit == to_unit:
        return change
    conversion = Conversion(from_unit, to_unit)
    power = power_at(parse_pointer(change["path"]))
    converted = dict(change)
    for key in ("from", "to"):
        if key in change:
            value = change[key]
            converted[key] = conversion.value(value, LENGTH if power is None and is_point(value) else power)
    if "delta" in change and power is not None and power > 0:
        converted["delta"] = conversion.number(change["delta"], power)
    return converted
