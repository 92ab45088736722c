"""The Kept tab follows the cursor: what kept holds, which body kept it, the refused keeps."""


def test_kept_at_a_body_shows_only_what_earlier_bodies_kept(window, open_file, demo_path):
    session = open_file(window, demo_path)
    window.show_tab("kept")
    view = window.views["kept"]
    window.context.set_cursor("b3")
    assert [r.name for r in view.model.rows] == sorted(session.state_at("b3").kept)
    assert {r.name: str(r.kept_by) for r in view.model.rows} == {"spine": "b2"}
    assert view.tree.json_model.node(view.tree.json_model.root_index()).value == session.state_at("b3").kept["spine"]
    assert "kept by body" in view.value_label.text()
    assert view.refused_model.rowCount() == 0


def test_behind_another_tab_it_follows_the_cursor_when_shown(window, open_file, demo_path, qtbot):
    # Issue 28.3: a move re-made this tab (table, widths, the value's JSON tree) though no one saw it. Behind
    # another tab it waits; brought to the front it shows the state at the cursor, not the one before.
    session = open_file(window, demo_path)
    window.show_tab("kept")
    view = window.views["kept"]
    window.context.set_cursor("b2")
    assert [r.name for r in view.model.rows] == sorted(session.state_at("b2").kept)
    window.show_tab("inputs")
    refreshed = []
    view.model.modelReset.connect(lambda: refreshed.append(window.context.cursor))
    for cursor in ("b3", "b4", None):
        window.context.set_cursor(cursor)
    assert refreshed == [], "no move remade the hidden tab"
    window.show_tab("kept")
    end = session.state_at(None)
    assert [r.name for r in view.model.rows] == sorted(end.kept)
    shown = view.tree.json_model.node(view.tree.json_model.root_index())
    assert shown is not None and shown.value == end.kept[view.current_name()]
    assert f"kept.{view.current_name()}" in view.value_label.text()
    assert view.refused_label.text() == "Refused keeps before this point: 1"
    assert "at the end of the session" in view.summary.text()
    window.show_tab("inputs")
    window.context.set_cursor("b3")
    window.show_tab("kept")
    assert [r.name for r in view.model.rows] == sorted(session.state_at("b3").kept)
    assert view.refused_label.text() == "No keep was refused before this point."


def test_a_refused_keep_shows_its_message_and_its_body(window, open_file, demo_path, qtbot):
    session = open_file(window, demo_path)
    window.show_tab("kept")
    view = window.views["kept"]
    window.context.set_cursor(None)
    assert view.refused_model.rowCount() == 1
    message = view.refused_model.data(view.refused_model.index(0, 1))
    assert "keep.ward is a handle" in message
    with qtbot.waitSignal(window.context.body_chosen):
        view._refused_activated(view.refused_model.index(0, 0))
    assert window.context.cursor == "b5"
    assert session.body("b5") is not None


def test_with_no_refused_keep_the_refused_section_says_so_and_shows_no_empty_table(qtbot, window, open_file, demo_path):
    # Issue 31.11: an empty table headed "InvalidKeepError" in the Kept tab.
    from PySide6.QtCore import Qt

    open_file(window, demo_path)
    window.resize(1024, 700)
    window.show_tab("kept")
    view, tree, model = window.views["kept"], window.timeline.tree, window.timeline.model

    def click(row):
        index = model.index(row, 0)
        tree.scrollTo(index)
        qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())

    click(model.row_for_cursor("b3"))  # before b5, whose keep was refused
    assert window.context.cursor == "b3"
    assert view.refused_label.text() == "No keep was refused before this point."
    assert not view.refused_table.isVisible()
    assert view.refused_pane.height() < 3 * view.refused_label.sizeHint().height()  # the room goes to the kept values
    window.grab().save("/tmp/window-rest-kept-none.png")
    click(model.row_for_cursor(None))  # End of session: b5's keep was refused before it
    assert view.refused_label.text() == "Refused keeps before this point: 1"
    assert view.refused_table.isVisible() and view.refused_model.rowCount() == 1
    assert view.refused_table.height() > 3 * view.refused_table.horizontalHeader().height()  # room to read it in
    window.grab().save("/tmp/window-rest-kept-one.png")
