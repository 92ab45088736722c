"""`wsi reduce FILE --body B [--out OUT] [--json]`: the smallest session in which body B still fails the same way.

See wsi_inspector.core.reduce.reduce for what "the same way" means and how the cut shrinks, wsi_inspector.core.reduce.repro for the file
written. OUT defaults to FILE's name without `.gz` and `.json`/`.jsonl`, plus `.reduced.json`,
beside FILE; FILE itself is never written. `--code BODY_FILE` reduces B's code as edited instead
of the recorded code (what the window's Reduce does). The written file is loaded again and B run
in it: `reproduced` says whether it fails the same way there.

`--json` prints `{"body", "out", "before": {"entries", "kept"}, "after": {"entries", "kept"}, "runs",
"reproduced"}`; `runs` counts the body runs the reduction made, B's own first run included (the
check of the written file is one more). Exit status 0 when reduced and reproduced, 1 when B does not fail or diverge in
FILE (or the reduced file does not reproduce), 2 for bad usage, 130 when stopped by Ctrl+C, after
writing the smallest reproducing session found so far. `--redact` writes OUT redacted (wsi_inspector.core.handoff.redact_file:
texts replaced, coordinates moved, B checked to fail the same way there), its report beside it. Progress goes to stderr once a reduction
has taken a second: one line rewritten in place on a terminal, a line every 2 s otherwise.
"""
from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from typing import TypedDict

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument, seconds_argument
from wsi_inspector.core.cli.output import error_document, print_json
from wsi_inspector.core.cli.sessions import open_session
from wsi_inspector.core.cli.commands.run import read_body
from wsi_inspector.core.reduce.ddmin import Stopped
from wsi_inspector.core.files.output_file import OutputRefused, check_output
from wsi_inspector.core.text.plain_text import shown
from wsi_inspector.core.reduce.reduce import NoFailure, Progress, Reducer, Reduction
from wsi_inspector.core.handoff.redact_file import redact_cut
from wsi_inspector.core.reduce.repro import Cut, cut_after, default_out, write_cut
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.model import Id

PROGRESS_AFTER_S = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("--body", metavar="B", required=True, help="the body whose failure to keep")
    parser.add_argument("-o", "--out", metavar="OUT", help="where to write the reduced session (default: FILE.reduced.json beside FILE)")
    parser.add_argument("--code", metavar="BODY_FILE", help="reduce this code for B instead of the recorded one (.ts: TypeScript)")
    parser.add_argument("--timeout", type=seconds_argument, default=10.0, metavar="S", help="stop each run after S seconds (default 10)")
    parser.add_argument("--jobs", type=int, metavar="N", help="runs at the same time (default: the cores, at most 4)")
    parser.add_argument("--repro", action="store_true",
                        help="write the whole cut just after B (what File ▸ Save repro… writes), without reducing")
    parser.add_argument("--redact", action="store_true",
                        help="write it redacted (as wsi redact does: texts replaced, coordinates moved, B checked)")


class ProgressLine:
    """The progress line on stderr: rewritten in place on a terminal, otherwise a line now and then."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.shown = False

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if progress.seconds < PROGRESS_AFTER_S or now - self.last < (0.2 if self.tty else 2.0):
            return
        self.last = now
        text = (f"wsi reduce: {progress.phase}: {progress.runs} runs, {progress.entries} entries and "
                f"{progress.kept} kept values left, {progress.seconds:.1f} s (Ctrl+C stops and writes the best so far)")
        print(("\r" + text + "\x1b[K") if self.tty else text, end="" if self.tty else "\n", file=sys.stderr, flush=True)
        self.shown = True

    def end(self) -> None:
        if self.shown and self.tty:
            print(file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else default_out(args.file, "repro" if args.repro else "reduced")
    inputs = [args.file, *([args.code] if args.code else [])]
    if out.resolve() == Path(args.file).resolve():
        raise CliError(f"wsi reduce: --out {args.out}: that is FILE itself, which is never written; choose another path")
    try:
        check_output(out, inputs)  # before the work: a folder, a device or an input is refused at once
    except OutputRefused as exc:
        raise CliError(f"wsi reduce: --out {exc}") from None
    if args.jobs is not None and args.jobs < 1:
        raise CliError(f"wsi reduce: --jobs {args.jobs}: give a whole number of runs at once, 1 or more")
    session = open_session(args)
    if session.body(args.body) is None:
        known = ", ".join(b.key for b in session.bodies[:12]) or "none"
        raise CliError(f"wsi reduce: --body {args.body}: no body {args.body!r} in {session.name}; its bodies are: {known}")
    code = read_body(args.code) if args.code else None
    lang = ("ts" if args.code.endswith(".ts") else "js") if args.code else None
    if args.repro:
        return _write_repro(args, session, code, lang, out, inputs)
    line = ProgressLine()
    reducer = Reducer(session, args.body, code, lang, timeout_s=args.timeout, jobs=args.jobs, on_progress=line)
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: reducer.stop())
    try:
        try:
            reduction = reducer.reduce()
        except NoFailure as exc:
            return _refuse(args, f"wsi reduce: {session.name}: {exc}")
        except Stopped:
            return _refuse(args, f"wsi reduce: stopped before body {args.body}'s own run ended; nothing was written", 130)
        line.end()
        try:
            if args.redact:  # written once, redacted: the reduced data never lies beside OUT unredacted
                reproduced = redact_cut(reduction.cut, out, args.timeout, inputs).reproduced is True
            else:
                reproduced = reducer.write(reduction, out, inputs)
        except OutputRefused as exc:
            raise CliError(f"wsi reduce: --out {exc}") from None
        except OSError as exc:
            raise CliError(_cannot_write(out, exc)) from None
    finally:
        signal.signal(signal.SIGINT, previous)
        reducer.close()
    _report(args, reduction, out, reproduced)
    if reduction.stopped:
        return 130
    return 0 if reproduced else 1


class ReproDocument(TypedDict):
    """`wsi reduce --repro --json`: the body, the file written, and how many entries and kept values it was handed."""

    body: Id
    out: str
    entries: int
    kept: int


class ReduceDocument(TypedDict):
    """`wsi reduce --json`: the body, the file written, entries and kept values before and after, runs, and whether
    the reduced cut fails the same way."""

    body: Id
    out: str
    before: dict[str, int]
    after: dict[str, int]
    runs: int
    reproduced: bool


def _write_repro(args: argparse.Namespace, session: Session, code: str | None, lang: str | None, out: Path,
                 inputs: list[str]) -> int:
    """`--repro`: the whole cut just after B, as File ▸ Save repro… writes it."""
    cut = cut_after(session, args.body, code, lang)
    _write(cut, out, inputs, args.redact)
    if args.json:
        written: ReproDocument = {"body": cut.body.id, "out": str(out), "entries": len(cut.received), "kept": len(cut.kept)}
        print_json(written)
    else:
        print(f"wrote {out}: body {cut.body.key} with the {len(cut.received)} entries and {len(cut.kept)} kept values "
              f"it was handed, its own {len(cut.own)} calls and the scene")
    return 0


def _write(cut: Cut, out: Path, inputs: list[str], redact: bool = False) -> None:
    try:
        if redact:
            redact_cut(cut, out, inputs=inputs)
        else:
            write_cut(cut, out, inputs)
    except OutputRefused as exc:
        raise CliError(f"wsi reduce: --out {exc}") from None
    except OSError as exc:
        raise CliError(_cannot_write(out, exc)) from None


def _cannot_write(out: Path, exc: OSError) -> str:
    return f"wsi reduce: --out {out}: cannot write it ({exc.strerror or exc}); choose a folder you can write to"


def _refuse(args: argparse.Namespace, message: str, status: int = 1) -> int:
    print(shown(message), file=sys.stderr)
    if args.json:
        print_json(error_document(message))
    return status


def _report(args: argparse.Namespace, reduction: Reduction, out: Path, reproduced: bool) -> None:
    body = reduction.cut.body
    document: ReduceDocument = {"body": body.id, "out": str(out), "before": reduction.before, "after": reduction.after,
                                "runs": reduction.runs, "reproduced": reproduced}
    if args.json:
        print_json(document)
        return
    before, after = reduction.before, reduction.after
    print(f"body {body.key} {reduction.failure.text()}")
    print(f"{'stopped after' if reduction.stopped else 'reduced in'} {reduction.runs} runs ({reduction.seconds:.1f} s): "
          f"{after['entries']} of {before['entries']} entries and {after['kept']} of {before['kept']} kept values were needed")
    kept_entries = ", ".join(str(e.id) for e in reduction.cut.received[:20])
    if kept_entries:
        print(f"entries kept: {kept_entries}{' …' if len(reduction.cut.received) > 20 else ''}")
    if reduction.cut.kept:
        print(f"kept values kept: {', '.join(reduction.cut.kept)}")
    verdict = "reproduces it" if reproduced else "does NOT reproduce it (please report this with FILE)"
    print(f"wrote {out}; B run there {verdict}")
    if not reproduced:
        print(f"wsi reduce: {out}: body {body.key} does not fail the same way in the reduced session", file=sys.stderr)
