"""`wsi` headless: the dispatcher. It parses the command line and runs one command of COMMANDS.

A command is a module `wsi_inspector.core.cli.commands.<name>` with `add_arguments(parser)` and `run(args) -> int`;
it takes what it shares with the others from `wsi_inspector.core.cli.errors`, `options`, `output` and `sessions`,
never from this module (an import-linter contract in pyproject.toml says so).

Exit status: 0 done; 1 the file has errors, a run failed or a replay diverged; 2 bad usage or a
file that cannot be opened. Errors go to stderr as one plain line each; never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from wsi_inspector.core.cli import output, streams
from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.text.plain_text import shown
from wsi_inspector.core.cli.desktop_entry import InstallDesktopAction

# A new command: a module core/cli/commands/<name>.py, and its line here (the order of `wsi --help`).
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
    "retyped": "where a body typed again a value it could have read",
    "reduce": "the smallest session in which a body still fails (or diverges) the same way",
    "check": "validate, replay and trim-check many sessions (files and folders)",
    "show": "one recorded body: its code, outcome, calls and keep",
    "demo": "where the bundled demo session is, or a copy of it and the example bodies",
    "compare": "two sessions side by side, step by step, and where B first went another way",
    "redact": "a copy with free texts replaced and coordinates moved, that still fails the same way",
    "notes": "list or add the notes beside a session (FILE.notes.json)",
}


class UsageParser(argparse.ArgumentParser):
    """argparse that raises CliError instead of printing usage and exiting."""

    # The chosen command's help, which `wsi`'s own parser names when it finds arguments the command does not take
    # (argparse reports those from the top: "wsi redact … -o x" said "see wsi --help").
    command_help: str | None = None

    def error(self, message: str) -> Any:  # noqa: D102 — argparse's hook
        # A newcomer's first command often has no file: say where one is (issue 32).
        demo = "; to try it, `wsi demo` prints the bundled demo session's path" if "required: FILE" in message else ""
        raise CliError(f"{self.prog}: {message}{demo} (see {self.command_help or self.prog} --help)")


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The `wsi` parser with one sub-command per module of `wsi_inspector.core.cli.commands`.

    Only the chosen command's module is imported (its arguments are all that will be parsed): the
    others pull in numpy, msgpack and the runner, a third of a second a run does not need.
    """
    parser = UsageParser(prog="wsi", description="Worker Session Inspector: look inside run_worker sessions.",
                         epilog=_demo_epilog() if chosen is None else None)
    parser.add_argument("--version", action=VersionAction)
    parser.add_argument("--completion", action=CompletionAction)
    parser.add_argument("--install-desktop", action=InstallDesktopAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=UsageParser)
    sub.add_parser("gui", help="open the inspector window (the default)")
    for name, summary in COMMANDS.items():
        command = sub.add_parser(name, help=summary, description=summary)
        module = _command_module(name) if name == chosen else None
        if module is not None:
            module.add_arguments(command)
            parser.command_help = command.prog
    return parser


def _demo_epilog() -> str:
    """Where the bundled demo is, for `wsi --help`: a newcomer's first file after an install."""
    from wsi_inspector.core.cli.commands.demo import demo_path_text

    return (f"The demo session: {demo_path_text()} (`wsi demo --copy DIR` copies it and the example bodies). "
            "Start with `wsi gui` (the window on the demo); docs/bodies.md says how to write a body.")


class VersionAction(argparse.Action):
    """`--version`: print `wsi <version>` and exit 0 (looked up only when asked: the lookup costs)."""

    def __init__(self, option_strings: list[str], dest: str, **_kwargs: Any):
        super().__init__(option_strings, dest, nargs=0, help="print `wsi <version>` and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any) -> None:
        print(f"wsi {installed_version()}")
        parser.exit()


class CompletionAction(argparse.Action):
    """`--completion bash|zsh`: print the shell's completion script for every command and exit 0."""

    def __init__(self, option_strings: list[str], dest: str, **_kwargs: object):
        from wsi_inspector.core.cli.completion import SHELLS

        super().__init__(option_strings, dest, choices=SHELLS, metavar="SHELL",
                         help="print a completion script for bash or zsh (eval \"$(wsi --completion bash)\")")

    def __call__(self, parser: argparse.ArgumentParser, _namespace: object, values: object, *_args: object) -> None:
        from wsi_inspector.core.cli.completion import GUI_OPTIONS, script

        print(script(str(values), {"gui": list(GUI_OPTIONS), **command_options()}), end="")
        parser.exit()


def command_options() -> dict[str, list[str]]:
    """Each command of COMMANDS → its option strings, as its parser declares them (imports every command)."""
    found: dict[str, list[str]] = {}
    for name in COMMANDS:
        module = _command_module(name)
        command = UsageParser(prog=f"wsi {name}")
        if module is not None:
            module.add_arguments(command)
        found[name] = [s for action in command._actions for s in action.option_strings if s.startswith("--")]
    return found


def installed_version() -> str:
    """The installed distribution's version (`unknown` when run from a checkout never installed)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("worker-session-inspector")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _command_module(name: str) -> Any:
    try:
        return importlib.import_module(f"wsi_inspector.core.cli.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"wsi_inspector.core.cli.commands.{name}":
            return None
        raise


def main(argv: list[str] | None = None) -> int:
    """Run one headless command; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    output.printed_json = False
    as_json = "--json" in argv  # known before parsing, so even a usage error answers in JSON
    closed = streams.prepare()  # escapes for a terminal that cannot spell them; a closed stream said so
    if closed is not None:
        print(closed, file=sys.stderr)
        return streams.OUTPUT_FAILED
    try:
        chosen = next((a for a in argv if not a.startswith("-")), None)
        args = build_parser(chosen).parse_args(argv)
        module = _command_module(args.command) if args.command else None
        if module is None:
            raise CliError(f"wsi: no command {args.command!r} here (see wsi --help)")
        status = int(module.run(args))
        streams.flush_stdout()  # a full or closed stdout is found here, not after the status is decided
        return status
    except CliError as exc:
        return _fail(str(exc), exc.status, as_json, exc.where)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return _fail("wsi: interrupted", 130, as_json)
    except OSError as exc:
        if not streams.is_output_failure(exc):
            return _fail(f"wsi: internal error: {type(exc).__name__}: {exc} (please report it with the file)", 1, as_json)
        print(shown(streams.failure_line(exc)), file=sys.stderr)
        return streams.OUTPUT_FAILED
    except MemoryError:
        return _fail("wsi: out of memory: the session is too big for this machine", 1, as_json)
    except Exception as exc:  # the last guard: a user never sees a traceback
        return _fail(f"wsi: internal error: {type(exc).__name__}: {exc} (please report it with the file)", 1, as_json)


def _fail(message: str, status: int, as_json: bool, where: str | None = None) -> int:
    """One plain line on stderr (control characters escaped) and, under --json, the one JSON document `{"error": …}` (SPEC 6)."""
    print(shown(message), file=sys.stderr)
    if as_json and not output.printed_json:
        try:
            output.print_json(output.error_document(message, where))
        except BrokenPipeError:
            pass
    return status
