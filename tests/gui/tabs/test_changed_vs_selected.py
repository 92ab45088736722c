"""Issue 31.7: in Edits the model tree marks changed values in a colour of its own, never the selection's blue."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from tests.conftest import DEMO


def _hue_apart(a, b) -> int:
    diff = abs(a.hslHue() - b.hslHue()) % 360
    return min(diff, 360 - diff)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_changed_value_is_not_drawn_as_selected(qtbot, window, open_file, theme, monkeypatch):
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.gui.window.theme import apply_look

    monkeypatch.setenv("WSI_THEME", theme)
    apply_look(QApplication.instance())
    try:
        open_file(window, DEMO)
        qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
        edits = window.views["edits"]
        qtbot.waitUntil(lambda: edits.ready, timeout=20_000)
        assert edits.select_edit("e1")
        qtbot.waitUntil(lambda: edits.current_detail() is not None, timeout=20_000)
        edits.changes_table.setFocus()
        qtbot.keyClick(edits.changes_table, Qt.Key.Key_End)  # bandDepth, the last change: the trees reveal it
        tree = edits.model_tree
        model = tree.json_model
        root = model.root_index()
        rows = {model.node(model.index(r, 0, root)).pointer: model.index(r, 1, root) for r in range(model.rowCount(root))}
        changed = model.data(rows["/bandDepth"], Qt.ItemDataRole.BackgroundRole)
        assert changed is not None
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            selection = tree.palette().color(group, QPalette.ColorRole.Highlight)
            assert _hue_apart(changed, selection) >= 30, (changed.name(), selection.name())
    finally:
        monkeypatch.delenv("WSI_THEME")
        apply_look(QApplication.instance())
