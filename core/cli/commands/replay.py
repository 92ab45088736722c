"""`wsi replay FILE [--json]`: re-run every recorded body at its own point and report where it diverges.

`--json` prints `{"bodies": [{"body": id, "same": bool, "firstDifference"?: …}]}`. Exit status 0
when every body is the same, 1 when one diverged or the file has errors.
"""
from __future__ import annotations

import argparse

from wsi_inspector.core.cli.options import add_file_argument, seconds_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.cli.sessions import open_session
from wsi_inspector.core.cli.documents import replay_document
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.runner.replay import replay_session
from wsi_inspector.core.runner.report import verdict_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("--timeout", type=seconds_argument, default=10.0, metavar="S", help="stop each body after S seconds (default 10)")


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    with Runner(size=1) as runner:
        verdicts = replay_session(
            session, runner, options={"timeout_s": args.timeout},
            on_body=None if args.json else (lambda verdict, _result: print(verdict_text(verdict), flush=True)),
        )
    same = sum(1 for v in verdicts if v["same"])
    if args.json:
        print_json(replay_document(verdicts))
    else:
        print(f"{same} of {len(verdicts)} bod{'y' if len(verdicts) == 1 else 'ies'} the same")
    return 0 if same == len(verdicts) and not session.errors else 1
