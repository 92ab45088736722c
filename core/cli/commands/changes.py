"""`wsi changes FILE --from B1 [--to B2] [--json]`: what changed between two points of the timeline.

B1 and B2 are body ids (the state each was handed); `end` (or leaving out `--to`) is the end of
the session. `--json` prints `{"from", "to", "bodies", "added", "removed", "kept": {"added",
"removed", "changed"}, "bytes": {"from", "to", "delta"}}`.
"""
from __future__ import annotations

import argparse
from typing import Any

from wsi_inspector.core.trim.changes import ChangesDocument, UnknownPoint, changes_between
from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.cli.sessions import exit_status, open_session
from wsi_inspector.core.search.manifest import shape_text
from wsi_inspector.core.jsrules.sizes import format_size


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("--from", dest="start", metavar="B1", required=True, help="a body: the state it was handed")
    parser.add_argument("--to", dest="stop", metavar="B2", default="end", help="a body, or `end` (the default)")


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    try:
        document = changes_between(session, args.start, args.stop)
    except UnknownPoint as exc:
        known = ", ".join(b.key for b in session.bodies[:12]) or "none"
        raise CliError(f"wsi changes: no body {exc.args[0]!r} in {session.name}; its bodies are: {known} (or `end`)") from None
    if args.json:
        print_json(document)
    else:
        _print_readable(document)
    return exit_status(session)


def _point(name: Any) -> str:
    return "the end" if name is None else f"body {name}"


def _print_readable(document: ChangesDocument) -> None:
    size = document["bytes"]
    sign = "+" if size["delta"] >= 0 else "−"
    print(f"from {_point(document['from'])} to {_point(document['to'])}: "
          f"{len(document['bodies'])} bod{'y' if len(document['bodies']) == 1 else 'ies'} ran "
          f"({', '.join(map(str, document['bodies'])) or 'none'})")
    print(f"store {format_size(size['from'])} → {format_size(size['to'])} ({sign}{format_size(abs(size['delta']))})")
    for verb, entries in (("added", document["added"]), ("removed", document["removed"])):
        for e in entries:
            print(f"  {'+' if verb == 'added' else '−'} {e['id']}  {e['call']}  {shape_text(e)}  {e['bytes']:,} B"
                  f"{'  (canvas edit)' if e.get('applied') else ''}")
    kept = document["kept"]
    for line in kept["added"]:
        print(f"  kept + {line['name']}  {shape_text(line)}")
    for line in kept["removed"]:
        print(f"  kept − {line['name']}")
    for changed in kept["changed"]:
        count = len(changed["changes"])
        print(f"  kept ~ {changed['name']}: {count} change{'s' if count != 1 else ''}"
              + "".join(f"\n      {c['op']} {c['path'] or '/'}" for c in changed["changes"][:8])
              + (f"\n      … {count - 8} more" if count > 8 else ""))
