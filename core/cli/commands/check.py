"""`wsi check PATH… [--jobs N] [--json | --junit OUT.xml] [--where EXPR] [--scheduler ADDRESS] [--baseline OLD]`.

Validates, replays and trim-checks every session under the paths (files, and folders walked for
.json, .jsonl, .ndjson, each optionally .gz), in N worker processes or on a Dask cluster; see
`wsi_inspector.core.check.check` for what a session's report holds and when it is clean, `wsi_inspector.core.check.where` for EXPR,
`wsi_inspector.core.check.baseline` for `--baseline OLD` (each session beside its old self).
Exit status: 0 every reported session is clean; 1 one is not; 2 bad usage (a path that does not
exist, a bad EXPR, no session found); 130 stopped by Ctrl+C, after printing what was done.
Progress goes to stderr: sessions done / total, how many are not clean, sessions per second.
"""
from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from typing import Any

from wsi_inspector.core.check.check import DEFAULT_MAX_BYTES, CheckOptions, SessionReport, find_sessions
from wsi_inspector.core.check.report import CheckCounts, json_document, progress_line, session_lines, summary, write_junit
from wsi_inspector.core.check.where import WhereError, parse_where
from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import gzip_limit_argument, seconds_argument
from wsi_inspector.core.cli.output import error_document, print_json
from wsi_inspector.core.files.output_file import OutputRefused, check_output
from wsi_inspector.core.jsrules.sizes import size_argument

PROGRESS_EVERY_S = 0.5  # on a terminal; to a file or a CI log, a line every PROGRESS_LOG_S
PROGRESS_LOG_S = 10.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "EXPR terms (all must hold): call=NAME edited=NAME edit-falls[=NAME] fails differs problem=CODE clean\n"
        "regressed (with --baseline: clean in OLD, not now),\n"
        "each negated with !, NAME a call or module (a|b for either). E.g. --where edited=pack.corridorRuns\n"
        "exit status: 0 all clean (and, with --baseline, doing the same), 1 a session is not clean (or differs from\n"
        "its baseline), 2 bad usage, 130 stopped (partial report printed)"
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="session files, or folders to walk for them")
    parser.add_argument("--jobs", type=_positive_int, metavar="N", help="worker processes (default: the cores)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document: per session its counts and findings")
    out.add_argument("--junit", metavar="OUT.xml", help="write JUnit XML for a CI: one test case per body, load, trim")
    parser.add_argument("--where", action="append", default=[], metavar="EXPR", help="report only the sessions where EXPR holds")
    parser.add_argument("--timeout", type=seconds_argument, default=10.0, metavar="S", help="stop each body after S seconds (default 10)")
    parser.add_argument("--session-budget", type=float, default=600.0, metavar="S",
                        help="replay no more bodies of a session after S seconds (default 600)")
    parser.add_argument("--max-size", type=size_argument, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                        help="refuse a session larger than SIZE once unpacked (default 1024MiB)")
    # The name every other command gives this limit (docs/cli.md): the same option, so either works.
    parser.add_argument("--gzip-limit", dest="max_size", type=gzip_limit_argument, default=argparse.SUPPRESS, metavar="SIZE",
                        help="the same as --max-size: the most a session may unpack to")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="run on the Dask cluster at ADDRESS (needs the [cluster] extra)")
    parser.add_argument("--baseline", action="append", default=[], metavar="OLD",
                        help="the same sessions as they were (files or folders): each session says whether it still does the same")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} workers: give 1 or more")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        return _check(args)
    except CliError as exc:
        if args.json:  # scripts always get one JSON document (SPEC 6)
            print_json(error_document(str(exc).removeprefix("wsi check: ")))
        raise


def _check(args: argparse.Namespace) -> int:
    try:
        where = parse_where(args.where) if args.where else None
    except WhereError as exc:
        raise CliError(f"wsi check: {exc}") from None
    if where is not None and any(t.kind == "regressed" for t in where.terms) and not args.baseline:
        raise CliError("wsi check: --where regressed compares with the sessions as they were: give --baseline OLD")
    missing = [p for p in [*args.paths, *args.baseline] if not Path(p).exists()]
    if missing:
        raise CliError(f"wsi check: {missing[0]}: no such file or folder; check the path")
    if not 0 < args.session_budget < float("inf"):  # --timeout is checked by its type (wsi_inspector.core.cli.options)
        raise CliError("wsi check: --session-budget must be a number of seconds above 0")
    paths = list(find_sessions(args.paths))
    if not paths:
        raise CliError(f"wsi check: no session files (.json, .jsonl, .gz) under {', '.join(args.paths)}")
    if args.junit:
        try:
            check_output(args.junit, paths)  # before the work: a session, a folder or a device is refused at once
        except OutputRefused as exc:
            raise CliError(f"wsi check: --junit {exc}") from None
    options = CheckOptions(timeout_s=args.timeout, budget_s=args.session_budget, max_bytes=args.max_size)
    progress = _Progress(len(paths))
    reports: dict[int, SessionReport] = {}

    def on_report(index: int, report: SessionReport) -> None:
        reports[index] = report
        progress.add(report)

    stop = _StopOnInterrupt()
    with stop:
        finished = _run(args, paths, options, on_report, stop.requested)
    progress.end()
    examined = [reports[i] for i in sorted(reports)]
    if args.baseline and finished:
        finished = _with_baseline(args, examined, options, stop.requested)
        where = where if where is None else _rematched(where, examined)
    # A session that could not be loaded has no "matched" yet: its report decides (problem=too-large …).
    shown = [r for r in examined if r.get("matched", where.matches(r))] if where is not None else examined
    counts = summary(shown, len(paths), progress.seconds, not finished, where.text if where else None, len(examined))
    _print(args, shown, counts, paths)
    if not finished:
        print(f"wsi check: stopped; {len(examined):,} of {len(paths):,} sessions were checked (the report above has them)",
              file=sys.stderr)
        return 130
    return 0 if all(r["clean"] and _still_same(r) for r in shown) else 1


def _still_same(report: SessionReport) -> bool:
    """Without --baseline, or with it and the session doing what its old self did (or having none)."""
    return report.get("baseline", {}).get("same") is not False


def _with_baseline(args: argparse.Namespace, examined: list[SessionReport], options: CheckOptions, should_stop: Any) -> bool:
    """Check the OLD sessions too (as they were: clean or not), then give each new report its `baseline`."""
    from wsi_inspector.core.check.baseline import attach_baselines

    old_paths = list(find_sessions(args.baseline))
    old: dict[int, SessionReport] = {}
    with _StopOnInterrupt() as stop:
        finished = _run(argparse.Namespace(**{**vars(args), "where": []}), old_paths, options,
                        old.__setitem__, lambda: stop.requested() or should_stop())
    if finished:
        attach_baselines(examined, [old[i] for i in sorted(old)], args.paths, args.baseline)
    return finished


def _rematched(where: Any, reports: list[SessionReport]) -> Any:
    """A term such as `regressed` needs the baseline, known only now: decide every report again."""
    for report in reports:
        report["matched"] = where.matches(report)
    return where


def _run(args: argparse.Namespace, paths: list[Path], options: CheckOptions, on_report: Any, should_stop: Any) -> bool:
    if args.scheduler:
        from wsi_inspector.core.check.cluster import ClusterUnavailable, connect, disconnect, run_on_cluster

        try:
            client = connect(args.scheduler, should_stop)
        except ClusterUnavailable as exc:
            raise CliError(f"wsi check: {exc}") from None
        try:
            return run_on_cluster(client, paths, options, args.where, on_report, should_stop)
        finally:
            disconnect(client)
    from wsi_inspector.core.check.pool import LocalChecker, default_jobs, most_jobs

    if args.jobs and args.jobs > most_jobs():
        print(f"wsi check: --jobs {args.jobs:,}: using {most_jobs()}, twice the {default_jobs()} cores "
              "(more would only make sessions time out)", file=sys.stderr)
    checker = LocalChecker(options, args.jobs or default_jobs(), args.where)
    return checker.run(paths, on_report, should_stop)


def _print(args: argparse.Namespace, reports: list[SessionReport], counts: CheckCounts, inputs: list[Path]) -> None:
    if args.json:
        print_json(json_document(reports, counts))
        return
    if args.junit:
        try:
            write_junit(reports, Path(args.junit), inputs)
        except OutputRefused as exc:
            raise CliError(f"wsi check: --junit {exc}") from None
        except OSError as exc:
            raise CliError(f"wsi check: --junit {args.junit}: cannot write it ({exc.strerror or exc})") from None
    listed = reports if "where" in counts else [r for r in reports if not r["clean"] or not _still_same(r)]
    for report in listed:
        print("\n".join(session_lines(report)))
    matched = f" where {counts['where']}: {counts['reported']:,} matched," if "where" in counts else ""
    print(f"{counts['checked']:,} of {counts['total']:,} sessions checked,{matched} {counts['clean']:,} clean, "
          f"{counts['notClean']:,} not clean ({counts['bodies']:,} bodies, {counts['differs']:,} replayed differently, "
          f"{counts['lostEdits']:,} lost edits) in {counts['seconds']:.1f} s"
          + (f"; JUnit XML in {args.junit}" if args.junit else ""))
    if args.baseline:
        print(baseline_line(reports, args.baseline))
    sys.stdout.flush()


def baseline_line(reports: list[SessionReport], old_roots: list[str]) -> str:
    """How the sessions paired with their old selves, so that a baseline that pairs with nothing (a wrong
    folder, a pipe, sessions renamed) is said, not only seen as `path: null` in the JSON."""
    baselines = [r["baseline"] for r in reports if "baseline" in r]
    paired = [b for b in baselines if b["path"] is not None]
    same = sum(b["same"] is True for b in paired)
    differ = sum(b["same"] is False for b in paired)
    unpaired = len(baselines) - len(paired)
    line = (f"beside {', '.join(old_roots)}: {len(paired):,} paired with an old self, {same:,} doing the same, "
            f"{differ:,} not")
    if len(paired) - same - differ:
        line += f", {len(paired) - same - differ:,} not compared"
    if unpaired:
        line += (f"; {unpaired:,} without one (no old session has its session.id or file name: "
                 "check that --baseline names the old sessions)")
    return line


class _Progress:
    """The progress line on stderr: redrawn in place on a terminal, a line now and then in a log."""

    def __init__(self, total: int):
        self.total = total
        self.done = 0
        self.not_clean = 0
        self.started = time.monotonic()
        self.shown = 0.0
        self.tty = sys.stderr.isatty()

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def add(self, report: SessionReport) -> None:
        self.done += 1
        self.not_clean += not report["clean"]
        now = time.monotonic()
        if now - self.shown >= (PROGRESS_EVERY_S if self.tty else PROGRESS_LOG_S):
            self.shown = now
            self._show()

    def _show(self, end: str = "") -> None:
        line = progress_line(self.done, self.total, self.not_clean, self.seconds)
        sys.stderr.write(("\r" + line + "\x1b[K" + end) if self.tty else line + "\n")
        sys.stderr.flush()

    def end(self) -> None:
        self._show("\n")


class _StopOnInterrupt:
    """While active, Ctrl+C (SIGINT) asks the check to stop instead of raising at a random place."""

    def __init__(self) -> None:
        self.stopped = False
        self._previous: Any = None

    def requested(self) -> bool:
        return self.stopped

    def _handle(self, *_: Any) -> None:
        if self.stopped:  # a second Ctrl+C: the person means it
            raise KeyboardInterrupt
        self.stopped = True

    def __enter__(self) -> _StopOnInterrupt:
        try:
            self._previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: no signal handling there
            self._previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
