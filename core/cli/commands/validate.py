"""`wsi validate FILE [--json] [--show]`: every problem of the file, errors and warnings, each with its place.

`--show` adds what each place points at, as the Problems tab shows it (wsi_inspector.core.session.record_view): the record,
loaded or read back from the file, or the lines around a syntax error with a caret under the spot.
"""
from __future__ import annotations

import argparse

from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import format_problem, print_json
from wsi_inspector.core.text.plain_text import shown
from wsi_inspector.core.cli.sessions import open_session
from wsi_inspector.core.cli.documents import problems_document
from wsi_inspector.core.session.record_view import RecordFinder, shown_json, shown_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("--show", action="store_true",
                        help="under each problem, what its place points at: the record, or the lines around a syntax error")


def run(args: argparse.Namespace) -> int:
    session = open_session(args, report=False)
    finder = RecordFinder(session) if args.show else None
    if args.json:
        document = problems_document(session)
        if finder is not None:  # each problem also carries its place's parts and what it points at
            for listed, problems in ((document["errors"], session.errors), (document["warnings"], session.warnings)):
                for item, problem in zip(listed, problems):
                    item["place"] = problem.place.parts()
                    item["shown"] = shown_json(finder.view(problem.place))
        print_json(document)
    else:
        for problem in session.problems:
            print(format_problem(session.name, problem))
            if finder is not None:
                print("\n".join("    " + line for line in shown_text(finder.view(problem.place)).split("\n")))
        errors, warnings = len(session.errors), len(session.warnings)
        verdict = "ok" if not session.problems else f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
        entries, bodies = len(session.entries), len(session.bodies)
        print(f"{shown(session.name)}: {verdict} ({entries:,} entr{'y' if entries == 1 else 'ies'}, "
              f"{bodies:,} bod{'y' if bodies == 1 else 'ies'} loaded)")
    return 1 if session.errors else 0
