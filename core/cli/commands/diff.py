"""`wsi diff FILE [--edit ID] [--blame ID] [--json]`: every canvas edit against its model call (SPEC 4, 6)."""
from __future__ import annotations

import argparse
import sys

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json, print_table
from wsi_inspector.core.cli.sessions import exit_status, open_session
from wsi_inspector.core.edits.edits import (
    EditDiff,
    canvas_edits,
    chain_steps,
    change_text,
    diff_document,
    diff_edits,
    signed,
    summary_line,
    units_of,
    value_text,
)
from wsi_inspector.core.edits.body_reads import body_reads
from wsi_inspector.core.edits.evidence import Evidence
from wsi_inspector.core.edits.provenance import Provenance, blame_document
from wsi_inspector.core.session.load import Session

MAX_IDS = 12


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("--edit", metavar="ID", help="only the canvas edit with this entry id, with every change listed")
    parser.add_argument("--blame", metavar="ID", help="instead: which earlier entry set each leaf of entry ID's input")


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.blame is not None:
        return _blame(session, args)
    try:
        edit_diffs = diff_edits(session, args.edit)
    except KeyError:
        raise CliError(f"wsi: --edit {args.edit}: {_not_an_edit(session, args.edit)}") from None
    if args.json:
        print_json(diff_document(edit_diffs))
    else:
        _print_edits(edit_diffs, detailed=args.edit is not None)
    _report_notes(session, edit_diffs)
    return exit_status(session)


def _not_an_edit(session: Session, edit_id: str) -> str:
    edits = ", ".join(str(e.id) for e in canvas_edits(session)[:MAX_IDS]) or "none"
    entry = session.entry(edit_id)
    what = f"{edit_id!r} is a model call ({entry.call}), not a canvas edit" if entry else f"no entry {edit_id!r} in {session.name}"
    return f"{what}; the canvas edits are: {edits}"


def _print_edits(edit_diffs: list[EditDiff], detailed: bool) -> None:
    for edit_diff in edit_diffs:
        print(summary_line(edit_diff))
        if edit_diff.unit_note:
            print(f"  {edit_diff.unit_note}")
        if detailed:  # one edit: every step of its chain, each diffed once
            steps = chain_steps(edit_diff.pairing) if edit_diff.pairing.steps > 1 or edit_diff.base is None else []
            for step in steps:
                words = "; ".join(change_text(c, *units_of(step.before, step.after)) for c in step.changes) or "no change"
                print(f"  step {step.before.id} → {step.after.id}: {words}")
            raw_unit = units_of(edit_diff.base, edit_diff.edit)[1] if edit_diff.base else None
            rows = [[c["op"], c["path"] or '""', value_text(c["from"]) if "from" in c else "",
                     value_text(c["to"]) if "to" in c else "", signed(c["delta"]) if "delta" in c else "",
                     *([_raw_text(c)] if raw_unit else [])]
                    for c in edit_diff.changes]
            if rows:
                print_table(["op", "path", "before", "after", "Δ", *([f"as {raw_unit}"] if raw_unit else [])], rows, right={4})
    if not edit_diffs:
        print("no canvas edits in this session")


def _raw_text(change: dict) -> str:
    raw = change.get("raw", {})
    return " → ".join(value_text(raw[k]) for k in ("from", "to") if k in raw)


def _report_notes(session: Session, edit_diffs: list[EditDiff]) -> None:
    for edit_diff in edit_diffs:
        for note in edit_diff.pairing.notes:
            print(f"{session.name}: {edit_diff.edit.where}: warning: edit {edit_diff.edit.id!r}: {note}", file=sys.stderr)


def _blame(session: Session, args: argparse.Namespace) -> int:
    entry = session.entry(args.blame)
    if entry is None:
        raise CliError(f"wsi: --blame {args.blame}: no entry {args.blame!r} in {session.name} (see wsi manifest)")
    provenance = Provenance(session)
    origins = provenance.blame(entry)
    basis = None
    if not entry.applied and entry.body is not None:  # a body's call: its reads judge what it carried (SPEC 7)
        reads = body_reads(session, entry.body)
        Evidence(provenance).judge(entry, origins, reads)
        basis = "value" if reads is None else "reads"
        if reads is None:
            print(f"{session.name}: warning: body {entry.body} could not be replayed: carried values are by equal "
                  "values only", file=sys.stderr)
    if args.json:
        print_json(blame_document(session, args.blame, origins, basis))
    else:
        rows = [[o.path or '""', value_text(o.value), o.text()] for o in origins]
        print_table(["path", "value", "origin"], rows)
    return exit_status(session)
