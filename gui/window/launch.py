"""The `wsi` entry point: the window for `wsi` and `wsi gui …`, the headless commands for the rest.

It lives in `gui` because opening the window imports Qt, which `core` never does; headless
commands import no Qt at all.
"""
from __future__ import annotations

import os
import sys

from wsi_inspector.core.cli import dispatch


def main(argv: list[str] | None = None) -> int:
    """Dispatch: no arguments or `gui` opens the window; anything else is a core command."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] == "gui":
        try:
            from wsi_inspector.gui.window.app import run_app
        except ImportError as exc:
            print(f"wsi: the window cannot start: {exc} (run .ci/setup to install what it needs)", file=sys.stderr)
            return 2
        try:
            return run_app(argv[1:])
        except Exception as exc:  # the last guard before the event loop (errors.install covers it after)
            print(f"wsi: the window cannot start: {type(exc).__name__}: {exc} (please report it)", file=sys.stderr)
            return 1
    code = dispatch.main(argv)
    # A headless command is done once its output is out: exit without tearing down the loaded
    # session object by object.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except OSError:  # already said (wsi_inspector.core.cli.streams): a full or closed stream
            pass
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
