"""Issue 11 in the real window: deep values, bad bytes and damaged gzip never take it down."""
import gzip
import json

from wsi_inspector.core.jsrules.jsonsize import compact_json
from wsi_inspector.gui.widgets.json_tree import KEY_LEAST, KEY_SHARE, NARROW_KEY_SHARE, PREVIEW_CHARS, JsonTreeModel, JsonTreeView, preview
from tests.helpers.session_text import HEAD, deep, entry, json_form, with_input
from tests.fuzz.mutations import make_case


def _nested(levels: int) -> list:
    value: list = [1]
    for _ in range(levels - 1):
        value = [value]
    return value


def test_a_value_1024_deep_previews_and_prints_without_recursion():
    value = _nested(1024)
    assert compact_json(value) == deep(1024)
    assert preview(value) == "[…] 1 item"
    assert len(compact_json(value, PREVIEW_CHARS)) == PREVIEW_CHARS + 1


def test_the_json_tree_opens_a_deep_value_one_level_at_a_time(qtbot):
    model = JsonTreeModel()
    model.set_value(_nested(1000), "input")
    index = model.root_index()
    for _ in range(999):  # walking down makes each level's one child, nothing more
        model.fetchMore(index)
        assert model.rowCount(index) == 1
        index = model.index(0, 0, index)
        assert model.data(model.index(index.row(), 1, index.parent()))
    assert model.node(index).pointer == "/0" * 999


def test_an_entry_nested_988_deep_opens_and_shows_in_the_inputs_tree(window, open_file, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(with_input(json_form(entry("c1", "DEEP"), entry("c2")), "DEEP", deep(988)))
    session = open_file(window, path)
    assert [e.id for e in session.entries] == ["c1", "c2"] and not session.problems
    window.show_tab("inputs")
    window.context.choose_entry(session.entries[0])
    tree = window.views["inputs"].tree
    tree.expandAll()  # lazy: only what is fetched expands
    window.views["inputs"].grab()
    assert window.isVisible() and tree.json_model.root_index().isValid()


def test_refused_deep_and_bad_byte_records_are_listed_and_shown_at_their_place(window, open_file, tmp_path):
    text = with_input(json_form(entry("c1"), entry("c2", "DEEP"), entry("c3", "A?B"), entry("c4")), "DEEP", deep(1500))
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode().replace(b"A?B", b"A\xffB"))
    session = open_file(window, path)
    assert [e.id for e in session.entries] == ["c1", "c4"]
    problems = window.views["problems"]
    assert problems.model.rowCount() == len(session.problems) == 2
    window.show_tab("problems")
    for row in range(2):
        problems.activate(problems.model.index(row, 0))
        assert problems.shown.text and "^" in problems.shown.text  # an excerpt with a caret under the spot
    assert window.isVisible()


def test_a_damaged_gzip_is_refused_with_its_reason_and_the_open_session_stays(window, open_file, tmp_path, demo_path):
    demo = open_file(window, demo_path)
    path = tmp_path / "cut.json.gz"
    path.write_bytes(gzip.compress(json_form(entry("c1")).encode())[:30])
    open_file(window, path)
    assert window.context.session is demo
    assert "gzip file is truncated" in window.notice.label.text()


def test_a_sample_of_fuzzed_sessions_loads_in_the_window_with_problems_listed(window, open_file, tmp_path, monkeypatch):
    monkeypatch.setenv("WSI_GZIP_LIMIT", "16MiB")
    for number in range(0, 44, 4):
        case = make_case(2024, number)
        path = tmp_path / case.name
        path.write_bytes(case.data)
        session = open_file(window, path)
        assert window.isVisible(), case.kind
        problems = window.views["problems"]
        if session is not None and session.name == case.name:
            assert problems.model.rowCount() == len(session.problems), case.kind
            for row in range(min(problems.model.rowCount(), 5)):
                problems.activate(problems.model.index(row, 0))
            for chosen in session.entries[:3]:
                window.context.choose_entry(chosen)
        else:  # refused (not a session): the notice says why
            assert window.notice.label.text(), case.kind
    assert json.dumps(HEAD)


def test_expanding_a_value_988_deep_measures_the_key_column_once(qtbot):
    measured = []

    class CountingTree(JsonTreeView):
        def sizeHintForColumn(self, column: int) -> int:  # noqa: N802 — Qt's name
            measured.append(column)
            return super().sizeHintForColumn(column)

    tree = CountingTree()
    qtbot.addWidget(tree)
    tree.resize(600, 400)
    tree.show()
    tree.set_value(_nested(988), "input")
    qtbot.waitUntil(lambda: len(measured) >= 1, timeout=2000)
    measured.clear()
    tree.expandAll()  # lazy: each level is fetched as its parent opens
    model, index, depth = tree.json_model, tree.json_model.root_index(), 0
    while model.rowCount(index):
        index, depth = model.index(0, 0, index), depth + 1
    assert depth > 1 and tree.isExpanded(index.parent())
    qtbot.waitUntil(lambda: len(measured) >= 1, timeout=2000)
    qtbot.wait(50)
    assert len(measured) == 1  # once after the expands, not once per level (quadratic: minutes)
    # the deep keys want more than the key column's share of the tree (issue 31.4: the value takes the room);
    # the type column gives its room to them (issue 31.8: keys are ids), and the value keeps the rest
    share = NARROW_KEY_SHARE if tree.isColumnHidden(2) else KEY_SHARE
    assert tree.columnWidth(0) == max(KEY_LEAST // 2, int(tree.viewport().width() * share))
    assert tree.columnWidth(1) >= 0.4 * tree.viewport().width()
