"""`wsi manifest FILE [--at B] [--json]`: the inputs manifest at a point of the timeline."""
from __future__ import annotations

import argparse

from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json_listing, print_table
from wsi_inspector.core.cli.sessions import exit_status, open_session, state_for
from wsi_inspector.core.search.manifest import inputs_manifest, manifest_chunks, manifest_head, shape_text
from wsi_inspector.core.jsrules.run_inputs import input_shape


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    state = state_for(session, args)
    if args.json:  # written as it is made (see print_json_listing): the same bytes as print_json's of inputs_manifest
        print_json_listing(manifest_head(state), "entries", lambda: manifest_chunks(state))
    else:
        document = inputs_manifest(state)
        rows = [
            [str(e["id"]), e["call"], e.get("unit", ""), "yes" if e.get("applied") else "",
             shape_text(input_shape(entry)), f"{e['bytes']:,}"]
            for e, entry in zip(document["entries"], state.store)
        ]
        print_table(["id", "call", "unit", "applied", "shape", "bytes"], rows, right={5})
        count = document["count"]
        print(f"{count:,} entr{'y' if count == 1 else 'ies'}, {document['bytes']:,} bytes")
    return exit_status(session)
