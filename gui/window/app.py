"""`wsi` / `wsi gui [FILE] [--screenshot OUT.png] [--tab NAME] [--at B]`: start the inspector window.

With no FILE it opens the bundled demo session (package data, found with importlib.resources, so an
installed wheel works from any folder). `--screenshot` renders the window offscreen at 1400×900 once
the file has loaded and the views have done their background work (`settle`), writes the PNG and exits
(for bug reports and for checking views): exit 0 when the file loaded without errors, 1 when it did
not load or has errors (the picture is still written and shows why), 2 when the picture cannot be
written. Without `--screenshot`, a machine where no window can open gets one line saying so and exit 2
(see gui/window/display.py), never Qt's abort.
"""
from __future__ import annotations

import argparse
import atexit
import contextlib
import html
import importlib.resources
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

SCREENSHOT_SIZE = (1400, 900)
# How long a screenshot waits for the views' background work (an edit's changes, a filter over a big store)
# before it takes the picture anyway.
SETTLE_LIMIT_S = 20.0


_extracted = contextlib.ExitStack()  # bundled files copied out of a zipped install, removed at exit
atexit.register(_extracted.close)


def demo_session() -> Path:
    """The bundled demo session's path, wherever the package is installed."""
    demo = importlib.resources.files("wsi_inspector.resources") / "sessions" / "demo.json"
    return _extracted.enter_context(importlib.resources.as_file(demo))


def _parser(tabs: list[str] | None, parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The parser of `wsi gui` (`tabs`: the names --tab takes; None: any, before the window's modules are imported)."""
    parser = parser_class(prog="wsi gui", description="open the Worker Session Inspector window", add_help=tabs is not None)
    parser.add_argument("file", nargs="?", help="a session file (.json, .jsonl, optionally .gz); default: the demo")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window at 1400×900 into OUT.png and exit")
    parser.add_argument("--tab", choices=tabs, help="the tab to show first")
    parser.add_argument("--at", metavar="B", help="put the cursor at body B once the file is open (a deep link)")
    parser.add_argument("--gzip-limit", metavar="SIZE", help="the most a .gz file may unpack to (default 2GiB, or WSI_GZIP_LIMIT)")
    return parser


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    """The arguments of `wsi gui`."""
    from wsi_inspector.gui.window.main_window import TABS

    parser = _parser([name for name, _t, _s in TABS])
    args = parser.parse_args(argv)
    if args.gzip_limit is not None:
        try:
            _take_gzip_limit(args.gzip_limit)
        except ValueError as exc:
            parser.error(f"--gzip-limit: {exc}")
    return args


def _take_gzip_limit(text: str) -> None:
    """The window's loader reads the limit from WSI_GZIP_LIMIT, as every command's default does (ValueError: not a size)."""
    from wsi_inspector.core.session.reading import GZIP_LIMIT_ENV, parse_limit

    parse_limit(text)
    os.environ[GZIP_LIMIT_ENV] = text


class _Quiet(argparse.ArgumentParser):
    """A parser that says nothing on bad usage: the full parse (parse_arguments) says it, once."""

    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


def early_file(argv: list[str]) -> Path | None:
    """FILE of `wsi gui FILE`, read before Qt and the window are imported (None: none, --help, or bad usage)."""
    if any(word in ("-h", "--help") for word in argv):
        return None
    try:
        args, _rest = _parser(None, _Quiet).parse_known_args(argv)
        if args.gzip_limit is not None:
            _take_gzip_limit(args.gzip_limit)  # the early load unpacks a .gz to the limit asked for
    except ValueError:
        return None
    return Path(args.file) if args.file else None


GIL_SWITCH_S = 0.0001


def make_application(argv: list[str]) -> object:
    """The QApplication with the inspector's look: Fusion, light or dark after the system (wsi_inspector.gui.window.theme)."""
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.gui.window.theme import apply_look

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    # Every call from Qt into Python (a cell's data, a slot) takes the GIL. While a worker thread
    # diffs or loads, each such call waited up to the 5 ms switch interval for it, and a repaint
    # makes hundreds: 2 s of frozen window with 20,000 edits being diffed. A shorter interval hands
    # the GIL back to the GUI thread sooner: with two idle cores, a 20,000-edit session's load
    # stalled the window 145 ms at 0.5 ms, 64 ms at 0.1 ms (bench_edit_chains), loading no slower.
    sys.setswitchinterval(GIL_SWITCH_S)
    app.setApplicationName("wsi")
    app.setOrganizationName("worker-session-inspector")
    apply_look(app)
    return app


def run_app(argv: list[str]) -> int:
    """Start the window (or take a screenshot); returns the exit status."""
    early = early_file(argv)
    if early is not None:
        # Read and parse FILE while Qt, pyqtgraph and the views are imported and the window is built:
        # the window's load job takes this load over (wsi_inspector.gui.background.early_load).
        from wsi_inspector.gui.background import early_load

        early_load.start(early)
    try:
        args = parse_arguments(argv)
    except SystemExit as exc:  # argparse printed its usage line
        return int(exc.code or 0)
    path = Path(args.file) if args.file else demo_session()
    if args.screenshot:
        # A file that cannot be opened is bad usage (exit 2), as for every command: no picture of it.
        from wsi_inspector.core.files.input_file import open_input
        from wsi_inspector.core.session.reading import LoadError

        try:
            os.close(open_input(path))
        except LoadError as exc:
            print(f"wsi gui: {exc}", file=sys.stderr)
            return 2
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    else:
        from wsi_inspector.gui.window.display import why_no_window

        problem = why_no_window()
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
    from PySide6.QtCore import QSettings

    from wsi_inspector.gui.window import errors
    from wsi_inspector.gui.actions.deep_link import follow_link
    from wsi_inspector.gui.window.main_window import MainWindow
    from wsi_inspector.gui.window.screen_fit import fit_to_screen

    app = make_application(argv)
    if args.screenshot:
        from wsi_inspector.core.files.output_file import OutputRefused, check_output

        try:  # before the load: a folder, a device or the session itself is refused at once
            check_output(args.screenshot, [path])
        except OutputRefused as exc:
            print(f"wsi gui: --screenshot {exc}", file=sys.stderr)
            return 2
        return _screenshot(path, Path(args.screenshot), args.tab, args.at)  # no --tab: a repro's own, else the first
    errors.install()
    window = MainWindow(QSettings("worker-session-inspector", "wsi"))
    fit_to_screen(window)  # first open, or a geometry saved on a larger screen: inside the screen
    window.show()
    follow_link(window.context, window.services, args.at, args.tab)
    window.open_file(path)
    return app.exec()  # type: ignore[attr-defined]


def _quiet_offscreen_noise() -> None:
    """Drop the one warning the offscreen platform prints for every main window (it has no window
    manager to pass size hints to); every other Qt message still reaches stderr."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, _context: object, message: str) -> None:
        if message != "This plugin does not support propagateSizeHints()":
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


def settle(window: QWidget, limit_s: float = SETTLE_LIMIT_S) -> bool:
    """Wait until no view of `window` has background work under way (wsi_inspector.gui.background.jobs), at most
    `limit_s`, then let the views show its answers; whether everything settled. A picture of "Computing …"
    shows nothing: on a 5,000-entry session the Edits tab's first edit took longer than the load's settling."""
    import time

    from PySide6.QtCore import QEventLoop, QTimer

    from wsi_inspector.gui.background.jobs import Jobs

    deadline = time.monotonic() + limit_s
    loop = QEventLoop()
    while any(jobs.busy() for jobs in window.findChildren(Jobs)):
        if time.monotonic() >= deadline:
            return False
        QTimer.singleShot(20, loop.quit)
        loop.exec()
    QTimer.singleShot(100, loop.quit)  # a view that got its answer lays it out
    loop.exec()
    return True


def _screenshot(path: Path, out: Path, tab: str | None, at: str | None = None) -> int:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.core.files.output_file import OutputRefused
    from wsi_inspector.core.text.plain_text import shown
    from wsi_inspector.gui.actions.deep_link import follow_link
    from wsi_inspector.gui.window.main_window import TABS, MainWindow

    _quiet_offscreen_noise()

    with tempfile.TemporaryDirectory() as folder:  # a screenshot neither reads nor changes the person's settings
        window = MainWindow(QSettings(str(Path(folder) / "wsi.ini"), QSettings.Format.IniFormat))
        window.resize(*SCREENSHOT_SIZE)
        window.show()
        follow_link(window.context, window.services, at, tab)
        loop = QEventLoop()
        window.load_finished.connect(loop.quit)
        window.open_file(path)
        loop.exec()
        QTimer.singleShot(300, loop.quit)  # let views that lay out after the load settle
        loop.exec()
        settle(window)
        QApplication.processEvents()
        try:
            window.screenshot(out)
            failure = None
        except OSError as exc:
            failure = str(exc) if isinstance(exc, OutputRefused) else f"cannot write {out} ({exc.strerror or exc}); choose a folder you can write to"
        tab = [name for name, _t, _s in TABS][window.tabs.currentIndex()]
        session = window.context.session if window.current_path is not None else None
        notice = html.unescape(re.sub(r"<[^>]+>", "", window.notice.label.text())).rstrip(". ") if window.notice.isVisible() else ""
        window.close()
    if failure is not None:
        print(shown(f"wsi gui: --screenshot {failure}"), file=sys.stderr)
        return 2
    what = f"{path.name}, “{session.title}”" if session is not None else f"{path.name} did not load"
    print(shown(f"wrote {out} ({SCREENSHOT_SIZE[0]}×{SCREENSHOT_SIZE[1]}, tab {tab}, {what})"))
    if session is None:
        print(shown(f"wsi gui: {notice or f'{path} did not load'}; the picture shows it"), file=sys.stderr)
        return 1
    if at is not None and session.body(at) is None:  # an unknown body is bad usage, as for every command
        known = ", ".join(b.key for b in session.bodies[:12]) or "none"
        print(f"wsi gui: --at {at}: no body {at!r} in {path.name}; its bodies are: {known}", file=sys.stderr)
        return 2
    if session.errors:
        print(shown(f"wsi gui: {notice}; `wsi validate {path}` lists every problem"), file=sys.stderr)
        return 1
    return 0
