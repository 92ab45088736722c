"""The inspector window: the tabs of TABS, the timeline dock, the status bar, opening and following files.

Opening never takes the window down: a file that is not a session gets a notice and the open
session stays; a partly valid one opens with its problems listed; a view that fails to build shows
its error in its tab. Geometry, dock and splitter positions, the last folder and recent files are
kept in QSettings.
"""
from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QEvent, QIODevice, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QCloseEvent, QFontMetrics, QDragEnterEvent, QDropEvent, QKeySequence, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QProgressDialog,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.files.output_file import OutputRefused, write_output
from wsi_inspector.gui.tabs.changes.view import ChangesView
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.tabs.compare.window import choose_compare
from wsi_inspector.gui.tabs.corpus.view import choose_corpus_folder
from wsi_inspector.gui.actions.deep_link import follow_link
from wsi_inspector.gui.tabs.edits.view import EditsView
from wsi_inspector.gui.window.errors import log_exception
from wsi_inspector.gui.actions.export import Exporter
from wsi_inspector.gui.window.focus_ring import FocusRing
from wsi_inspector.gui.background.follow import FileFollower
from wsi_inspector.gui.tabs.inputs.view import InputsView
from wsi_inspector.gui.background.jobs import shutdown_all
from wsi_inspector.gui.tabs.kept.view import KeptView
from wsi_inspector.gui.window.keyboard import Keyboard
from wsi_inspector.gui.background.loader import LoadedSession, SessionLoader
from wsi_inspector.gui.window.look import monospace
from wsi_inspector.gui.tabs.notes.pane import install_notes
from wsi_inspector.gui.tabs.problems.view import ProblemsView
from wsi_inspector.gui.tabs.run.view import RunView
from wsi_inspector.gui.actions.save_repro import saver_for
from wsi_inspector.gui.window.services import WindowServices
from wsi_inspector.gui.window.status import InspectorStatusBar
from wsi_inspector.gui.window.theme import PaletteFollower, hex_of
from wsi_inspector.gui.tabs.timeline.view import TimelineView
from wsi_inspector.gui.tabs.trim.view import TrimView

# A new view: a module gui/<what>_view.py with a QWidget taking the InspectorContext, and its line here.
# Imported directly, not by name: a view module that cannot be imported is a bug the tests catch at
# once; a view that fails to build still gets its error in its tab (build_view).
TABS: list[tuple[str, str, Callable[[InspectorContext], QWidget]]] = [  # (name for --tab, title, view class)
    ("inputs", "Inputs", InputsView),
    ("kept", "Kept", KeptView),
    ("edits", "Edits", EditsView),
    ("trim", "Trim", TrimView),
    ("run", "Run", RunView),
    ("changes", "Changes", ChangesView),
    ("problems", "Problems", ProblemsView),
]
FILE_FILTER = "Sessions (*.json *.jsonl *.json.gz *.jsonl.gz *.gz);;All files (*)"
MAX_RECENT = 10
_windows: list[QWidget] = []  # windows opened by open_window (reduced sessions), held until they close
APP_TITLE = "Worker Session Inspector"
WINDOW_SIZE = (1400, 900)
DOCK_WIDTH = 430  # the timeline dock's width until the person drags it
TABS_KEEP_CHARS = 88  # monospace characters the tabs keep when the timeline dock widens for its calls (dock_target)
DOCK_MIN_WIDTH = 220  # narrower, its rows are only "…": a small window takes the room from the tabs first


def build_view(title: str, view_class: Callable[[InspectorContext], QWidget], context: InspectorContext) -> QWidget:
    """The view of a TABS line; in its place, its error when it fails to build (the rest of the window works)."""
    try:
        return view_class(context)
    except Exception as exc:
        return _failed_view(title, exc)


def _failed_view(title: str, exc: BaseException) -> QWidget:
    details = log_exception(exc)
    widget = QWidget()
    widget.setObjectName("failedView")
    layout = QVBoxLayout(widget)
    message = QLabel(f"<b>The {title} view could not be built</b>: {type(exc).__name__}: {exc}<br>"
                     "The rest of the window works; the details below are in the log too.")
    message.setWordWrap(True)
    message.setStyleSheet(f"color: {hex_of('error')};")
    text = QPlainTextEdit(details)
    text.setReadOnly(True)
    text.setFont(monospace())
    layout.addWidget(message)
    layout.addWidget(text, 1)
    return widget


class NoticeBar(QWidget):
    """A one-line notice above the tabs: a bad file, problems to look at; with an optional action."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.label = QLabel(self)
        self.label.setObjectName("noticeText")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action_button = QPushButton(self)
        self.close_button = QPushButton("✕", self)
        self.close_button.setFlat(True)
        self.close_button.setFixedWidth(28)
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 6, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.action_button)
        layout.addWidget(self.close_button)
        self._action: Any = None
        self.action_button.clicked.connect(lambda: self._action and self._action())
        self.level = "info"
        self.setAutoFillBackground(True)
        self.hide()

    def show_notice(self, text: str, level: str = "error", action: tuple[str, Any] | None = None) -> None:
        """Show `text`; level "error" (red), "warning" (amber) or "info" (blue), in the theme's colours."""
        self.level = level if level in ("error", "warning") else "info"
        self.recolour()
        self.label.setText(text)
        self.action_button.setVisible(action is not None)
        if action is not None:
            self.action_button.setText(action[0])
            self._action = action[1]
        self.show()


    def recolour(self) -> None:
        """Colour the bar for its level in the theme in use."""
        background, text = hex_of(f"notice_{self.level}"), hex_of(f"notice_{self.level}_text")
        self.setStyleSheet(f"#noticeBar {{ background: {background}; }} #noticeText {{ color: {text}; }}")


def tabs_keep() -> int:
    """The px the tabs keep when the timeline dock widens for its calls: what they have at 1024 px beside its share."""
    return QFontMetrics(monospace()).horizontalAdvance("0" * TABS_KEEP_CHARS)


class MainWindow(QMainWindow):
    """The inspector: timeline dock on the left, the tabs, the status bar."""

    load_finished = Signal()  # any end of a load (opened, refused, failed or cancelled)

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("inspectorWindow")
        self.settings = settings if settings is not None else QSettings("worker-session-inspector", "wsi")
        self.palette_follower = PaletteFollower(self)  # before the views: they take colours as they are built
        self.context = InspectorContext(self)
        self.loader = SessionLoader(self)
        self.follower = FileFollower(self)
        self.current_path: Path | None = None
        self._pending_path: Path | None = None
        self._quiet_load = False
        self._follow_again = False
        self.progress: QProgressDialog | None = None
        self.exporter: Any = None  # wsi_inspector.gui.actions.export.Exporter, made on first use
        self._baseline: Any = None  # wsi_inspector.core.files.file_baseline.Baseline of the open file as loaded, for the follower
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self.notice = NoticeBar(self)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("tabs")
        self.tabs.setDocumentMode(True)
        self.views: dict[str, QWidget] = {}
        for name, title, view_class in TABS:
            view = build_view(title, view_class, self.context)
            self.views[name] = view
            self.tabs.addTab(view, title)
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.notice)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.timeline = TimelineView(self.context, self)
        self.timeline.setMinimumWidth(DOCK_MIN_WIDTH)
        self.timeline.wants_width.connect(lambda: QTimer.singleShot(0, self.fit_dock))
        self.dock_width = DOCK_WIDTH  # what the person wants; a small window may squeeze the dock below it
        self.dock_share = DOCK_WIDTH / WINDOW_SIZE[0]  # of the window's width, when it is smaller than the one it was chosen at
        self.timeline_dock = QDockWidget("Timeline", self)
        self.timeline_dock.setObjectName("timelineDock")
        self.timeline_dock.setWidget(self.timeline)
        self.timeline_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                                       | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.timeline_dock)
        self.status = InspectorStatusBar(self.context, self)
        self.palette_follower.changed.connect(self._recolour)
        self.status.problems_clicked.connect(lambda: self.show_tab("problems"))
        self.setStatusBar(self.status)
        self.services = WindowServices(self, self.settings, self.notice.show_notice, self.status.showMessage, self.show_tab,
                                       lambda: self.current_path, self.load_finished, self.open_window, self.views.get,
                                       self.current_tab, self.tabs.currentChanged)
        run_view = self.views["run"]
        if isinstance(run_view, RunView):
            run_view.services = self.services
        self._build_menus()
        self.notes_pane = install_notes(self.context, self.services, self.timeline_dock)  # the Notes dock, "Add note…", marks
        self.notes_keeper, self.note_marks = self.notes_pane.keeper, self.notes_pane.keeper.marks
        self.keyboard = Keyboard(self.context, self.services)
        self.focus_ring = FocusRing(self)  # the focused table, tree or editor framed in the accent colour
        self.loader.progress.connect(self._progress)
        self.loader.loaded.connect(self._loaded)
        self.loader.failed.connect(self._failed)
        self.loader.cancelled.connect(self._cancelled)
        self.follower.grew.connect(self._file_grew)
        self.resize(*WINDOW_SIZE)
        self.resizeDocks([self.timeline_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
        self.restore_settings()
        self.timeline_dock.installEventFilter(self)

    # --- menus ------------------------------------------------------------------------------------
    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.open_action = _action(self, "&Open…", self.choose_file, QKeySequence.StandardKey.Open)
        file_menu.addAction(self.open_action)
        file_menu.addAction(_action(self, "Open &Folder…", lambda: choose_corpus_folder(self), "Ctrl+Shift+O"))
        file_menu.addAction(_action(self, "&Compare with…", lambda: choose_compare(self), None))
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.reload_action = _action(self, "&Reload", self.reload, "F5")
        file_menu.addAction(self.reload_action)
        self.follow_action = _action(self, "&Follow (take what the file appends)", self.set_follow, "Ctrl+Shift+F")
        self.follow_action.setCheckable(True)
        file_menu.addAction(self.follow_action)
        file_menu.addSeparator()
        file_menu.addAction(_action(self, "Save &Screenshot…", self._choose_screenshot, None))
        self.save_repro_action = _action(self, "Save Re&pro…", self.save_repro, "Ctrl+Shift+S")
        file_menu.addAction(self.save_repro_action)
        file_menu.addAction(_action(self, "Save Re&dacted Repro…", lambda: self.save_repro(redact=True), None))
        self.export_action = _action(self, "&Export View Data…", self.export_view, "Ctrl+E")
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        file_menu.addAction(_action(self, "&Quit", self.close, QKeySequence.StandardKey.Quit))
        view_menu = self.menuBar().addMenu("&View")
        view_menu.addAction(self.timeline_dock.toggleViewAction())
        view_menu.addSeparator()
        for number, (name, title, _spec) in enumerate(TABS, start=1):
            view_menu.addAction(_action(self, f"{title} tab", lambda _=False, n=name: self.show_tab(n), f"Ctrl+{number}"))
        view_menu.addSeparator()
        view_menu.addAction(_action(self, "Cursor to the end of the session", lambda: self.context.set_cursor(None), "Ctrl+End"))
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for path in recent:
            self.recent_menu.addAction(_action(self, path, lambda _=False, p=path: self.open_file(p), None))
        if not recent:
            empty = self.recent_menu.addAction("(none yet)")
            empty.setEnabled(False)

    # --- opening ----------------------------------------------------------------------------------
    def choose_file(self) -> None:
        """File ▸ Open: pick a session file, starting in the last folder."""
        folder = str(self.settings.value("lastFolder", str(Path.home())))
        path, _ = QFileDialog.getOpenFileName(self, "Open a worker session", folder, FILE_FILTER)
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path, quiet: bool = False) -> None:
        """Load `path` off the GUI thread; the open session stays until the new one is ready."""
        path = Path(path)
        self._pending_path = path
        self._quiet_load = quiet
        if not quiet:
            self.settings.setValue("lastFolder", str(path.resolve().parent))
            self._show_progress(path)
        self.loader.start(path)

    def reload(self) -> None:
        """Re-read the open file, keeping the cursor where it is when that body still exists."""
        if self.current_path is not None:
            self.open_file(self.current_path)

    def set_follow(self, on: bool) -> None:
        """Follow the open file: show what it appends as it grows (a JSON Lines session being written)."""
        self.follow_action.setChecked(on)
        if on and self.current_path is not None:
            self.follower.follow(self.current_path)
            self.follower.mark_read(self._baseline)
        else:
            self.follower.stop()

    def _file_grew(self) -> None:
        if self.loader.busy:
            self._follow_again = True  # re-read once the load running now is in
            return
        if self.current_path is None:
            return
        appended = self.follower.read_appended(self.context.session)
        if appended is None:  # not appended to, or not as lines a session can take: read it all again
            reason = self.follower.reload_reason
            if reason is not None:  # say so: what is shown is now another file's content
                self.notice.show_notice(f"<b>{html.escape(self.current_path.name)}</b> was {html.escape(reason)} while "
                                        "followed: it is read again from the start.", "info")
            self.open_file(self.current_path, quiet=True)
        elif appended.items or appended.problems_changed:
            self.context.grow(appended)  # the views insert rows (InspectorContext.session_grew)

    def _show_progress(self, path: Path) -> None:
        if self.progress is None:
            self.progress = QProgressDialog(self)
            self.progress.setObjectName("loadProgress")
            self.progress.setWindowTitle("Opening")
            self.progress.setMinimumDuration(400)
            self.progress.setAutoClose(False)
            self.progress.setAutoReset(False)
            self.progress.canceled.connect(self.loader.cancel)
        self.progress.setLabelText(f"Opening {path.name} …")
        self.progress.setRange(0, 100)
        self.progress.setValue(0)

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.reset()
            self.progress.hide()

    def _progress(self, percent: int, text: str) -> None:
        if self.progress is not None and not self._quiet_load:
            self.progress.setLabelText(text)
            self.progress.setValue(percent)

    def _loaded(self, result: LoadedSession) -> None:
        self._close_progress()
        session = result.session
        if not session.is_session:
            first = session.errors[0] if session.errors else None
            why = f"{first.where + ': ' if first and first.where else ''}{first.message}" if first else "it is not a worker-session/1 file"
            stays = "The open session stays." if self.context.session is not None else "Open a session file (.json, .jsonl, .gz)."
            self.notice.show_notice(f"<b>{result.path.name} is not a session</b>: {why}. {stays}")
            self._end_load()
            return
        same_file = self.current_path is not None and result.path.resolve() == self.current_path.resolve()
        cursor = self.context.cursor if same_file else None
        tab = self.tabs.currentIndex()
        self.current_path = result.path
        self._baseline = result.baseline
        self.context.set_session(session, result.index, cursor)
        self.tabs.setCurrentIndex(tab)
        self.setWindowTitle(f"{session.title} — {result.path.name} — {APP_TITLE}")
        self._add_recent(result.path)
        errors, warnings = len(session.errors), len(session.warnings)
        if errors:
            self.notice.show_notice(
                f"<b>{result.path.name}</b> opened with {errors} error{'s' if errors != 1 else ''} (records not loaded) "
                f"and {warnings} warning{'s' if warnings != 1 else ''}.", "warning", ("Show problems", lambda: self.show_tab("problems")))
        elif not self._quiet_load:
            self.notice.hide()
        if self.follow_action.isChecked():
            if self.follower.path is None or self.follower.path.resolve() != result.path.resolve():
                self.follower.follow(result.path)
            self.follower.mark_read(result.baseline)  # what this load read, not the file as it is by now
        # "in 0.00 s" read as if nothing had been timed: under a second, in milliseconds.
        took = f"{result.seconds * 1000:.0f} ms" if result.seconds < 1 else f"{result.seconds:.2f} s"
        self.status.showMessage(f"opened {result.path.name} in {took}", 5000)
        self._end_load()

    def _failed(self, message: str) -> None:
        self._close_progress()
        stays = " The open session stays." if self.context.session is not None else ""
        self.notice.show_notice(f"<b>Cannot open the file</b>: {message}.{stays}")
        self._end_load()

    def _cancelled(self) -> None:
        self._close_progress()
        self.status.showMessage("opening cancelled; the open session stays", 5000)
        self._end_load()

    def _end_load(self) -> None:
        self._quiet_load = False
        self.load_finished.emit()
        if self._follow_again:
            self._follow_again = False
            QTimer.singleShot(0, self._file_grew)

    # --- recent files and settings ----------------------------------------------------------------
    def recent_files(self) -> list[str]:
        """Recently opened files, newest first."""
        value: Any = self.settings.value("recentFiles", [])  # as the settings file holds it: a list of paths, or one path
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: Path) -> None:
        text = str(path.resolve())
        recent = [text] + [p for p in self.recent_files() if p != text]
        self.settings.setValue("recentFiles", recent[:MAX_RECENT])
        self._fill_recent()

    def splitters(self) -> list[QSplitter]:
        """Every named splitter in the window, whose position is remembered."""
        return [s for s in self.findChildren(QSplitter) if s.objectName()]

    def save_settings(self) -> None:
        """Remember geometry, dock layout and splitter positions."""
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("windowState", self.saveState())
        self.settings.setValue("dockWidth", self.dock_width)  # wanted, not as squeezed by a small window
        self.settings.setValue("dockShare", self.dock_share)
        for splitter in self.splitters():
            self.settings.setValue(f"splitters/{splitter.objectName()}", splitter.saveState())
        self.settings.sync()

    def restore_settings(self) -> None:
        """Put geometry, docks and splitters back where they were."""
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("windowState")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        try:
            self.dock_width = max(DOCK_MIN_WIDTH, int(self.settings.value("dockWidth", DOCK_WIDTH)))  # type: ignore[call-overload]
            self.dock_share = min(0.8, max(0.05, float(self.settings.value("dockShare", self.dock_share))))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            pass  # a hand-edited settings file: the defaults stay
        self._splitters_restored = False

    def restore_splitters(self) -> None:
        """Put splitters back; done once the window is laid out, so sizes come back as they were."""
        self._splitters_restored = True
        self.fit_dock()
        for splitter in self.splitters():
            saved = self.settings.value(f"splitters/{splitter.objectName()}")
            if isinstance(saved, QByteArray):
                splitter.restoreState(saved)

    def _recolour(self) -> None:
        """The palette turned light or dark: what was coloured from text (not from the shared QColors) again."""
        self.notice.recolour()
        self.status.refresh()
        for view in self.views.values():
            recolour = getattr(view, "recolour", None)
            if callable(recolour):
                recolour()
        self.update()

    # --- the timeline dock on small screens --------------------------------------------------------
    def _tabs_squeezed(self) -> bool:
        central = self.centralWidget()
        assert central is not None  # set once, in __init__
        return central.width() <= central.minimumSizeHint().width() + 2

    def dock_target(self) -> int:
        """The dock's width for this window: the person's width and share of it, as far as the tabs leave room."""
        dock = self.timeline_dock
        central = self.centralWidget()
        assert central is not None  # set once, in __init__
        room = dock.width() + central.width() - central.minimumSizeHint().width()
        wanted = min(self.dock_width, max(DOCK_MIN_WIDTH, round(self.dock_share * self.width())))
        # Its calls whole beside the replay column, as far as the tabs keep TABS_KEEP_CHARS: their ids first (docs/window.md).
        floor = self.timeline.width_wanted() + dock.width() - self.timeline.width()
        wanted = max(wanted, min(floor, dock.width() + central.width() - tabs_keep()))
        return max(DOCK_MIN_WIDTH, min(wanted, room))

    def fit_dock(self) -> None:
        """Give the timeline dock its width for the window's size: narrower on a small window, back when it grows."""
        dock = self.timeline_dock
        if dock.isFloating() or not dock.isVisible():
            return
        target = self.dock_target()
        if abs(target - dock.width()) > 2:
            self.resizeDocks([dock], [target], Qt.Orientation.Horizontal)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        # The person drags the dock's edge (a button is down and the tabs have room); a window resize is not a choice.
        if (watched is self.timeline_dock and event.type() == QEvent.Type.Resize and not self.timeline_dock.isFloating()
                and QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton and not self._tabs_squeezed()):
            self.dock_width = max(DOCK_MIN_WIDTH, self.timeline_dock.width())
            self.dock_share = self.dock_width / max(1, self.width())
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        QTimer.singleShot(0, self.fit_dock)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        if not self._splitters_restored:
            QTimer.singleShot(0, self.restore_splitters)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 — Qt's hook
        self.save_settings()
        self.follower.stop()
        self.loader.cancel(quiet=True)
        shutdown_all(self)  # every view's background job (wsi_inspector.gui.background.jobs) cancelled and its thread awaited
        super().closeEvent(event)

    # --- tabs, drops, screenshots -------------------------------------------------------------------
    def show_tab(self, name: str) -> None:
        """Bring the tab `name` (as in TABS) to the front."""
        names = [n for n, _t, _s in TABS]
        if name not in names:
            raise ValueError(f"no tab {name!r}; the tabs are {', '.join(names)}")
        self.tabs.setCurrentIndex(names.index(name))

    def current_tab(self) -> str:
        """The TABS name of the tab in front."""
        return next((name for name, view in self.views.items() if view is self.tabs.currentWidget()), "")

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 — Qt's hook
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 — Qt's hook
        files = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.open_file(files[0])

    def open_window(self, path: Path, at: str | None, tab: str | None, notice: str, level: str) -> QWidget:
        """A new window on `path` (sharing these settings), at body `at` and `tab`, with `notice` once loaded."""
        window = MainWindow(self.settings)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        _windows.append(window)
        window.destroyed.connect(lambda *_: _windows.remove(window) if window in _windows else None)
        follow_link(window.context, window.services, at, tab)

        def loaded() -> None:
            window.load_finished.disconnect(loaded)
            if notice:
                window.notice.show_notice(notice, level)

        window.load_finished.connect(loaded)
        window.show()
        window.open_file(path)
        return window

    def screenshot(self, out: str | Path) -> None:
        """Render the window into a PNG written whole, never onto the open session (wsi_inspector.core.files.output_file).

        OSError (OutputRefused: a folder, a device, the session itself) when it cannot be written.
        """
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not self.grab().save(buffer, "PNG"):
            raise OSError("the picture could not be encoded as PNG")
        write_output(out, bytes(buffer.data().data()), [self.current_path] if self.current_path is not None else [])

    def save_repro(self, redact: bool = False) -> None:
        """File ▸ Save repro…: the session cut just after the body at the cursor, as one file (wsi_inspector.gui.actions.save_repro)."""
        saver_for(self.context, self.services).choose(redact)

    def export_view(self) -> None:
        """File ▸ Export view data…: the current view's data as JSON (as `wsi … --json`) or CSV (wsi_inspector.gui.actions.export)."""
        if self.exporter is None:
            self.exporter = Exporter(self.context, self.services)
        self.exporter.choose()

    def _choose_screenshot(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save a screenshot", str(Path.home() / "wsi.png"), "PNG (*.png)")
        if not path:
            return
        try:
            self.screenshot(path)
        except OutputRefused as exc:
            self.notice.show_notice(f"<b>Screenshot not saved</b>: {html.escape(str(exc))}")
        except OSError as exc:
            self.notice.show_notice(f"<b>Cannot write {html.escape(path)}</b> ({html.escape(exc.strerror or str(exc))}): "
                                    "choose a folder you can write to.")


def _action(parent: QWidget, text: str, slot: Any, shortcut: Any) -> QAction:
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    return action
