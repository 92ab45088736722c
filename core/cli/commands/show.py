"""`wsi show FILE --body B [--code | --json]`: one recorded body: its code, outcome, calls and keep.

What a reduce walkthrough or a bug report needs before anything can be re-run: the body's code as
written (`--code` prints it alone, byte for byte, so `wsi show … --code > b6.js` gives a file
`wsi run` takes), the recorded outcome (ok, the error, what it returned and logged), the module
calls it made (the store entries whose `body` is B) and the keep it asked for. Exit 0 done, 1 the
file has errors (what loaded is shown), 2 bad usage or an unknown body.
"""
from __future__ import annotations

import argparse
import sys
from typing import NotRequired, TypedDict

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.cli.sessions import exit_status, open_session
from wsi_inspector.core.session.model import Body, Id
from wsi_inspector.core.session.load import Session

SHOWN_VALUE_CHARS = 2000


class Outcome(TypedDict):
    """The recorded outcome: ok (None: no result recorded), the error, what it returned and logged."""

    ok: bool | None
    error: NotRequired[str]
    returned: NotRequired[object]
    logs: list[str]


class Call(TypedDict):
    id: Id
    call: str


class ShownBody(TypedDict):
    """`wsi show --json`'s document."""

    body: Id
    lang: str
    code: str
    outcome: Outcome
    calls: list[Call]
    keep: object


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    # `wsi show demo.json b5` is what a person types first: the id alone is taken too.
    parser.add_argument("body_id", nargs="?", metavar="B", help="the body to show (its id; the same as --body B)")
    parser.add_argument("--body", metavar="B", help="the body to show (its id)")
    parser.add_argument("--code", action="store_true", help="print the body's code alone, exactly as recorded")


def run(args: argparse.Namespace) -> int:
    if args.code and args.json:
        raise CliError("wsi show: --code and --json: give one (--code prints the code alone)")
    if args.body is not None and args.body_id is not None and args.body != args.body_id:
        raise CliError(f"wsi show: two bodies given ({args.body_id} and --body {args.body}): give one")
    wanted = args.body if args.body is not None else args.body_id
    session = open_session(args)
    body = None if wanted is None else session.body(wanted)
    if body is None:
        known = ", ".join(b.key for b in session.bodies[:12]) or "none"
        said = "no body given" if wanted is None else f"--body {wanted}: no body {wanted!r} in {session.name}"
        raise CliError(f"wsi show: {said}; its bodies are: {known} (wsi show FILE --body B)")
    if args.code:
        sys.stdout.write(body.code if body.code.endswith("\n") or not body.code else body.code + "\n")
        return exit_status(session)
    document = body_document(session, body)
    if args.json:
        print_json(document)
    else:
        print(body_text(document))
    return exit_status(session)


def body_document(session: Session, body: Body) -> ShownBody:
    """{"body", "lang", "code", "outcome": {"ok", "error"?, "returned"?, "logs"}, "calls", "keep"}."""
    result = body.result if isinstance(body.result, dict) else {}
    logs = [line for line in result.get("logs") or [] if isinstance(line, str)]
    outcome: Outcome = {"ok": None if not result else result.get("ok") is not False}  # type: ignore[typeddict-item]
    if isinstance(result.get("error"), str):
        outcome["error"] = result["error"]
    if "returned" in result:
        outcome["returned"] = result["returned"]
    outcome["logs"] = logs  # last, as the document lists it
    calls: list[Call] = [{"id": e.id, "call": e.call} for e in session.calls_of(body)]
    keep = body.keep
    if keep is None and isinstance(result.get("returned"), dict):
        keep = result["returned"].get("keep")
    return {"body": body.id, "lang": body.lang, "code": body.code, "outcome": outcome, "calls": calls, "keep": keep}


def body_text(document: ShownBody) -> str:
    """The plain form: a heading per part, the code indented as it is."""
    from wsi_inspector.core.jsrules.jsonsize import compact_json

    outcome = document["outcome"]
    verdict = {True: "ok", False: "failed", None: "no recorded result"}[outcome["ok"]]
    if "error" in outcome:
        verdict += f": {outcome['error']}"
    lines = [f"body {document['body']} ({document['lang']}): {verdict}", "code:"]
    lines += ["  " + line for line in document["code"].splitlines()] or ["  (empty)"]
    if "returned" in outcome:
        lines.append(f"returned: {compact_json(outcome['returned'], SHOWN_VALUE_CHARS)}")
    for log in outcome["logs"]:
        lines.append(f"log: {log}")
    calls = document["calls"]
    lines.append(f"calls ({len(calls)}): " + (", ".join(f"{c['id']} {c['call']}" for c in calls) or "none recorded"))
    keep = document["keep"]
    lines.append("keep: " + ("none" if keep is None else compact_json(keep, SHOWN_VALUE_CHARS)))
    return "\n".join(lines)

