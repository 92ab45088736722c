"""`wsi compare A B [--json]`: two sessions side by side, step by step, and where B first went another way.

`--json` prints `{"a", "b", "same", "steps": [{"a", "b", "same", "code", "calls", "outcome", …}],
"firstDivergence": null | {"step", "a", "b", "why"}}` (SPEC 7; docs/cli.md). Exit 0 when the two
sessions do the same, 1 when they differ, 2 for bad usage or a file that cannot be read.
"""
from __future__ import annotations

import argparse
from typing import Any

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.cli.sessions import open_session
from wsi_inspector.core.edits.compare import CallItem, CompareDocument, compare_sessions
from wsi_inspector.core.edits.edits import change_text
from wsi_inspector.core.session.load import Session

MAX_SHOWN_CHANGES = 6  # changes listed per call in the readable output
ALL_STEPS_UP_TO = 40  # up to this many steps every one is listed; past it, only those that differ


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("other", metavar="B", help="the session to compare FILE (A) with: .json, .jsonl, optionally .gz")


def _open(args: argparse.Namespace, file: str) -> Session:
    """Load one of the two; a file that does not read at all is bad usage here (exit 1 means "they differ")."""
    one = argparse.Namespace(**{**vars(args), "file": file})
    try:
        return open_session(one)
    except CliError as exc:
        raise CliError(str(exc)) from None  # status 2, whatever the kind of failure


def run(args: argparse.Namespace) -> int:
    a, b = _open(args, args.file), _open(args, args.other)
    document = compare_sessions(a, b)
    if args.json:
        print_json(document)
    else:
        _print_readable(document)
    return 0 if document["same"] else 1


def _side(value: Any) -> str:
    return "—" if value is None else str(value)


def _print_readable(document: CompareDocument) -> None:
    steps = document["steps"]
    differing = sum(not s["same"] for s in steps)
    print(f"A {document['a']}  ·  B {document['b']}: {len(steps)} steps, "
          + ("the same" if document["same"] else f"{differing} differ"))
    divergence = document["firstDivergence"]
    if divergence is not None:
        print(f"first divergence: {divergence['why']}")
    width = max((len(_side(s["a"])) for s in steps), default=1)
    every = len(steps) <= ALL_STEPS_UP_TO
    skipped = 0  # same steps not listed since the last listed one
    for number, step in enumerate(steps, 1):
        if step["same"] and not every:
            skipped += 1
            continue
        if skipped:
            print(f"      … {skipped:,} step{'s' if skipped != 1 else ''} the same")
            skipped = 0
        mark = " " if step["same"] else ("*" if divergence and number == divergence["step"] else "~")
        outcome = step["outcome"]
        print(f"{mark}{number:>4}  {_side(step['a']):<{width}}  {_side(step['b']):<{width}}  "
              f"{_side(outcome['a'])} / {_side(outcome['b'])}")
        if step["same"]:
            continue
        for line in step.get("codeDiff", [])[2:]:
            print(f"        code {line}")
        for handed, calls in ((True, step.get("handed", [])), (False, step["calls"])):
            for call in calls:
                if call["same"]:
                    continue
                print(f"        {'handed ' if handed else ''}{call['call']} ({_where(call)})")
                for change in [*call.get("changes", []), *call.get("outputChanges", [])][:MAX_SHOWN_CHANGES]:
                    print(f"          {change_text(change, None)}")
        for name in ("kept", "returned"):
            for change in step.get(name, [])[:MAX_SHOWN_CHANGES]:
                print(f"        {name} {change_text(change, None)}")
        errors = step.get("errors", {})
        for side in ("a", "b"):
            if errors.get(side):
                print(f"        {side.upper()} fails: {errors[side]}")
    if skipped:
        print(f"      … {skipped:,} step{'s' if skipped != 1 else ''} the same")
    for call in document.get("after", []):
        if not call["same"]:
            print(f"  after the last body: {call['call']} ({_where(call)})")


def _where(call: CallItem) -> str:
    """`only in B: e12` (an entry on one side, named), or `c4 / c4` (on both)."""
    if call["a"] is None or call["b"] is None:
        return f"only in A: {call['a']}" if call["b"] is None else f"only in B: {call['b']}"
    return f"{call['a']} / {call['b']}"
