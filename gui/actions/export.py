"""File ▸ Export: the data of the view in front, as JSON (exactly what the matching `wsi … --json` prints)
or, for the views that are tables, as CSV.

| tab | JSON, as printed by | CSV rows |
| --- | --- | --- |
| Inputs | `wsi manifest FILE --at B --json` (the whole store at the cursor; the filter does not apply) | entries |
| Kept | `wsi kept FILE --at B --json` | kept names |
| Edits | `wsi diff FILE --json` | changes |
| Trim | `wsi trim FILE --cap C [--compare D] --at B --json`, the view's caps | store entries |
| Run | the last run as `wsi run --json`; with the Replay page in front, `wsi replay --json` | calls / bodies |
| Changes | `wsi changes FILE --from B1 --to B2 --json` | entries and kept names |
| Problems | `wsi validate FILE --json` | problems |

The documents come from core's builders (`wsi_inspector.core.cli.documents` and the modules it names), built and
written off the GUI thread: on a big session the manifest or the diffs take a while.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog

from wsi_inspector.core.cli.output import dumps
from wsi_inspector.core.cli.documents import (
    Document,
    Table,
    changes_table,
    csv_text,
    diff_table,
    kept_table,
    manifest_table,
    problems_document,
    problems_table,
    replay_document,
    replay_table,
    run_table,
    trim_document,
    trim_table,
)
from wsi_inspector.core.edits.edits import diff_document, diff_edits
from wsi_inspector.core.search.manifest import inputs_manifest, kept_document
from wsi_inspector.core.files.output_file import OutputRefused, write_output
from wsi_inspector.core.trim.preview import StoreIndex
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.window.services import WindowServices

JSON_FILTER = "JSON, as wsi --json prints it (*.json)"
CSV_FILTER = "CSV table (*.csv)"


@dataclass(slots=True)
class Export:
    """What File ▸ Export writes for one view: a file stem, the command that prints the same JSON, and the builder."""

    stem: str
    command: str
    build: Callable[[], tuple[Document, Table | None]]  # runs off the GUI thread


def export_for(context: InspectorContext, services: WindowServices) -> Export | str:
    """The export of the tab in front, or why there is nothing to export yet."""
    session = context.session
    if session is None:
        return "open a session first: there is nothing to export"
    name = services.current_tab()
    view: Any = services.view(name)
    state, at = context.state, context.cursor
    at_text = "" if at is None else f" --at {at}"
    point = "end" if at is None else str(at)
    file = session.path.name if session.path is not None else "FILE"
    if name == "inputs":
        def manifest() -> tuple[Document, Table | None]:
            document = inputs_manifest(state)
            return document, manifest_table(document)
        return Export(f"manifest-{point}", f"wsi manifest {file}{at_text} --json", manifest)
    if name == "kept":
        def kept() -> tuple[Document, Table | None]:
            document = kept_document(state)
            return document, kept_table(document)
        return Export(f"kept-{point}", f"wsi kept {file}{at_text} --json", kept)
    if name == "edits":
        def edits() -> tuple[Document, Table | None]:
            document = diff_document(diff_edits(session))
            return document, diff_table(document)
        return Export("diff", f"wsi diff {file} --json", edits)
    if name == "trim":
        cap = context.trim_cap or session.caps.store_bytes  # the cap tried in the Trim tab, held by the context
        if cap is None:
            return "choose a cap in the Trim tab first"
        compare = getattr(view, "compare_cap", None)
        preview = getattr(view, "preview", None)
        def trim() -> tuple[Document, Table | None]:
            shown = preview if preview is not None else StoreIndex(session.entries).preview_of(state.store)
            return trim_document(shown, cap, compare), trim_table(shown, cap)
        extra = f" --compare {compare}" if compare is not None else ""
        return Export(f"trim-{cap}-{point}", f"wsi trim {file} --cap {cap}{extra}{at_text} --json", trim)
    if name == "run":
        if view.result_tabs.currentWidget() is view.replay_page and view.verdicts:
            verdicts = list(view.verdicts)
            def replay() -> tuple[Document, Table | None]:
                document = replay_document(verdicts)
                return document, replay_table(document)
            return Export("replay", f"wsi replay {file} --json", replay)
        result = view.last_result
        if result is None:
            return "run a body (or replay all) first: the Run tab has no result to export yet"
        return Export(f"run-{point}", f"wsi run {file} BODY_FILE{at_text} --json", lambda: (dict(result), run_table(result)))
    if name == "changes":
        document = getattr(view, "document", None)
        if document is None:
            return "the changes are still being worked out: export again in a moment"
        start, stop = document["from"], document["to"]
        return Export(f"changes-{start or 'end'}-{stop or 'end'}",
                      f"wsi changes {file} --from {start or 'end'} --to {stop or 'end'} --json",
                      lambda: (document, changes_table(document)))
    if name == "problems":
        def problems() -> tuple[Document, Table | None]:
            document = problems_document(session)
            return document, problems_table(document)
        return Export("problems", f"wsi validate {file} --json", problems)
    return "this tab has no data to export"


def export_form(path: Path, chosen_filter: str = "") -> str:
    """"csv" or "json": by the name's ending (.csv, .json), else by the dialog's filter. The name is kept as
    typed: renaming it after the dialog asked about overwriting would replace another file unasked."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".json"):
        return suffix[1:]
    return "csv" if chosen_filter == CSV_FILTER else "json"


def write_export(export: Export, path: Path, form: str | None = None, inputs: Iterable[Path] = ()) -> str:
    """Build the export and write it to `path` whole, never onto `inputs` (wsi_inspector.core.files.output_file): CSV or JSON as
    `form` says (default: by the name). Returns what was written."""
    document, table = export.build()
    if (form or export_form(path)) == "csv":
        if table is None:
            raise ValueError("this view's data is not a table: export it as .json")
        write_output(path, csv_text(table).encode("utf-8"), inputs)
        return f"{len(table[1]):,} rows to {path.name} (CSV)"
    write_output(path, dumps(document) + b"\n", inputs)
    return f"{path.name}: the JSON {export.command} prints"


class _Signals(QObject):
    done = Signal(str)
    failed = Signal(str)


def _failure_text(path: Path, exc: BaseException) -> str:
    if isinstance(exc, OutputRefused):
        return f"cannot write {exc}"
    if isinstance(exc, OSError):
        return f"cannot write {path} ({exc.strerror or exc}); choose a folder you can write to"
    return f"the export of {path.name} failed: {type(exc).__name__}: {exc}"  # a builder that fails: say what failed


class Exporter(QObject):
    """Runs File ▸ Export for a window: asks where, then builds and writes off the GUI thread."""

    def __init__(self, context: InspectorContext, services: WindowServices):
        super().__init__(services.widget)
        self.context, self.services = context, services
        self.signals = _Signals(self)
        self.jobs = Jobs(self)  # wsi_inspector.gui.background.jobs: the window's closeEvent waits for a file being written
        self._written = 0
        self.signals.done.connect(lambda words: services.status(f"exported {words}", 8000))
        self.signals.failed.connect(lambda message: services.notify(f"<b>Export</b>: {message}", "error"))

    @property
    def done(self) -> Any:
        """Emitted with a few words once a file is written."""
        return self.signals.done

    @property
    def failed(self) -> Any:
        """Emitted with the reason when an export could not be written."""
        return self.signals.failed

    def choose(self) -> None:
        """File ▸ Export: the current view's data, to a file the person picks (.json or .csv)."""
        export = export_for(self.context, self.services)
        if isinstance(export, str):
            self.services.status(f"Export: {export}", 8000)
            return
        folder = Path(str(self.services.settings.value("lastFolder", str(Path.home()))))
        path, chosen = QFileDialog.getSaveFileName(self.services.widget, f"Export the data of this view ({export.command})",
                                                   str(folder / f"{export.stem}.json"), f"{JSON_FILTER};;{CSV_FILTER}")
        if not path:
            return
        target = Path(path)
        self.start(export, target, export_form(target, chosen))

    def start(self, export: Export, path: Path, form: str | None = None) -> None:
        """Build and write `export` to `path` off the GUI thread (each export its own job), never onto the open session."""
        self._written += 1
        current = self.services.current_path()
        inputs = [current] if current is not None else []
        self.jobs.start(f"export-{self._written}", lambda _job: write_export(export, path, form, inputs), on_done=self.signals.done.emit,
                        on_failed=lambda exc: self.signals.failed.emit(_failure_text(path, exc)), expected=(OSError, ValueError))
