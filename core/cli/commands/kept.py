"""`wsi kept FILE [--at B] [--json]`: the kept manifest at a point of the timeline."""
from __future__ import annotations

import argparse

from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json, print_table
from wsi_inspector.core.cli.sessions import exit_status, open_session, state_for
from wsi_inspector.core.search.manifest import kept_document, shape_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    state = state_for(session, args)
    document = kept_document(state)
    if args.json:
        print_json(document)
    else:
        rows = [[k["name"], shape_text(k, value=state.kept[k["name"]]), f"{k['bytes']:,}", str(state.kept_by.get(k["name"], ""))] for k in document["kept"]]
        print_table(["name", "shape", "bytes", "kept by body"], rows, right={2})
        for refusal in state.refused:
            print(f"refused keep of body {refusal.body}: {refusal.message}")
        print(f"{document['count']} kept")
    return exit_status(session)
