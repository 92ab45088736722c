"""`wsi` headless: the commands of SPEC 6, each a module in `core.commands`, with shared helpers.

Exit status: 0 done; 1 the file has errors, a run failed or a replay diverged; 2 bad usage or a
file that cannot be opened. Errors go to stderr as one plain line each; never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any

import orjson

from core.model import Problem, State
from core.session import LoadError, Session, load

COMMANDS = {
    "manifest": "the inputs manifest at a point of the timeline",
    "kept": "the kept manifest at a point of the timeline",
    "trim": "what trimStore keeps at a byte cap",
    "diff": "every canvas edit against its model call",
    "validate": "every problem of the file",
    "run": "run a body against the mock scene",
    "replay": "re-run every recorded body and report where it diverges",
    "changes": "entries added, kept values changed and store size between two points",
    "resolve": "what inputs.last(\"X\") / inputs.at(\"ID\") gives a body at B, and why",
    "reduce": "the smallest session in which a body still fails (or diverges) the same way",
    "check": "validate, replay and trim-check many sessions (files and folders)",
}
MAX_PROBLEM_LINES = 20
# Sessions this process loaded, held to the end: `wsi` exits without freeing millions of parsed
# values one by one (0.9 s on a 150 MB session); see gui/launch.py.
_loaded: list[Session] = []
_printed_json = False  # set once a command's document is out, so a later failure adds no second one


class CliError(Exception):
    """A usage or file error: its message is printed as one plain line, exit status 2."""

    status = 2
    where: str | None = None


class FileUnreadable(CliError):
    """Nothing of the file reads as JSON (damaged gzip, a syntax error in the document): exit status 1."""

    status = 1

    def __init__(self, message: str, where: str | None):
        super().__init__(message)
        self.where = where or None


class UsageParser(argparse.ArgumentParser):
    """argparse that raises CliError instead of printing usage and exiting."""

    def error(self, message: str) -> Any:  # noqa: D102 — argparse's hook
        raise CliError(f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The `wsi` parser with one sub-command per module of `core.commands`.

    Only the chosen command's module is imported (its arguments are all that will be parsed): the
    others pull in numpy, msgpack and the runner, a third of a second a run does not need.
    """
    parser = UsageParser(prog="wsi", description="Worker Session Inspector: look inside run_worker sessions.")
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=UsageParser)
    sub.add_parser("gui", help="open the inspector window (the default)")
    for name, summary in COMMANDS.items():
        command = sub.add_parser(name, help=summary, description=summary)
        module = _command_module(name) if name == chosen else None
        if module is not None:
            module.add_arguments(command)
    return parser


class VersionAction(argparse.Action):
    """`--version`: print `wsi <version>` and exit 0 (looked up only when asked: the lookup costs)."""

    def __init__(self, option_strings: list[str], dest: str, **_kwargs: Any):
        super().__init__(option_strings, dest, nargs=0, help="print `wsi <version>` and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any) -> None:
        print(f"wsi {installed_version()}")
        parser.exit()


def installed_version() -> str:
    """The installed distribution's version (`unknown` when run from a checkout never installed)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("worker-session-inspector")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _command_module(name: str) -> Any:
    try:
        return importlib.import_module(f"core.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"core.commands.{name}":
            return None
        raise


def main(argv: list[str] | None = None) -> int:
    """Run one headless command; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    global _printed_json
    _printed_json = False
    as_json = "--json" in argv  # known before parsing, so even a usage error answers in JSON
    try:
        chosen = next((a for a in argv if not a.startswith("-")), None)
        args = build_parser(chosen).parse_args(argv)
        module = _command_module(args.command) if args.command else None
        if module is None:
            raise CliError(f"wsi: no command {args.command!r} here (see wsi --help)")
        return int(module.run(args))
    except CliError as exc:
        return _fail(str(exc), exc.status, as_json, exc.where)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return _fail("wsi: interrupted", 130, as_json)
    except MemoryError:
        return _fail("wsi: out of memory: the session is too big for this machine", 1, as_json)
    except Exception as exc:  # the last guard: a user never sees a traceback
        return _fail(f"wsi: internal error: {type(exc).__name__}: {exc} (please report it with the file)", 1, as_json)


def _fail(message: str, status: int, as_json: bool, where: str | None = None) -> int:
    """One plain line on stderr and, under --json, the one JSON document `{"error": …}` (SPEC 6)."""
    print(message, file=sys.stderr)
    if as_json and not _printed_json:
        error: dict[str, str] = {"where": where} if where else {}
        error["message"] = message
        try:
            print_json({"error": error})
        except BrokenPipeError:
            pass
    return status


def add_file_argument(parser: argparse.ArgumentParser, at: bool = True, json_flag: bool = True) -> None:
    """FILE, and the usual --at B and --json."""
    parser.add_argument("file", metavar="FILE", help="a session file: .json, .jsonl, optionally .gz")
    if at:
        parser.add_argument("--at", metavar="B", help="the state body B was handed (default: the end of the session)")
    if json_flag:
        parser.add_argument("--json", action="store_true", help="print one JSON document (its shape: docs/cli.md)")
    parser.add_argument("--gzip-limit", metavar="SIZE", type=_gzip_limit, default=None,
                        help="the most a .gz file may unpack to (default 2GiB, or WSI_GZIP_LIMIT)")


def _gzip_limit(text: str) -> int:
    from core.reading import parse_limit

    try:
        return parse_limit(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def format_problem(name: str, problem: Problem) -> str:
    """One plain line: `FILE:line:col: error: …` or `FILE: /store/3/call: error: …`."""
    where = problem.where
    place = f"{name}:{where}" if problem.place.is_spot else (f"{name}: {where}" if where else name)
    return f"{place}: {problem.severity}: {problem.message}"


def open_session(args: argparse.Namespace, report: bool = True) -> Session:
    """Load args.file; with `report`, say on stderr what did not load. CliError when it cannot be read."""
    try:
        session = load(args.file, getattr(args, "gzip_limit", None))
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
        f"{session.name}: {len(errors)} error{'s' if len(errors) != 1 else ''}{tail}; what loaded is shown "
        f"(wsi validate {session.name} lists every problem)",
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


def dumps(obj: Any) -> bytes:
    """JSON bytes; the standard library takes what orjson refuses (lone surrogates, huge integers)."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, separators=(",", ":")).encode()


def print_json(obj: Any) -> None:
    """Exactly one JSON document on stdout."""
    global _printed_json
    text = dumps(obj) + b"\n"  # made whole first: a failure here leaves stdout empty for the error document
    _printed_json = True
    out = sys.stdout.buffer
    out.write(text)
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
