"""`wsi retyped FILE [--json]`: where a body typed again a value it could have read (SPEC 7 "Retyped")."""
from __future__ import annotations

import argparse
import sys

from wsi_inspector.core.edits.body_reads import body_reads
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json, print_table
from wsi_inspector.core.cli.sessions import exit_status, open_session
from wsi_inspector.core.edits.retyped import retyped_document
from wsi_inspector.core.runner.host import Runner


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    with Runner(size=1) as runner:  # every body replayed on one runner to learn its reads
        document = retyped_document(session, lambda body: body_reads(session, body.id, runner))
    if args.json:
        print_json(document)
    else:
        rows = [[str(r["body"]), str(r["entry"]), r["path"] or '""',
                 f"{'kept ' + r['sameAs']['kept'] if 'kept' in r['sameAs'] else 'entry ' + str(r['sameAs']['entry'])} "
                 f"{r['sameAs']['path'] or '(whole)'}", f"{r['bytes']:,}"] for r in document["retyped"]]
        if rows:
            print_table(["body", "entry", "path", "same as (never read there)", "bytes"], rows, right={4})
        print(f"{len(rows)} retyped value{'' if len(rows) == 1 else 's'}")
    for body in document["notReplayed"]:
        print(f"{session.name}: warning: body {body} could not be replayed: its values are not judged", file=sys.stderr)
    status = exit_status(session)
    return status if status else (1 if document["retyped"] else 0)
