"""`wsi demo [--copy DIR] [--json]`: where the bundled demo session is, or a copy of it to work in.

After `pip install` the demo lives inside the installed package, which a newcomer cannot guess:
`wsi demo` prints its path; `--copy DIR` writes the demo and the example bodies and sessions of
docs/bodies.md into DIR (made if missing), so the tour's commands run there as written. It never
overwrites a file: a name that already exists in DIR is a usage error (exit 2) and nothing is
written. Exit 0 done, 2 bad usage.
"""
from __future__ import annotations

import argparse
import importlib.resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypedDict

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.output import print_json

EXAMPLE_SUFFIXES = (".js", ".ts", ".json", ".jsonl")


class DemoDocument(TypedDict):
    """`wsi demo --json`: where the bundled demo is."""

    demo: str


class DemoCopied(TypedDict):
    """`wsi demo --copy DIR --json`: the folder, and the names of the files written into it."""

    dir: str
    files: list[str]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--copy", metavar="DIR", help="copy the demo session and the example bodies into DIR")
    parser.add_argument("--json", action="store_true", help="print one JSON document (its shape: docs/cli.md)")


def demo_resource() -> Traversable:
    """The bundled demo session, as package data."""
    return importlib.resources.files("wsi_inspector.resources") / "sessions" / "demo.json"


def example_resources() -> list[Traversable]:
    """The example bodies and sessions that docs/bodies.md and the README use, sorted by name."""
    folder = importlib.resources.files("wsi_inspector.resources") / "examples"
    return sorted((f for f in folder.iterdir() if f.name.endswith(EXAMPLE_SUFFIXES)), key=lambda f: f.name)


def demo_path_text() -> str:
    """The demo's path as a user can open it (a zipped install has none: then say how to get one)."""
    demo = demo_resource()
    if isinstance(demo, Path):
        return str(demo)
    return "inside the installed package (run `wsi demo --copy DIR` for a copy)"


def run(args: argparse.Namespace) -> int:
    if args.copy is None:
        path = demo_path_text()
        if args.json:
            found: DemoDocument = {"demo": path}
            print_json(found)
        else:
            print(path)
        return 0
    written = copy_demo(Path(args.copy))
    if args.json:
        copied: DemoCopied = {"dir": args.copy, "files": [p.name for p in written]}
        print_json(copied)
    else:
        for target in written:
            print(target)
        print(f"copied the demo and {len(written) - 1} examples into {args.copy}; try: "
              f"cd {args.copy} && wsi replay demo.json")
    return 0


def copy_demo(folder: Path) -> list[Path]:
    """Write the demo and the examples into `folder`; CliError (nothing written) if a name is taken."""
    sources = [demo_resource(), *example_resources()]
    targets = [folder / source.name for source in sources]
    if folder.exists() and not folder.is_dir():
        raise CliError(f"wsi demo: --copy {folder}: not a folder; name a folder (it is made if missing)")
    taken = [t.name for t in targets if t.exists()]
    if taken:
        raise CliError(f"wsi demo: --copy {folder}: {', '.join(taken[:5])} already there; "
                       "name an empty or new folder (nothing is overwritten)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for source, target in zip(sources, targets):
            target.write_bytes(source.read_bytes())
    except OSError as exc:
        raise CliError(f"wsi demo: --copy {folder}: cannot write there ({exc.strerror or exc})") from None
    return targets
