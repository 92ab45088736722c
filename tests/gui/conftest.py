"""GUI fixtures: a real MainWindow with its own settings file and log, and a helper that opens a file
and waits for the load thread to finish."""
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtGui import QFont, QPalette, QRegion

# The offscreen platform (CI has no display) warns on every QMainWindow it shows: it cannot pass
# size hints to a window system it does not have. Only that exact message is ignored.
OFFSCREEN_NOISE = r"^This plugin does not support propagateSizeHints\(\)$"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(scope="session")
def product_look(qapp):
    """The application dressed as `wsi gui` dresses it (theme.apply_look), light, once for the whole run."""
    import os

    from wsi_inspector.gui.window.theme import apply_look

    theme_before = os.environ.pop("WSI_THEME", None)
    os.environ["WSI_THEME"] = "light"
    apply_look(qapp)
    os.environ.pop("WSI_THEME")
    if theme_before is not None:
        os.environ["WSI_THEME"] = theme_before
    return QPalette(qapp.palette()), QFont(qapp.font()), qapp.styleSheet()


@pytest.fixture(autouse=True)
def same_application_each_test(qapp, product_look):
    """Each test starts from the same application, whatever ran before it: the product's look, light (a test that
    turned the theme dark, or gave the application another style or font, has it put back), and no body's reads
    remembered from another test's replay (core.edits.body_reads keeps them per file for the whole process)."""
    from wsi_inspector.core.edits import body_reads
    from wsi_inspector.gui.window import theme

    body_reads.forget()
    yield
    palette, font, sheet = product_look
    if not isinstance(qapp.style(), theme.LookStyle):  # the application owns its style: a new one, as apply_look makes
        qapp.setStyle(theme.LookStyle("Fusion"))
    if qapp.palette() != palette:
        qapp.setPalette(palette)
    if qapp.font() != font:
        qapp.setFont(font)
    if qapp.styleSheet() != sheet:
        qapp.setStyleSheet(sheet)
    theme.use_palette(palette)
    body_reads.forget()


@pytest.fixture(autouse=True)
def private_log(tmp_path, monkeypatch):
    """Unexpected-exception logs of a test go to its own folder, never to the person's."""
    monkeypatch.setenv("WSI_LOG", str(tmp_path / "wsi.log"))
    return tmp_path / "wsi.log"


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "wsi.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings):
    from wsi_inspector.gui.window.main_window import MainWindow

    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.follower.stop()
    win.loader.cancel(quiet=True)
    win.loader.wait()


@pytest.fixture
def open_file(qtbot):
    """open_file(window, path): open and wait until the load has ended (opened, refused or failed)."""
    def opener(win, path: Path, timeout: int = 20_000):
        with qtbot.waitSignal(win.load_finished, timeout=timeout):
            win.open_file(path)
        return win.context.session
    return opener


class _EventSpy(QObject):
    """Notes each watched widget that receives an event of one type (or what `note` makes of it)."""

    def __init__(self, kind: QEvent.Type, note=lambda watched, event: watched):
        super().__init__()
        self.kind = kind
        self.note = note
        self.seen: list = []

    def eventFilter(self, watched, event):  # noqa: N802 — Qt's hook
        if event.type() == self.kind:
            self.seen.append(self.note(watched, event))
        return False


def _spying(kind: QEvent.Type, note=lambda watched, event: watched):
    spies = []

    def watch(*widgets):
        spy = _EventSpy(kind, note)
        spies.append(spy)  # kept alive for the test
        for widget in widgets:
            widget.installEventFilter(spy)
        return spy.seen
    return watch


@pytest.fixture
def layout_requests():
    """layout_requests(*widgets): the list the widgets' layout requests are added to from now on
    (one relayout of the main window repaints it all)."""
    return _spying(QEvent.Type.LayoutRequest)


@pytest.fixture
def paints():
    """paints(*widgets): the list the widgets are added to, from now on, each time one is painted."""
    return _spying(QEvent.Type.Paint)


@pytest.fixture
def painted_regions():
    """painted_regions(*widgets): the list each region the widgets are asked to paint is added to, from now on."""
    return _spying(QEvent.Type.Paint, lambda watched, event: QRegion(event.region()))


@pytest.fixture
def settle(qtbot):
    """settle(*widgets): wait until the widgets have asked for no layout for 100 ms (at most 3 s), so that
    what opening left to do (on a busy machine it lands late) is over before a test counts layouts."""
    def wait(*widgets):
        spy = _EventSpy(QEvent.Type.LayoutRequest)
        for widget in widgets:
            widget.installEventFilter(spy)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            spy.seen.clear()
            qtbot.wait(100)
            if not spy.seen:
                break
        for widget in widgets:
            widget.removeEventFilter(spy)
    return wait
