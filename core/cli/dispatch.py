"""`wsi` headless: the dispatcher. It parses the command line and runs one command of COMMANDS.

A command is a module `core.commands.<name>` with `add_arguments(parser)` and `run(args) -> int`;
it takes what it shares with the others from `core.cli.errors`, `options`, `output` and `sessions`,
never from this module (an import-linter contract in pyproject.toml says so).

Exit status: 0 done; 1 the file has errors, a run failed or a replay diverged; 2 bad usage or a
file that cannot be opened. Errors go to stderr as one plain line each; never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from core.cli import output
from core.cli.errors import CliError

# A new command: a module core/commands/<name>.py, and its line here (the order of `wsi --help`).
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
    "redact": "a copy with free texts replaced and coordinates moved, that still fails the same way",
    "notes": "list or add the notes beside a session (FILE.notes.json)",
}


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
    output.printed_json = False
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
    if as_json and not output.printed_json:
        error: dict[str, str] = {"where": where} if where else {}
        error["message"] = message
        try:
            output.print_json({"error": error})
        except BrokenPipeError:
            pass
    return status
