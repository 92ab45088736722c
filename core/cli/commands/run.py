"""`wsi run FILE BODY_FILE [--at B] [--timeout S] [--json]`: run a body against the mock scene (SPEC 5).

`.ts` files are TypeScript (or `--lang ts`); `-` reads the body from stdin. `--real-time` turns
determinism off (real `Math.random` and `Date`). Exit status 0 when the run succeeded, 1 when it
failed or the file has errors, 2 for bad usage or a file that cannot be read. The run's error, if
any, is also printed on stderr as `BODY_FILE:line:column: Name: message`.
The runner (its guest process) is made before the session is read, so the two overlap.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument, seconds_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.files.input_file import read_input
from wsi_inspector.core.text.plain_text import shown
from wsi_inspector.core.session.reading import JsonSyntaxError, LoadError
from wsi_inspector.core.runner.envelope import EnvelopeError, build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.runner.report import error_line, result_text
from wsi_inspector.core.runner.result import RunResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser)
    parser.add_argument("body_file", metavar="BODY_FILE", help="the body to run: .js, or .ts for TypeScript; - reads stdin")
    parser.add_argument("--timeout", type=seconds_argument, default=10.0, metavar="S", help="stop the body after S seconds (default 10)")
    parser.add_argument("--lang", choices=["js", "ts"], help="the body's language (default: from the file name)")
    parser.add_argument("--real-time", action="store_true", help="real Math.random and Date instead of fixed ones")


def read_body(path: str) -> str:
    """The body's text; CliError when it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        return read_input(path).decode("utf-8")  # a FIFO or a device is refused at once (wsi_inspector.core.files.input_file)
    except LoadError as exc:
        if not Path(path).exists():
            raise CliError(f"wsi run: {shown(path)}: no such body file") from None
        raise CliError(f"wsi run: body file {exc}") from None
    except (OSError, UnicodeDecodeError, JsonSyntaxError) as exc:
        raise CliError(f"wsi run: {shown(path)}: cannot read the body ({exc}); give a UTF-8 text file") from None


def add_language_hint(result: RunResult) -> None:
    """A SyntaxError of a body read from stdin (JavaScript unless `--lang ts`) says TypeScript may be why."""
    error = result.get("error")
    if isinstance(error, dict) and error.get("name") == "SyntaxError":
        error["message"] = f"{error['message']} (standard input is read as JavaScript: for a TypeScript body, " \
                           "--lang ts may be what is missing)"


def run(args: argparse.Namespace) -> int:
    lang = args.lang or ("ts" if args.body_file.endswith(".ts") else "js")
    # The guest (and for TypeScript the stripper) start first, in their own process and thread, so
    # their start-up overlaps importing the session readers and reading the session and the body:
    # the bulk of a cold `wsi run`. Hence this import here, after the runner is made.
    with Runner(size=1, typescript=lang == "ts") as runner:
        from wsi_inspector.core.cli.sessions import open_session, state_for

        session = open_session(args)
        state_for(session, args)  # a bad --at is a usage error, said before anything runs
        code = read_body(args.body_file)
        try:
            envelope = build_envelope(session, code, lang, at=args.at,
                                      options={"timeout_s": args.timeout, "deterministic": not args.real_time})
        except EnvelopeError as exc:
            raise CliError(f"wsi run: {exc}") from None
        result = runner.run(envelope)
    where = "<stdin>" if args.body_file == "-" else args.body_file
    if args.body_file == "-" and args.lang is None:
        add_language_hint(result)
    if "error" in result:
        print(error_line(result["error"], where), file=sys.stderr)
    if args.json:
        print_json(result.document())
    else:
        print(result_text(result, where))
    return 0 if result["ok"] and not session.errors else 1
