"""`wsi notes FILE [--json]` lists FILE's notes (those it carries, then its sidecar's); `--add TEXT (--body B | --entry E) [--path P]` adds one.

Notes live in the sidecar `FILE.notes.json` (wsi_inspector.core.handoff.notes); FILE is never written. A note names a body
or an entry of FILE (checked against the session, so a typo is refused rather than orphaned).

`--json` prints `{"file", "notes": [{"id", "on", "text", "author", "at"}], "problems": [str]}` (with
`--add`, `{"added": note, "notes": path}`). Exit status 0 done, 1 the sidecar has problems (the good
notes are still listed), 2 bad usage.
"""
from __future__ import annotations

import argparse
import sys
from typing import TypedDict

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json, print_table
from wsi_inspector.core.cli.sessions import open_session
from wsi_inspector.core.handoff.notes import NoteLine, add_note, embedded_notes, notes_path, session_notes


class NoteAdded(TypedDict):
    """`wsi notes FILE --add TEXT --json`: the note added, and the sidecar it was written to."""

    added: NoteLine
    notes: str


class NotesListed(TypedDict):
    """`wsi notes FILE --json`: the session's notes (those it carries, then its sidecar's) and the problems reading them."""

    file: str
    notes: list[NoteLine]
    problems: list[str]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("--add", metavar="TEXT", help="add a note with this text (with --body or --entry)")
    parser.add_argument("--body", metavar="B", help="the body the note is on")
    parser.add_argument("--entry", metavar="E", help="the store entry the note is on")
    parser.add_argument("--path", metavar="P", help="a JSON Pointer inside the entry's input, e.g. /spine/2")
    parser.add_argument("--author", help="who writes the note (default: $USER)")


def run(args: argparse.Namespace) -> int:
    if args.add is None:
        if args.body or args.entry or args.path:
            raise CliError("wsi notes: --body, --entry and --path go with --add TEXT")
        return _list(args)
    if (args.body is None) == (args.entry is None):
        raise CliError("wsi notes: --add needs exactly one of --body B or --entry E")
    session = open_session(args)
    if args.body is not None and session.body(args.body) is None:
        known = ", ".join(b.key for b in session.bodies[:12]) or "none"
        raise CliError(f"wsi notes: --body {args.body}: no body {args.body!r} in {session.name}; its bodies are: {known}")
    if args.entry is not None and not any(str(e.id) == args.entry for e in session.entries):
        raise CliError(f"wsi notes: --entry {args.entry}: no entry {args.entry!r} in {session.name}")
    try:
        note = add_note(args.file, args.add, args.body, args.entry, args.path, args.author,
                        embedded_notes(session).notes)
    except ValueError as exc:
        raise CliError(f"wsi notes: {exc}") from None
    except OSError as exc:
        raise CliError(f"wsi notes: {notes_path(args.file)}: cannot write it ({exc.strerror or exc})") from None
    if args.json:
        added: NoteAdded = {"added": note.as_json(), "notes": str(notes_path(args.file))}
        print_json(added)
    else:
        print(f"added note {note.id} on {note.place()} to {notes_path(args.file)}")
    return 0


def _list(args: argparse.Namespace) -> int:
    notes = session_notes(args.file, open_session(args, report=False))
    if args.json:
        listed: NotesListed = {"file": args.file, "notes": [n.as_json() for n in notes.notes], "problems": notes.problems}
        print_json(listed)
    else:
        for problem in notes.problems:
            print(problem, file=sys.stderr)
        if notes.notes:
            print_table(["id", "on", "author", "at", "text"],
                        [[n.id, n.place(), n.author, n.at, " ".join(n.text.split())[:80]] for n in notes.notes])
        else:
            print(f"no notes beside {args.file} (wsi notes {args.file} --add TEXT --body B adds one)")
    return 1 if notes.problems else 0
