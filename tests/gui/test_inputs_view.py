"""The Inputs tab on the demo: module filter, value search, sorting, the JSON tree and the resolver."""
from PySide6.QtGui import QGuiApplication

from core.run_inputs import call_matches, make_inputs


def _ids(view):
    return [str(view.model.entry_at_row(r).id) for r in range(view.model.rowCount())]


def test_module_filter_shows_every_fn_of_the_module(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.filter_edit.setText("pack.corridorRuns")
    view.refresh()  # what the typing delay would do
    wanted = [str(e.id) for e in session.entries if call_matches(e.call, "pack.corridorRuns")]
    assert _ids(view) == wanted
    assert {view.model.entry_at_row(r).call for r in range(view.model.rowCount())} == {
        "pack.corridorRuns.corridorRuns", "pack.corridorRuns.score"}


def test_a_full_call_shows_just_it_and_a_partial_segment_explains_itself(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    view = window.views["inputs"]
    view.filter_edit.setText("pack.corridorRuns.score")
    qtbot.waitUntil(lambda: view.model.spec.wanted == "pack.corridorRuns.score", timeout=2000)
    assert {view.model.entry_at_row(r).call for r in range(view.model.rowCount())} == {"pack.corridorRuns.score"}
    view.filter_edit.setText("pack.corridor")
    view.refresh()
    assert view.model.rowCount() == 0
    assert "did you mean pack.corridorRuns" in view.hint_label.text()


def test_search_finds_text_inside_input_values(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.search_edit.setText("dept-icu")
    view.refresh()
    assert _ids(view) and all("dept-icu" in str(session.entry(i).input) for i in _ids(view))
    assert len(_ids(view)) == sum("dept-icu" in str(e.input) for e in session.entries)


def test_sorting_by_bytes_happens_in_core_and_keeps_the_filter(window, open_file, demo_path):
    from PySide6.QtCore import Qt

    open_file(window, demo_path)
    view = window.views["inputs"]
    view.filter_edit.setText("mep.risers")
    view.refresh()
    view.table.sortByColumn(5, Qt.SortOrder.DescendingOrder)
    sizes = [view.model.entry_at_row(r).input_bytes for r in range(view.model.rowCount())]
    assert sizes == sorted(sizes, reverse=True) and len(sizes) == 9


def test_resolving_last_highlights_the_entry_make_inputs_returns(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.resolver_edit.setText('inputs.last("pack.corridorRuns")')
    expected = make_inputs(session.entries).last_entry("pack.corridorRuns")
    assert view.resolution.entry is expected
    assert view.model.highlighted == session.entries.index(expected)
    assert view.shown_entry is expected
    assert expected.id in view.resolver_label.text() and "newest" in view.resolver_label.text()


def test_at_body_b5_last_returns_the_persons_newer_edit(window, open_file, demo_path):
    session = open_file(window, demo_path)
    window.context.set_cursor("b5")
    view = window.views["inputs"]
    view.resolver_edit.setText("pack.corridorRuns.corridorRuns")
    expected = make_inputs(session.state_at("b5").store).last_entry("pack.corridorRuns.corridorRuns")
    assert expected.applied
    assert view.resolution.entry is expected
    assert "person's canvas edit" in view.resolver_label.text()
    window.context.set_cursor(None)  # the resolver follows the cursor
    assert view.resolution.entry is make_inputs(session.entries).last_entry("pack.corridorRuns.corridorRuns")


def test_at_an_id_compares_as_strings_and_says_when_it_comes_later(window, open_file, demo_path):
    open_file(window, demo_path)
    window.context.set_cursor("b2")
    view = window.views["inputs"]
    view.resolver_edit.setText('inputs.at("c30")')
    assert view.resolution.entry is None
    assert "recorded later" in view.resolver_label.text()


def test_the_json_tree_copies_value_pointer_and_json(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.show_entry(session.entry("c4"))
    tree = view.tree
    root = tree.json_model.root_index()
    tree.json_model.fetchMore(root)
    spine_row = list(session.entry("c4").input).index("spine")
    spine = tree.json_model.index(spine_row, 0, root)
    tree.json_model.fetchMore(spine)
    point = tree.json_model.index(1, 0, spine)
    tree.setCurrentIndex(point)
    assert tree.copy_pointer() == "/spine/1"
    assert QGuiApplication.clipboard().text() == "/spine/1"
    value = session.entry("c4").input["spine"][1]
    assert tree.copy_value() == "[" + ",".join(str(v) for v in value) + "]"
    assert tree.copy_json().startswith("[")
