"""What a `wsi` command prints on stdout: one JSON document, a plain table, a problem as one line."""
from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

import orjson

from wsi_inspector.core.session.model import Problem
from wsi_inspector.core.text.plain_text import shown

if TYPE_CHECKING:  # the documents' types, for print_json's signature only (the commands import this module)
    from typing import TypeAlias

    from wsi_inspector.core.check.report import CheckDocument
    from wsi_inspector.core.cli.commands.demo import DemoCopied, DemoDocument
    from wsi_inspector.core.cli.commands.notes import NoteAdded, NotesListed
    from wsi_inspector.core.cli.commands.reduce import ReduceDocument, ReproDocument
    from wsi_inspector.core.cli.commands.resolve import ResolveDocument
    from wsi_inspector.core.cli.commands.show import ShownBody
    from wsi_inspector.core.cli.documents import ProblemsDocument, ReplayDocument, TrimDocument
    from wsi_inspector.core.edits.compare import CompareDocument
    from wsi_inspector.core.edits.edits import DiffDocument
    from wsi_inspector.core.edits.provenance import BlameDocument
    from wsi_inspector.core.edits.retyped import RetypedDocument
    from wsi_inspector.core.handoff.redact_file import RedactDocument
    from wsi_inspector.core.runner.result import RunDocument
    from wsi_inspector.core.search.manifest import InputsManifest, KeptDocument
    from wsi_inspector.core.trim.changes import ChangesDocument


class ErrorLine(TypedDict):
    """What went wrong: where (when a place is known) and what to do."""

    where: NotRequired[str]
    message: str


class ErrorDocument(TypedDict):
    """`{"error": {"where"?, "message"}}`: the one document a command that failed prints under --json (SPEC 6)."""

    error: ErrorLine


if TYPE_CHECKING:
    # Every document a command prints: a new one is declared (a TypedDict beside its builder) and named here.
    PrintedDocument: TypeAlias = (
        InputsManifest | KeptDocument | DiffDocument | BlameDocument | TrimDocument | ProblemsDocument | ReplayDocument
        | RunDocument | ChangesDocument | CheckDocument | CompareDocument | ReduceDocument | ReproDocument | RetypedDocument
        | NoteAdded | NotesListed | RedactDocument | ResolveDocument | ShownBody | DemoDocument | DemoCopied | ErrorDocument)


printed_json = False  # set once a command's document is out, so a later failure adds no second one


def error_document(message: str, where: str | None = None) -> ErrorDocument:
    """The error document of a failed command; `where` only when a place is known."""
    error: ErrorLine = {"where": where, "message": message} if where else {"message": message}
    return {"error": error}


def format_problem(name: str, problem: Problem) -> str:
    """One plain line: `FILE:line:col: error: …` or `FILE: /store/3/call: error: …`."""
    where = problem.where
    place = f"{name}:{where}" if problem.place.is_spot else (f"{name}: {where}" if where else name)
    return shown(f"{place}: {problem.severity}: {problem.message}")  # a name or value with a newline stays one line


def dumps(obj: Any) -> bytes:
    """JSON bytes; the standard library takes what orjson refuses (lone surrogates, huge integers)."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, separators=(",", ":")).encode()


def print_json(obj: PrintedDocument) -> None:
    """Exactly one JSON document on stdout."""
    _write_document(dumps(obj))  # made whole first: a failure here leaves stdout empty for the error document


def _write_document(text: bytes) -> None:
    """A whole document's JSON, then its newline, on stdout."""
    global printed_json
    printed_json = True
    out = sys.stdout.buffer
    out.write(text)
    out.write(b"\n")  # not `text + b"\n"`: a copy of a big document at the command's peak (a manifest of 50,000 entries: 8 MB)
    out.flush()


def print_json_listing(head: Mapping[str, object], name: str, chunks: Callable[[], Iterable[Sequence[object]]]) -> None:
    """Exactly one JSON document on stdout, `{**head, name: [...]}`, its list written a chunk at a time.

    The bytes are print_json's of the whole document, which is never held: for a big session the list's
    dicts and their JSON are a third of the text's size again. `chunks()` gives the list's items in
    chunks, and is called twice: every chunk is made and encoded once before the first byte is written,
    so whatever can fail (reading an entry, a value orjson refuses) fails with stdout still empty, and a
    document that needs the standard library's spelling (see `dumps`) gets it whole, as print_json
    would write it. The second pass can only fail writing (a full disk, a closed pipe, an interrupt).
    """
    global printed_json
    try:
        start = orjson.dumps(head)[:-1]  # `{"count":3,"bytes":120`
        for chunk in chunks():
            orjson.dumps(chunk)
    except TypeError:  # something only the standard library writes: the whole document in its spelling
        _write_document(dumps({**head, name: [item for chunk in chunks() for item in chunk]}))
        return
    printed_json = True
    out = sys.stdout.buffer
    out.write(start + (b"," if head else b"") + orjson.dumps(name) + b":[")
    first = True
    for chunk in chunks():
        if chunk:
            if not first:
                out.write(b",")
            out.write(memoryview(orjson.dumps(chunk))[1:-1])  # the items without the chunk's own brackets
            first = False
    out.write(b"]}\n")
    out.flush()


def print_table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """A plain aligned table on stdout; columns in `right` are right-aligned (numbers)."""
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(headers), line(["─" * w for w in widths])]
    out.extend(line(row) for row in rows)
    sys.stdout.write("\n".join(out) + "\n")
