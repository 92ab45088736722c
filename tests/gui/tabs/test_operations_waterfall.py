"""Issue 31.9: the Operations tab is a waterfall from 0 to the run's end, one row per call, each named and timed.

Before, one 0.1 ms call filled the plot on a 7.50–7.60 ms axis with a cut label.
"""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import DEMO

RUN_TIMEOUT_MS = 20_000


def test_one_short_call_sits_on_an_axis_from_zero_with_its_name_and_time(qtbot, window, open_file):
    open_file(window, DEMO)
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    view = window.views["run"]
    view.editor.setFocus()
    qtbot.keyClick(view.editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.editor, "await modules.mep.risers({ level: 1 }); return 1;")
    with qtbot.waitSignal(view.bridge.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.keyClick(view.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    result = view.last_result
    assert result["ok"] and len(result["operations"]) == 1
    view.result_tabs.setCurrentWidget(view.plot)
    (low, high), _ = view.plot.getViewBox().viewRange()
    op = result["operations"][0]
    assert low == 0 and high >= max(result["durationMs"], op["startMs"] + op["durationMs"])
    ticks = view.plot.getAxis("left")._tickLevels[0]
    assert ticks == [(0, "mep.risers.risers")]  # the whole call name
    assert [label.toPlainText() for label in view._op_labels] == [f"{op['durationMs']:g} ms"]
    assert view.plot.getViewBox().yInverted()


def test_many_calls_are_rows_of_one_height_first_on_top(qtbot, window, open_file):
    open_file(window, DEMO)
    view = window.views["run"]
    view.editor.set_code("for (let i = 0; i < 30; i++) { await modules.mep.risers({ level: i }); }", "js")
    with qtbot.waitSignal(view.bridge.finished, timeout=RUN_TIMEOUT_MS):
        view.run_body()
    _, (top, bottom) = view.plot.getViewBox().viewRange()
    assert len(view.operations) == 30 and bottom - top <= 16.5  # 16 rows in view, the rest scroll
