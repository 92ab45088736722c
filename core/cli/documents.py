"""The `wsi … --json` documents that only a command built, and every document as a CSV table.

The window's File ▸ Export writes the document of the view in front, exactly as the matching
`wsi … --json` prints it (the builders live in core: `inputs_manifest`, `kept_document`,
`diff_document`, `changes_between`, a run result, and `trim_document`, `problems_document` and
`replay_document` here), and, for the views that are tables, the same data as CSV: one row per
entry, change, call, body or problem, numbers as numbers and JSON values as one line of JSON.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

import orjson

from wsi_inspector.core.edits.edits import DiffDocument
from wsi_inspector.core.runner.replay import Verdict
from wsi_inspector.core.search.manifest import InputsManifest, KeptDocument, shape_text
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.model import Id, ProblemLine
from wsi_inspector.core.trim.changes import ChangesDocument
from wsi_inspector.core.trim.preview import TrimPreview

Table = tuple[list[str], list[list[Any]]]
Document = Mapping[str, Any]  # any one `wsi … --json` document (each has its own TypedDict beside its builder)


class TrimCompared(TypedDict):
    """`wsi trim --compare`: the entries that fall between two caps, and the canvas edits among them."""

    low: int
    high: int
    fell: list[Id]
    edits: int  # how many of them are canvas edits


class TrimDocument(TypedDict):
    """`wsi trim --json` (SPEC 6): where the cap cuts the store, what it keeps, and a second cap compared."""

    cap: int
    fell: int
    bytes: int
    kept: list[Id]
    compare: NotRequired[TrimCompared]


class ProblemsDocument(TypedDict):
    """`wsi validate --json`: the session's errors and warnings."""

    errors: list[ProblemLine]
    warnings: list[ProblemLine]


class ReplayDocument(TypedDict):
    """`wsi replay --json` (SPEC 6): a verdict per recorded body, in timeline order."""

    bodies: list[Verdict]


def trim_document(preview: TrimPreview, cap: int, compare: int | None = None) -> TrimDocument:
    """`{"cap", "fell", "bytes", "kept"}` of SPEC 6 (`wsi trim --json`), with `"compare"` for a second cap."""
    fell = preview.fell_at(cap)
    document: TrimDocument = {
        "cap": cap,
        "fell": fell,
        "bytes": preview.kept_from_cap(fell),
        "kept": [preview.entry(i).id for i in range(fell, preview.count)],
    }
    if compare is not None:
        between = preview.compare(cap, compare)
        document["compare"] = {
            "low": between.low, "high": between.high,
            "fell": [e.id for e in between.entries],
            "edits": between.edits,
        }
    return document


def problems_document(session: Session) -> ProblemsDocument:
    """`{"errors": [{"where", "message"}], "warnings": [...]}` (`wsi validate --json`)."""
    return {"errors": [p.as_json() for p in session.errors], "warnings": [p.as_json() for p in session.warnings]}


def replay_document(verdicts: Sequence[Verdict]) -> ReplayDocument:
    """`{"bodies": [verdict…]}` (`wsi replay --json`)."""
    return {"bodies": list(verdicts)}


# --- the same data as tables ------------------------------------------------------------------------

def json_cell(value: Any) -> str:
    """A JSON value as one line of JSON for a CSV cell (a string stays itself)."""
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # integers beyond 64 bits, lone surrogates
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def manifest_table(document: InputsManifest) -> Table:
    """One row per store entry of a manifest document: id, call, unit, applied, shape, bytes."""
    rows = [[e["id"], e["call"], e.get("unit", ""), bool(e.get("applied")), shape_text(e, limit=10_000), e["bytes"]]
            for e in document["entries"]]
    return ["id", "call", "unit", "applied", "shape", "bytes"], rows


def kept_table(document: KeptDocument) -> Table:
    """One row per kept name of a kept document: name, shape, bytes."""
    return ["name", "shape", "bytes"], [[k["name"], shape_text(k, limit=10_000), k["bytes"]] for k in document["kept"]]


def diff_table(document: DiffDocument) -> Table:
    """One row per change of a diff document: edit, base, call, op, path, from, to, delta."""
    rows = [[edit["edit"], edit["base"] if edit["base"] is not None else "", edit["call"], change["op"], change["path"],
             json_cell(change["from"]) if "from" in change else "", json_cell(change["to"]) if "to" in change else "",
             change.get("delta", "")]
            for edit in document["edits"] for change in edit["changes"]]
    return ["edit", "base", "call", "op", "path", "from", "to", "delta"], rows


def trim_table(preview: TrimPreview, cap: int) -> Table:
    """One row per store entry, oldest first: id, call, bytes, the smallest cap that keeps it, and whether it falls."""
    fell = preview.fell_at(cap)
    rows = [[preview.entry(i).id, preview.entry(i).call, preview.entry_size(i), preview.kept_from_cap(i), i < fell]
            for i in range(preview.count)]
    return ["id", "call", "bytes", "keptFromCap", "falls"], rows


def run_table(result: dict[str, Any]) -> Table:
    """One row per module call of a run result: id, call, line, ok, output or error, startMs, durationMs."""
    operations = result.get("operations", [])
    rows = []
    for number, call in enumerate(result.get("calls", [])):
        operation = operations[number] if number < len(operations) else {}
        rows.append([call["id"], call["call"], call.get("line", ""), "error" not in call,
                     call["error"] if "error" in call else json_cell(call.get("output")),
                     operation.get("startMs", ""), operation.get("durationMs", "")])
    return ["id", "call", "line", "ok", "outputOrError", "startMs", "durationMs"], rows


def replay_table(document: ReplayDocument) -> Table:
    """One row per replayed body: body, same, the kind and words of its first difference, its recorded calls."""
    rows = []
    for v in document["bodies"]:
        first = v.get("firstDifference")
        rows.append([v["body"], v["same"], first["kind"] if first else "", first["message"] if first else "",
                     " ".join(map(str, v.get("recordedCalls", [])))])
    return ["body", "same", "differenceKind", "firstDifference", "recordedCalls"], rows


def changes_table(document: ChangesDocument) -> Table:
    """One row per entry added or removed and per kept name added, removed or changed."""
    rows: list[list[Any]] = []
    for what, entries in (("added", document["added"]), ("removed", document["removed"])):
        rows.extend(["entry", what, e["id"], e["call"], shape_text(e, limit=10_000), e["bytes"], ""] for e in entries)
    kept = document["kept"]
    for what, named in (("added", kept["added"]), ("removed", kept["removed"])):
        rows.extend(["kept", what, line["name"], "", shape_text(line, limit=10_000), line["bytes"], ""] for line in named)
    # A changed value: as it is at the second point.
    rows.extend(["kept", "changed", line["name"], "", shape_text(line["to"], limit=10_000), line["to"]["bytes"], len(line["changes"])]
                for line in kept["changed"])
    return ["kind", "change", "idOrName", "call", "shape", "bytes", "changes"], rows


def problems_table(document: ProblemsDocument) -> Table:
    """One row per problem: severity, where, message."""
    return ["severity", "where", "message"], [
        [severity, p["where"] or "", p["message"]]
        for severity, problems in (("error", document["errors"]), ("warning", document["warnings"])) for p in problems]


def csv_text(table: Table) -> str:
    """A table as CSV (RFC 4180: comma-separated, quoted where needed, CRLF line ends); booleans as true/false."""
    headers, rows = table
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headers)
    writer.writerows([("true" if cell else "false") if isinstance(cell, bool) else cell for cell in row] for row in rows)
    return out.getvalue()
