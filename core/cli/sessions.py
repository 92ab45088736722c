"""Opening a command's session: load FILE, report what did not load, the state at `--at B`, the exit status."""
from __future__ import annotations

import argparse
import sys

from wsi_inspector.core.cli.errors import CliError, FileUnreadable
from wsi_inspector.core.cli.output import format_problem
from wsi_inspector.core.session.model import State
from wsi_inspector.core.text.plain_text import shown
from wsi_inspector.core.session.load import LoadError, Session, load

MAX_PROBLEM_LINES = 20
# Sessions this process loaded, held to the end: `wsi` exits without freeing millions of parsed
# values one by one (0.9 s on a 150 MB session); see gui/window/launch.py.
_loaded: list[Session] = []


def open_session(args: argparse.Namespace, report: bool = True) -> Session:
    """Load args.file; with `report`, say on stderr what did not load. CliError when it cannot be read."""
    try:
        # the index of entries by id made when a command first asks (never, for `wsi manifest`): 5 MB a 100,000 at the peak
        session = load(args.file, getattr(args, "gzip_limit", None), index=False)
    except LoadError as exc:
        raise CliError(f"wsi: {exc}") from None
    if session.unreadable is not None and report:
        problem = session.unreadable
        raise FileUnreadable(format_problem(session.name, problem), problem.where)
    if report and session.errors:
        report_errors(session)
    _loaded.append(session)
    return session


def report_errors(session: Session) -> None:
    """The file's errors on stderr, one line each (at most 20), then how many."""
    errors = session.errors
    for problem in errors[:MAX_PROBLEM_LINES]:
        print(format_problem(session.name, problem), file=sys.stderr)
    more = len(errors) - MAX_PROBLEM_LINES
    tail = f" ({more} more not shown)" if more > 0 else ""
    print(
        f"{shown(session.name)}: {len(errors)} error{'s' if len(errors) != 1 else ''}{tail}; what loaded is shown "
        f"(wsi validate {shown(session.name)} lists every problem)",
        file=sys.stderr,
    )


def state_for(session: Session, args: argparse.Namespace) -> State:
    """The state at `--at B`, or at the end of the session."""
    at = getattr(args, "at", None)
    if at is None:
        return session.state_at(None)
    try:
        return session.state_at(at)
    except KeyError:
        known = ", ".join(b.key for b in session.bodies[:12]) or "none"
        raise CliError(f"wsi: --at {at}: no body {at!r} in {session.name}; its bodies are: {known}") from None


def exit_status(session: Session) -> int:
    """1 when the file has errors (the command still showed what loaded), else 0."""
    return 1 if session.errors else 0
