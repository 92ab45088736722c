"""The timeline dock on the demo: nothing recorded is hidden from an entry's tooltip (issue 14, point 6)."""
from PySide6.QtCore import Qt


def _tooltip(window, entry):
    model = window.timeline.model
    index = model.locate_entry(entry)
    assert index.isValid()
    return model.data(index, Qt.ItemDataRole.ToolTipRole)


def test_a_call_tooltip_shows_its_recorded_output(window, open_file, demo_path):
    session = open_file(window, demo_path)
    c23 = session.entry("c23")
    text = _tooltip(window, c23)
    assert '"output"' not in text and 'output: {"level":2,' in text
    assert 'input: {"level":2,' in text and "at: " + c23.at in text


def test_a_canvas_edit_tooltip_shows_its_note_and_says_no_output_was_recorded(window, open_file, demo_path, qtbot):
    session = open_file(window, demo_path)
    e1 = session.entry("e1")
    text = _tooltip(window, e1)
    assert f"note: {e1.extra['note']}" in text
    assert "output: none recorded" in text and "editOf: " in text


def test_a_huge_output_is_cut_in_the_tooltip():
    from wsi_inspector.core.session.model import Entry
    from wsi_inspector.gui.tabs.timeline.models import TOOLTIP_VALUE_CHARS, recorded_fields_text

    entry = Entry("c1", "a.b.c", {"p": 1}, output={"points": [[i, i] for i in range(50_000)]}, extra={"note": "n"})
    lines = recorded_fields_text(entry).splitlines()
    assert lines[1].startswith("output: ") and len(lines[1]) == len("output: ") + TOOLTIP_VALUE_CHARS
    assert lines[-1] == "note: n"
