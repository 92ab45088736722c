"""Run tab ▸ Reduce…: shrink the session to what the failure of the body at the cursor needs, off the GUI thread.

The body is the one at the cursor, with the code in the editor (edited or not), both read from the
context (`InspectorContext.run`, wsi_inspector.gui.tabs.run.choice): what the person sees is what is reduced. A `ReducePanel`
shows the failure being kept, the phase, runs made and what is left, and Cancel (which kills the
runs in flight and drops the reduction). The reduction (wsi_inspector.core.reduce.reduce) runs as a background job
(wsi_inspector.gui.background.jobs) on its own pool of guests. When it is done the reduced session is
written beside the session file as `NAME.reduced.json` (in a temporary folder when that folder is
not writable), with the code reduced beside B's record (`editedCode`), loaded again to check B still
fails the same way, and opened in a new window at B's Run tab (the editor holds the code reduced),
whose notice says "N of M entries were needed" and lists the entries kept.
"""
from __future__ import annotations

import html
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from wsi_inspector.core.reduce.ddmin import Stopped
from wsi_inspector.core.session.model import Body
from wsi_inspector.core.reduce.reduce import NoFailure, Progress, Reducer, Reduction
from wsi_inspector.core.reduce.repro import default_out
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.text.words import plural
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.background.jobs import Cancelled, Job, Jobs
from wsi_inspector.gui.window.services import WindowServices
from wsi_inspector.gui.window.theme import hex_of

MAX_LISTED = 30


class ReducePanel(QDialog):
    """One reduction: what is kept, progress and Cancel; emits `done` with the new window (None if none)."""

    done = Signal(object)  # type: ignore[assignment]  # shadows QDialog.done(int): tests and callers wait on this name

    def __init__(self, session: Session, body: Body, code: str, lang: str, timeout_s: float = 10.0,
                 parent: QWidget | None = None, services: WindowServices | None = None):
        super().__init__(parent)
        self.setObjectName("reducePanel")
        self.setWindowTitle(f"Reduce body {body.key}")
        self.setModal(False)
        self.session, self.body, self.services = session, body, services
        self._job = (code, lang, timeout_s)
        self.jobs = Jobs(self)  # wsi_inspector.gui.background.jobs: cancelled by Cancel, by the window closing, or by the panel's deletion
        self.reduced_window: QWidget | None = None  # the window on the reduced session (not `window`: QWidget.window() is Qt's)
        self.cancelled = False
        self.running = False
        self.headline = QLabel(f"Reducing body <b>{html.escape(body.key)}</b>: finding how it fails …", self)
        self.headline.setObjectName("reduceHeadline")
        self.headline.setWordWrap(True)
        self.status = QLabel("", self)
        self.status.setObjectName("reduceStatus")
        self.status.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)  # how many runs a reduction takes is not known in advance
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("reduceCancel")
        self.cancel_button.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.status)
        layout.addWidget(self.bar)
        layout.addLayout(buttons)
        self.resize(560, 150)

    def start(self) -> None:
        """Start the reduction on a worker thread; the window stays live."""
        self.running = True
        self.show()
        session, body = self.session, self.body
        code, lang, timeout_s = self._job

        def work(job: Job) -> tuple[Reduction, Path, bool] | None:
            # The reducer is made here: cutting a big session takes a while.
            reducer = Reducer(session, body.id, code, lang, timeout_s=timeout_s,
                              on_progress=lambda progress: job.report(("progress", progress)))
            try:
                job.on_cancel(reducer.stop)  # the runs in flight are killed
                job.check()
                failure = reducer.find_failure()
                job.report(("failure", failure.text()))
                reduction = reducer.reduce()
                if reduction.stopped:
                    raise Cancelled
                out, reproduced = _write(reducer, reduction, session.path, session.name)
                return reduction, out, reproduced
            except Stopped:
                raise Cancelled from None
            finally:
                reducer.close()

        self.jobs.start("reduce", work, on_report=self._news, on_done=lambda done: self._finished(*done),
                        on_failed=self._job_failed)

    def _news(self, news: tuple[str, Any]) -> None:
        kind, value = news
        if kind == "progress":
            self._progress(value)
        else:
            self._failure(value)

    def _job_failed(self, exc: BaseException) -> None:
        if isinstance(exc, NoFailure):
            self._failed(str(exc))
        else:  # a bug of ours (wsi_inspector.gui.background.jobs logged it): say so, keep the window up
            self._failed(f"the reduction failed ({type(exc).__name__}: {exc}); this is a bug, the details are in the log")

    def cancel(self) -> None:
        """Stop the reduction (its runs are killed) and close; nothing opens."""
        self.reject()

    def reject(self) -> None:  # noqa: D102 — Cancel, Esc and the title bar's close all come here
        if self.running:
            self.cancelled = True
            self.jobs.cancel_all()
            self.running = False
            self.done.emit(None)
        super().reject()

    def _failure(self, text: str) -> None:
        self.headline.setText(f"Reducing body <b>{html.escape(self.body.key)}</b>, which {html.escape(_how_it_fails(text))}")

    def _progress(self, progress: Progress) -> None:
        if self.cancelled:
            return
        self.status.setText(f"{progress.phase}: {progress.runs} runs · {progress.entries:,} of {progress.of_entries:,} "
                            f"entries and {progress.kept} of {progress.of_kept} kept values left · {progress.seconds:.1f} s")

    def _failed(self, message: str) -> None:
        if self.cancelled:
            return
        self.bar.hide()  # an empty bar under "Nothing to reduce" said there was something still to come
        self.headline.setText(f"<b style='color:{hex_of('error')}'>Nothing to reduce</b>: {html.escape(message)}")
        self.status.setText("")
        self.status.hide()
        self.cancel_button.setText("Close")
        self.running = False
        self.done.emit(None)

    def _finished(self, reduction: Reduction, out: Path, reproduced: bool) -> None:
        if self.cancelled:
            return
        if self.services is not None:
            self.reduced_window = self.services.open_window(out, str(reduction.cut.body.id), "run", summary_html(reduction, out, reproduced),
                                                            "info" if reproduced else "warning")
        self._end(self.reduced_window)

    def _end(self, window: QWidget | None) -> None:
        self.running = False
        self.done.emit(window)
        self.accept()


def _how_it_fails(text: str) -> str:
    return "fails with " + text if not text.startswith("differs") else text


def _write(reducer: Reducer, reduction: Reduction, path: Path | None, name: str) -> tuple[Path, bool]:
    """Write beside the session file, or in a temporary folder when that cannot be written."""
    if path is not None:
        out = default_out(path)
        try:
            return out, reducer.write(reduction, out)
        except OSError:
            pass
    out = default_out(Path(tempfile.mkdtemp(prefix="wsi-reduce-")) / name)
    return out, reducer.write(reduction, out)


def summary_html(reduction: Reduction, out: Path, reproduced: bool) -> str:
    """The notice of a reduced session: what was needed, the entries kept, where it was written."""
    before, after, cut = reduction.before, reduction.after, reduction.cut
    listed = [f"<tt>{html.escape(e.key)}</tt> {html.escape(e.call)}{' (canvas edit)' if e.applied else ''}"
              for e in cut.received[:MAX_LISTED]]
    more = len(cut.received) - MAX_LISTED
    entries = ", ".join(listed) + (f" and {more} more" if more > 0 else "") if listed else "none"
    kept = ", ".join(f"<tt>{html.escape(n)}</tt>" for n in cut.kept) or "none"
    check = ("Body {0} fails the same way here." if reproduced else
             "<b>Body {0} does not fail the same way in the written file</b>; please report it with the session.")
    return (f"<b>{after['entries']} of {plural(before['entries'], 'entry', 'entries')} {'was' if after['entries'] == 1 else 'were'} needed</b> for body "
            f"{html.escape(cut.body.key)}, which {html.escape(_how_it_fails(reduction.failure.text()))}; "
            f"{after['kept']} of {before['kept']} kept values ({reduction.runs} runs, {reduction.seconds:.1f} s).<br>"
            f"Entries kept: {entries}. Kept values: {kept}.<br>"
            f"{check.format(html.escape(cut.body.key))} Written to {html.escape(str(out))}.")


def start_reduce(context: InspectorContext, services: WindowServices | None, parent: QWidget | None = None) -> ReducePanel | None:
    """Run tab ▸ Reduce…: reduce the body at the cursor with the code the editor shows; None when the editor holds another."""
    session, cursor, choice = context.session, context.cursor, context.run
    body = session.body(cursor) if session is not None and cursor is not None else None
    if session is None or body is None or not choice.at_own_point(cursor):
        return None
    code, lang = choice.code()
    panel = ReducePanel(session, body, code, lang, choice.timeout_s, parent if parent is not None else
                        (services.widget if services is not None else None), services)
    panel.start()
    return panel
