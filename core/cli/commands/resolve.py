"""`wsi resolve FILE EXPR [--at B] [--json]`: what `inputs.last("X")` / `inputs.at("ID")` gives a body at B, and why.

The store is trimmed to the session's `caps.storeBytes` first, as the editor trims what it hands a
body (SPEC 5); when the untrimmed store would answer differently the sentence says so. `--json`
prints `{"expr", "at", "id", "untrimmedId", "why"}`: `at` is B or null (the end of the session),
`id` the entry the body receives or null, `untrimmedId` the untrimmed store's answer, `why` the
sentence the Inputs view shows. Exit 0 when answered (undefined included), 2 for an EXPR that is
not one of the two forms.
"""
from __future__ import annotations

import argparse
import json
from typing import TypedDict

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.cli.sessions import exit_status, open_session, state_for
from wsi_inspector.core.search.resolve import STRICT_FORMS, Resolution, parse_strict, resolve_parsed, where_text
from wsi_inspector.core.session.model import Id
from wsi_inspector.core.trim.preview import StoreIndex


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser)
    parser.add_argument("expr", metavar="EXPR", help="inputs.last(\"group.module\") or inputs.at(\"id\"), quoted for the shell")


def run(args: argparse.Namespace) -> int:
    parsed = parse_strict(args.expr)
    if parsed is None:
        raise CliError(f"wsi resolve: cannot read EXPR {args.expr!r}; write {STRICT_FORMS}, "
                       f"e.g. wsi resolve {args.file} 'inputs.last(\"pack.corridorRuns\")'")
    session = open_session(args)
    state = state_for(session, args)
    preview = StoreIndex(session.entries).preview_of(state.store)
    result = resolve_parsed(state.store, parsed, session.entries, where_text(state.at_body),
                            cap=session.caps.store_bytes, at_body=state.at_body, preview=preview)
    if args.json:
        print_json(document(result, state.at_body))
    else:
        print(f"{expression(result)} → {'undefined' if result.entry is None else result.entry.id}: {result.reason}")
    return exit_status(session)


class ResolveDocument(TypedDict):
    """`wsi resolve --json` (SPEC 6): the expression, the body it is asked at (None: the end), the entry the body
    receives and the untrimmed store's answer (None: undefined), and why."""

    expr: str
    at: Id | None
    id: Id | None
    untrimmedId: Id | None
    why: str


def document(result: Resolution, at_body: Id | None) -> ResolveDocument:
    """SPEC 6's resolve document."""
    return {
        "expr": expression(result),
        "at": at_body,
        "id": None if result.entry is None else result.entry.id,
        "untrimmedId": None if result.untrimmed is None else result.untrimmed.id,
        "why": result.reason,
    }


def expression(result: Resolution) -> str:
    """The expression asked, in double quotes: `inputs.at("5")` stays a string argument."""
    return f"inputs.{result.kind}({json.dumps(result.argument, ensure_ascii=False)})"
