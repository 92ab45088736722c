"""The Problems tab reads each problem's structured place (wsi_inspector.core.session.record_view), never its printed text."""
import json

from wsi_inspector.core.session.place import Place
from tests.conftest import BROKEN

HEAD = {"format": "worker-session/1", "session": {"id": "p"}}


def test_a_json_lines_field_place_shows_its_line_read_back_from_the_file(window, open_file):
    session = open_file(window, BROKEN / "bad_lines.jsonl")
    problems = window.views["problems"]
    window.show_tab("problems")
    row = next(i for i, p in enumerate(problems.model.rows) if p.place == Place.record_line(4).field("kind"))
    problems.activate(problems.model.index(row, 0))
    assert problems.shown.value == {"kind": "note", "text": "?"}
    assert problems.stack.currentWidget() is problems.tree
    assert session.problems[0].place.is_spot
    problems.activate(problems.model.index(0, 0))
    assert problems.stack.currentWidget() is problems.text and "^" in problems.text.toPlainText()


def test_a_key_with_a_slash_shows_its_own_value_not_a_part_cut_at_the_slash(window, open_file, tmp_path):
    # The printed pointer escapes `/` as `~1`; a place read back from unescaped text split the key in two.
    path = tmp_path / "mock.json"
    path.write_text(json.dumps({**HEAD, "scene": {"entities": [], "mocks": {"pack.a/b.c": {"throws": 5}}}, "store": []}))
    session = open_file(window, path)
    assert [p.where for p in session.errors] == ["/scene/mocks/pack.a~1b.c/throws"]
    problems = window.views["problems"]
    window.show_tab("problems")
    problems.activate(problems.model.index(0, 0))
    assert problems.shown.value == 5
    assert problems.shown.title == "/scene/mocks/pack.a~1b.c/throws in the file (not loaded)"
    assert problems.model.data(problems.model.index(0, 1)) == "/scene/mocks/pack.a~1b.c/throws"
    window.grab()


def test_a_loaded_entry_is_chosen_from_its_json_lines_place(window, open_file, tmp_path, qtbot):
    lines = [HEAD, {"kind": "body", "id": "b1", "code": "1"},
             {"kind": "entry", "id": "e1", "call": "pack.a.b", "input": {}, "applied": True, "editOf": "nope"}]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n")
    session = open_file(window, path)
    problems = window.views["problems"]
    row = next(i for i, p in enumerate(problems.model.rows) if p.where == "line 3 /editOf")
    with qtbot.waitSignal(window.context.entry_chosen) as chosen:
        problems.activate(problems.model.index(row, 0))
    assert chosen.args[0] is session.entry("e1")
    assert problems.shown.title == "the entry e1 at line 3 (loaded)"


def test_the_first_problems_record_is_read_back_when_the_tab_is_shown_not_at_open(window, open_file, tmp_path):
    """Issue 28: reading a refused record back from the file at open cost a second and the file's size
    in memory on a 165 MB session, for a tab not in front; it is read when the tab is first shown."""
    path = tmp_path / "mock.json"
    path.write_text(json.dumps({**HEAD, "scene": {"entities": [], "mocks": {"pack.a.b": {"throws": 5}}}, "store": []}))
    open_file(window, path)
    problems = window.views["problems"]
    assert window.current_tab() != "problems"
    assert problems.shown is None and problems._finder is not None and problems._finder._data is None
    window.show_tab("problems")
    assert problems.table.currentIndex().row() == 0
    assert problems.shown is not None and problems.shown.value == 5
    assert problems.tree.isVisible() and problems.stack.currentWidget() is problems.tree


def test_on_a_big_session_a_record_is_found_by_a_job_and_no_copy_of_the_file_is_kept(window, open_file, tmp_path, qtbot, monkeypatch):
    """Issue 28, point 3: reading a 3 GB file back to show a refused record took seconds of the GUI thread
    and kept a copy of the file for as long as the session stayed open; a job finds it now, with its own
    finder, dropped with its answer."""
    from wsi_inspector.gui.tabs.problems import view as problems_view

    monkeypatch.setattr(problems_view, "FOUND_HERE_UP_TO", 100)  # this small file counts as big
    store = [{"id": "c1", "call": "pack.a.b", "input": {"n": 1}}, {"id": "c2", "call": 7, "input": {}},
             {"id": "e1", "call": "pack.a.b", "input": {}, "applied": True, "editOf": "nope"}]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**HEAD, "store": store}))
    session = open_file(window, path)
    problems = window.views["problems"]
    window.show_tab("problems")
    refused = next(i for i, p in enumerate(problems.model.rows) if p.where.startswith("/store/1"))
    assert problems.show_record(problems.model.index(refused, 0)) is None  # asked of a job
    qtbot.waitUntil(lambda: problems.shown is not None and problems.shown.has_value, timeout=10_000)
    assert problems.shown.value == {"id": "c2", "call": 7, "input": {}}
    assert problems._finder._data is None  # the file read back is not held by the view
    loaded = next(i for i, p in enumerate(problems.model.rows) if p.where.startswith("/store/2"))
    with qtbot.waitSignal(window.context.entry_chosen, timeout=10_000) as chosen:
        problems.activate(problems.model.index(loaded, 0))
    assert chosen.args[0] is session.entry("e1")
