"""File ▸ Save repro…: one file holding the session cut just after the body at the cursor (wsi_inspector.core.reduce.repro).

It holds the entries and kept values B was handed, the scene, B's record (code, recorded outcome)
and, when the Run tab's editor holds B changed, the edited code beside it (`editedCode`). It opens
in the inspector and replays as the source does. It carries the notes on what it keeps (wsi_inspector.core.handoff.notes)
and the tab in front, where `wsi gui REPRO` opens; File ▸ Save redacted repro… writes it redacted
(wsi_inspector.core.handoff.redact_file), B checked to fail the same way in it. The cut is written as a background job (wsi_inspector.gui.background.jobs); the status
bar says where it went. Headless: `wsi reduce FILE --body B --repro [--out OUT]`.
"""
from __future__ import annotations

import dataclasses
import html
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog

from wsi_inspector.core.files.output_file import OutputRefused
from wsi_inspector.core.handoff.redact_file import redact_cut
from wsi_inspector.core.reduce.repro import cut_after, default_out, write_cut
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.window.services import WindowServices


class ReproSaver(QObject):
    """Writes repro files for one window; `saved(path)` or `failed(message)` arrive on the GUI thread."""

    saved = Signal(object)
    failed = Signal(str)

    def __init__(self, context: InspectorContext, services: WindowServices):
        super().__init__(services.widget)
        self.context, self.services = context, services
        self.jobs = Jobs(self)  # wsi_inspector.gui.background.jobs: the window's closeEvent waits for a file being written
        self._saves = 0
        self.saved.connect(self._saved)
        self.failed.connect(self._failed)

    def edited_code(self) -> tuple[str | None, str | None]:
        """The Run tab editor's code and language when it holds the body at the cursor, else (None, None)."""
        choice = self.context.run
        if not choice.at_own_point(self.context.cursor):
            return None, None
        return choice.code()

    def choose(self, redact: bool = False) -> None:
        """Ask where to save, starting beside the session file as NAME.repro.json (redacted: wsi_inspector.core.handoff.redact_file)."""
        session, cursor = self.context.session, self.context.cursor
        if session is None or cursor is None:
            self.services.notify("<b>Save repro</b> needs a body: move the cursor to the body to reproduce.", "warning")
            return
        start = default_out(self.services.current_path() or Path.home() / session.name, "repro")
        title = "Save a redacted repro" if redact else "Save a repro"
        path, _ = QFileDialog.getSaveFileName(self.services.widget, title, str(start), "Sessions (*.json)")
        if path:
            self.save(Path(path), redact)

    def save(self, path: Path, redact: bool = False) -> bool:
        """Write the cut just after the body at the cursor to `path` off the GUI thread; False when there is no body.

        The file carries the notes on what it keeps and the tab in front (`wsi gui REPRO` opens there);
        `redact`: written redacted, B checked to fail the same way in it (wsi_inspector.core.handoff.redact_file.redact_cut).
        """
        session, cursor = self.context.session, self.context.cursor
        if session is None or cursor is None or session.body(cursor) is None:
            return False
        open_path = self.services.current_path()
        if open_path is not None and path.resolve() == open_path.resolve():
            self.failed.emit(f"{path} is the open session file, which is never written; choose another name")
            return False
        code, lang = self.edited_code()
        current = self.services.current_path()
        inputs = [current] if current is not None else []  # hard links too

        def failed(exc: BaseException) -> None:
            if isinstance(exc, OutputRefused):
                self.failed.emit(f"cannot write {exc}")
            elif isinstance(exc, OSError):
                self.failed.emit(f"cannot write {path} ({exc.strerror or exc}); choose a folder you can write to")
            else:  # a bug of ours (wsi_inspector.gui.background.jobs logged it): say so, keep the window up
                self.failed.emit(f"saving the repro failed ({type(exc).__name__}: {exc}); this is a bug, the details are in the log")

        self._saves += 1
        tab_name = self.services.current_tab()

        def write(_job: object) -> object:
            cut = dataclasses.replace(cut_after(session, cursor, code, lang), tab=tab_name)
            return redact_cut(cut, path, inputs=inputs) if redact else write_cut(cut, path, inputs)

        self.jobs.start(f"save-{self._saves}", write,
                        on_done=lambda _: self.saved.emit(path), on_failed=failed, expected=(OSError,))
        return True

    def _saved(self, path: Path) -> None:
        self.services.status(f"saved the repro of body {self.context.cursor} to {path}", 8000)

    def _failed(self, message: str) -> None:
        self.services.notify(f"<b>Repro not saved</b>: {html.escape(message)}", "error")


def saver_for(context: InspectorContext, services: WindowServices) -> ReproSaver:
    """The window's ReproSaver, made on first use."""
    saver = services.widget.findChild(ReproSaver)
    return saver if saver is not None else ReproSaver(context, services)
