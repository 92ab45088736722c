"""The window's keys, pressed as a person presses them: focus, stepping, Tab between panes, row copy."""
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication


def press(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier):
    target = QApplication.focusWidget() or window
    qtbot.keyClick(target, key, modifier)


def ready(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=3000)


def test_ctrl_f_focuses_the_search_and_ctrl_l_the_resolver(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    ready(window, qtbot)
    window.show_tab("inputs")
    press(qtbot, window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is window.views["inputs"].search_edit
    window.show_tab("kept")
    press(qtbot, window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.views["inputs"]
    assert QApplication.focusWidget() is window.views["inputs"].resolver_edit


def test_f8_steps_through_failed_bodies_and_f7_through_edits(window, open_file, demo_path, qtbot):
    session = open_file(window, demo_path)
    ready(window, qtbot)
    window.context.set_cursor(session.bodies[0].id)
    failed = [b.key for b in session.bodies if b.failed]
    seen = []
    for _ in failed:
        press(qtbot, window, Qt.Key.Key_F8)
        seen.append(str(window.context.cursor))
    assert seen == failed
    chosen = []
    window.context.entry_chosen.connect(lambda entry: chosen.append(str(entry.id)))
    window.context.set_cursor(session.bodies[0].id)
    for _ in range(3):
        press(qtbot, window, Qt.Key.Key_F7)
    press(qtbot, window, Qt.Key.Key_F7, Qt.KeyboardModifier.ShiftModifier)
    assert chosen == ["e1", "e2", "e3", "e2"]


def test_tab_leaves_the_inputs_table_and_ctrl_c_copies_whole_rows(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    ready(window, qtbot)
    view = window.views["inputs"]
    window.show_tab("inputs")
    window.context.set_cursor(None)
    view.table.setFocus()
    view.table.selectRow(0)
    press(qtbot, window, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QGuiApplication.clipboard().text()
    shown = sorted((c for c in range(view.model.columnCount()) if not view.table.isColumnHidden(c)),
                   key=view.table.horizontalHeader().visualIndex)  # as on screen: hidden columns (the read mark) left out
    first = [view.model.data(view.model.index(0, c)) for c in shown]
    assert copied == "\t".join("" if v is None else str(v) for v in first)
    assert copied.startswith("c1\t")
    press(qtbot, window, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not view.table


def test_f1_lists_every_shortcut(window, qtbot):
    from PySide6.QtWidgets import QDialog, QTextBrowser

    ready(window, qtbot)
    press(qtbot, window, Qt.Key.Key_F1)
    dialog = window.findChild(QDialog, "shortcutsDialog")
    assert dialog is not None and dialog.isVisible()
    text = dialog.findChild(QTextBrowser, "shortcutsList").toPlainText()
    for keys in ("Ctrl+F", "Ctrl+L", "F8", "Shift+F8", "F7", "Shift+F7", "Ctrl+O", "F5", "Tab / Shift+Tab"):
        assert keys in text
