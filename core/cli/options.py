"""The arguments most `wsi` commands share: FILE, `--at B`, `--json`, `--gzip-limit SIZE`, and the one
check of a `--timeout S` (run, replay, reduce, check)."""
from __future__ import annotations

import argparse
import math

MOST_SECONDS = 3600.0


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
    from wsi_inspector.core.session.reading import parse_limit

    try:
        return parse_limit(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


gzip_limit_argument = _gzip_limit  # the same SIZE parser for a command that takes the limit its own way (check)


def seconds_argument(text: str) -> float:
    """`--timeout S` for argparse: a number of seconds above 0 and at most 3600 (nan, inf, 0, -1, 1e308 refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MOST_SECONDS:  # False for nan too
        shown = text if len(text) <= 40 else text[:20] + "…"
        raise argparse.ArgumentTypeError(f"{shown!r}: give a number of seconds above 0 and at most {MOST_SECONDS:g}")
    return value
