"""The Inputs tab's JSON tree marks the paths the cursor's body read in the shown entry (SPEC 7, issue 30.4)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPalette, QRegion
from PySide6.QtWidgets import QApplication

from wsi_inspector.gui.window.look import HIGHLIGHT, READ_BACKGROUND
from wsi_inspector.gui.window.theme import apply_look, colour
from tests.conftest import DEMO
from tests.helpers.on_screen import on_screen

RUN_TIMEOUT_MS = 20_000


def first_level(tree):
    """{JSON Pointer: (background, tooltip)} of the root's children, fetched as the view would."""
    model = tree.json_model
    root = model.root_index()
    while model.canFetchMore(root):
        model.fetchMore(root)
    rows = {}
    for row in range(model.rowCount(root)):
        index = model.index(row, 1, root)
        rows[model.node(index).pointer] = (model.data(index, Qt.ItemDataRole.BackgroundRole),
                                           model.data(index, Qt.ItemDataRole.ToolTipRole))
    return rows, model.data(model.index(0, 1, root.parent()), Qt.ItemDataRole.BackgroundRole)


def learn_reads(qtbot, window, body):
    """Put the cursor at `body` and let the Run tab's Reads page learn its reads off the GUI thread."""
    window.show_tab("run")
    run = window.views["run"]
    window.context.set_cursor(body)
    run.result_tabs.setCurrentWidget(run.reads_panel)
    qtbot.waitUntil(lambda: run.reads_panel.model.rowCount() > 0, timeout=RUN_TIMEOUT_MS)


@pytest.fixture(params=["light", "dark"])
def theme(request, monkeypatch):
    """The application's look, light or dark (restored after)."""
    monkeypatch.setenv("WSI_THEME", request.param)
    apply_look(QApplication.instance())
    yield request.param
    monkeypatch.delenv("WSI_THEME")
    apply_look(QApplication.instance())


def hue_apart(a, b) -> int:
    diff = abs(a.hslHue() - b.hslHue()) % 360
    return min(diff, 360 - diff)


def test_the_paths_the_cursors_body_read_are_marked_in_the_shown_input(qtbot, window, open_file, theme):
    open_file(window, DEMO)
    learn_reads(qtbot, window, "b8")  # b8 reads c21's bandDepth, clearWidth and spine on its line 3
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    entry = window.context.session.entry("c21")
    inputs.show_entry(entry)
    rows, root = first_level(inputs.tree)
    read = {pointer for pointer, (background, _tip) in rows.items() if background == READ_BACKGROUND}
    assert read == {"/bandDepth", "/clearWidth", "/spine"}
    assert set(rows) - read  # the input has keys b8 did not read, and they are not marked
    assert all(background is None for pointer, (background, _tip) in rows.items() if pointer not in read)
    assert root is None  # the value as a whole was not read
    assert "read by b8 at line 3" in rows["/spine"][1]
    assert all("read by" not in tip for pointer, (_b, tip) in rows.items() if pointer not in read)
    # A colour of its own: not the search's yellow, not Edits' changed colours, far from the selection's blue.
    assert READ_BACKGROUND not in (HIGHLIGHT, colour("model_written"), colour("person_written"))
    assert hue_apart(READ_BACKGROUND, inputs.tree.palette().color(QPalette.ColorRole.Highlight)) >= 30
    inputs.resize(1024, 700)
    inputs.grab().save(f"/tmp/evidence-gaps-read-paths-{theme}.png")

    window.context.set_cursor("b4")  # b4's reads are not known: nothing is marked
    rows, _root = first_level(inputs.tree)
    assert all(background is None for background, _tip in rows.values())


def test_an_entry_the_body_did_not_read_has_no_marks(qtbot, window, open_file):
    open_file(window, DEMO)
    learn_reads(qtbot, window, "b8")
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    inputs.show_entry(window.context.session.entry("c3"))
    rows, _root = first_level(inputs.tree)
    assert rows and all(background is None for background, _tip in rows.values())


def test_marks_that_change_repaint_their_rows_and_no_others(qtbot, window, open_file, painted_regions):
    # The Inputs tab repainted its whole JSON tree whenever the paths read in the shown entry changed (every cursor
    # move once a replay made reads known, issue 28.3). Now the rows whose mark changed are repainted; the screen
    # then shows what a whole repaint shows.
    open_file(window, DEMO)
    learn_reads(qtbot, window, "b8")
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    inputs.show_entry(window.context.session.entry("c21"))
    qtbot.wait(50)
    tree = inputs.tree
    model = tree.json_model
    root = model.root_index()
    marked = [model.index(row, 0, root) for row in range(model.rowCount(root))
              if model.node(model.index(row, 0, root)).pointer in {"/bandDepth", "/clearWidth", "/spine"}]
    assert len(marked) == 3
    painted = painted_regions(tree.viewport())
    window.context.set_cursor(None)  # the end of the session: no body, no reads; c21 stays shown
    qtbot.wait(50)
    assert inputs.shown_entry is window.context.session.entry("c21")
    assert all(background is None for background, _tip in first_level(tree)[0].values())
    rows = QRegion()
    for index in marked:
        rows += QRect(0, tree.visualRect(index).top(), tree.viewport().width(), tree.visualRect(index).height())
    assert painted and all(region.subtracted(rows).isEmpty() for region in painted), ([r.boundingRect() for r in painted], rows.boundingRect())
    shown = on_screen(window, tree)
    tree.viewport().repaint()
    assert shown == on_screen(window, tree)
