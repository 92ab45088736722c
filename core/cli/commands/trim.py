"""`wsi trim FILE --cap SIZE [--at B] [--compare SIZE] [--json]`: what trimStore keeps at a byte cap.

Without `--cap` the session's own `caps.storeBytes` is the cap. `--json` prints SPEC 6's
`{"cap", "fell", "bytes", "kept"}`; with `--compare` it adds `"compare"`: the entries that fall at
the smaller cap but are kept at the larger. Without `--json` it prints the summary and warnings
that the Trim view shows.
"""
from __future__ import annotations

import argparse
from typing import Any

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.cli.sessions import exit_status, open_session, state_for
from wsi_inspector.core.cli.documents import trim_document
from wsi_inspector.core.jsrules.sizes import size_argument
from wsi_inspector.core.trim.preview import StoreIndex, TrimPreview

LISTED_IDS = 12  # ids named in the readable output before "…"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser)
    parser.add_argument(
        "--cap", metavar="SIZE", type=size_argument,
        help="the store cap: bytes, or with KB MB (×1000) KiB MiB (×1024); default: the session's caps.storeBytes",
    )
    parser.add_argument("--compare", metavar="SIZE", type=size_argument, help="a second cap: what falls between the two")


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    cap = args.cap if args.cap is not None else session.caps.store_bytes
    if cap is None:
        raise CliError(f"wsi trim: {session.name} sets no caps.storeBytes; give one with --cap SIZE (e.g. --cap 64KiB)")
    state = state_for(session, args)
    preview = StoreIndex(session.entries).preview_of(state.store)
    if args.json:
        print_json(trim_document(preview, cap, args.compare))
    else:
        _print_readable(preview, cap, args.compare, session.name, state.at_body)
    return exit_status(session)


def _print_readable(preview: TrimPreview, cap: int, compare: int | None, name: str, at_body: Any) -> None:
    where = "at the end of the session" if at_body is None else f"as body {at_body} was handed it"
    print(f"{name}: the store {where}: {preview.count:,} entries, {preview.total_bytes:,} B")
    summary = preview.summary(cap)
    print(summary.words())
    if summary.kept:
        ids = _ids([preview.entry(i).id for i in range(summary.fell, preview.count)])
        print(f"kept {summary.kept:,} ({summary.bytes:,} B): {ids}")
    for warning in summary.warnings():
        print(f"warning: {warning}")
    if compare is not None:
        print(preview.compare(cap, compare).words())


def _ids(ids: list[Any]) -> str:
    if len(ids) <= LISTED_IDS + 2:  # "… (1 more) …" would say less than the id itself
        return ", ".join(map(str, ids))
    half = LISTED_IDS // 2
    return ", ".join(map(str, ids[:half])) + f", … ({len(ids) - LISTED_IDS:,} more) …, " + ", ".join(map(str, ids[-half:]))
