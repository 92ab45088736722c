"""`wsi validate FILE [--json]`: every problem of the file, errors and warnings, each with its place."""
from __future__ import annotations

import argparse

from core.cli.options import add_file_argument
from core.cli.output import format_problem, print_json
from core.cli.sessions import open_session
from core.documents import problems_document


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)


def run(args: argparse.Namespace) -> int:
    session = open_session(args, report=False)
    if args.json:
        print_json(problems_document(session))
    else:
        for problem in session.problems:
            print(format_problem(session.name, problem))
        errors, warnings = len(session.errors), len(session.warnings)
        verdict = "ok" if not session.problems else f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
        entries, bodies = len(session.entries), len(session.bodies)
        print(f"{session.name}: {verdict} ({entries:,} entr{'y' if entries == 1 else 'ies'}, "
              f"{bodies:,} bod{'y' if bodies == 1 else 'ies'} loaded)")
    return 1 if session.errors else 0
