"""The Kept tab follows the cursor: what kept holds, which body kept it, the refused keeps."""


def test_kept_at_a_body_shows_only_what_earlier_bodies_kept(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["kept"]
    window.context.set_cursor("b3")
    assert [r.name for r in view.model.rows] == sorted(session.state_at("b3").kept)
    assert {r.name: str(r.kept_by) for r in view.model.rows} == {"spine": "b2"}
    assert view.tree.json_model.node(view.tree.json_model.root_index()).value == session.state_at("b3").kept["spine"]
    assert "kept by body" in view.value_label.text()
    assert view.refused_model.rowCount() == 0


def test_a_refused_keep_shows_its_message_and_its_body(window, open_file, demo_path, qtbot):
    session = open_file(window, demo_path)
    view = window.views["kept"]
    window.context.set_cursor(None)
    assert view.refused_model.rowCount() == 1
    message = view.refused_model.data(view.refused_model.index(0, 1))
    assert "keep.ward is a handle" in message
    with qtbot.waitSignal(window.context.body_chosen):
        view._refused_activated(view.refused_model.index(0, 0))
    assert window.context.cursor == "b5"
    assert session.body("b5") is not None
