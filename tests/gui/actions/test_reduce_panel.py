"""Run tab ▸ Reduce…, File ▸ Save repro… and deep links, in real windows over real generated sessions and real V8."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wsi_inspector.core.session.load import load
from tests.conftest import ROOT
from tests.helpers.reduce_sessions import FAILING_BODY, NEEDED, failing_document, failing_session

REDUCE_TIMEOUT_MS = 60_000


@pytest.fixture
def long_session(tmp_path):
    return failing_session(tmp_path / "long.json")


def _at_b6(window, open_file, path):
    from wsi_inspector.gui.actions.deep_link import follow_link

    follow_link(window.context, window.services, "b6", "run")
    open_file(window, path)
    return window.views["run"]


def test_a_deep_link_opens_at_the_body_and_tab(window, open_file, long_session):
    view = _at_b6(window, open_file, long_session)
    assert window.context.cursor == "b6"
    assert window.tabs.currentWidget() is view
    assert view.editor.toPlainText() == FAILING_BODY
    assert "150 entries" in view.scope_label.text()


def test_a_deep_link_to_a_missing_body_says_so_and_stays_at_the_end(window, open_file, long_session):
    from wsi_inspector.gui.actions.deep_link import follow_link

    follow_link(window.context, window.services, "nope", "run")
    open_file(window, long_session)
    assert window.context.cursor is None
    assert "has no body 'nope'" in window.notice.label.text() and window.notice.isVisible()


def test_wsi_gui_at_and_tab_render_that_body_in_a_screenshot(tmp_path, long_session):
    out = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, "-m", "wsi_inspector.gui.window.launch", "gui", str(long_session), "--at", "b6", "--tab", "run",
                           "--screenshot", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 10_000


def test_reduce_opens_the_reduced_session_in_a_new_window_with_what_was_needed(qtbot, window, open_file, long_session):
    view = _at_b6(window, open_file, long_session)
    panel = view.reduce_body()
    assert panel is not None and panel.isVisible()
    assert window.isEnabled()  # the reduction runs off the GUI thread
    with qtbot.waitSignal(panel.done, timeout=REDUCE_TIMEOUT_MS) as done:
        pass
    reduced = done.args[0]
    assert reduced is not None
    qtbot.addWidget(reduced)
    qtbot.waitUntil(lambda: reduced.context.session is not None and reduced.context.cursor == "b6", timeout=20_000)
    qtbot.waitUntil(reduced.notice.isVisible, timeout=5_000)
    notice = reduced.notice.label.text()
    assert "2 of 152 entries were needed" in notice
    assert all(f"<tt>{key}</tt>" in notice for key in NEEDED)
    assert "fails the same way here" in notice
    assert [e.key for e in reduced.context.state.store] == list(NEEDED)
    assert reduced.tabs.currentWidget() is reduced.views["run"]
    assert (long_session.parent / "long.reduced.json").exists()
    assert "RangeError" in panel.headline.text()


def test_reduce_uses_the_code_in_the_editor(qtbot, window, open_file, long_session):
    view = _at_b6(window, open_file, long_session)
    view.editor.set_code('const r = inputs.at("c5");\nreturn r.missing.deep;\n', "js")
    panel = view.reduce_body()
    with qtbot.waitSignal(panel.done, timeout=REDUCE_TIMEOUT_MS) as done:
        pass
    reduced = done.args[0]
    qtbot.addWidget(reduced)
    qtbot.waitUntil(lambda: reduced.context.session is not None, timeout=20_000)
    assert [e.key for e in reduced.context.session.state_at("b6").store] == ["c5"]
    assert reduced.context.session.body("b6").extra["editedCode"].startswith('const r = inputs.at("c5")')


def test_reduce_cancel_stops_the_runs_and_opens_nothing(qtbot, window, open_file, tmp_path):
    document = failing_document(150)
    document["bodies"][5]["code"] = "for (let i = 0; i < 4e7; i++) {}\n" + document["bodies"][5]["code"]
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(document))
    view = _at_b6(window, open_file, path)
    panel = view.reduce_body()
    qtbot.waitUntil(lambda: "runs" in panel.status.text(), timeout=REDUCE_TIMEOUT_MS)
    with qtbot.waitSignal(panel.done, timeout=5_000) as done:
        panel.cancel_button.click()
    assert done.args == [None]
    assert not panel.isVisible()
    qtbot.wait(500)
    assert not (tmp_path / "slow.reduced.json").exists()


def test_reduce_of_a_body_that_does_not_fail_says_so(qtbot, window, open_file, long_session):
    from wsi_inspector.gui.actions.deep_link import follow_link

    follow_link(window.context, window.services, "b7", "run")
    open_file(window, long_session)
    panel = window.views["run"].reduce_body()
    with qtbot.waitSignal(panel.done, timeout=REDUCE_TIMEOUT_MS) as done:
        pass
    assert done.args == [None]
    assert "Nothing to reduce" in panel.headline.text()
    assert not panel.bar.isVisible()  # no empty progress bar under it (seen in the issue 31 screenshots)
    panel.close()


def test_save_repro_writes_the_cut_with_the_edited_code_and_it_opens(qtbot, window, open_file, long_session, tmp_path):
    from wsi_inspector.gui.actions.save_repro import saver_for

    view = _at_b6(window, open_file, long_session)
    view.editor.set_code("return 42;\n", "js")
    saver = saver_for(window.context, window.services)
    out = tmp_path / "b6.repro.json"
    with qtbot.waitSignal(saver.saved, timeout=20_000):
        assert saver.save(out)
    written = load(out)
    assert not written.errors
    assert len(written.state_at("b6").store) == 150 and set(written.state_at("b6").kept) == {"spacing", "levels", "label"}
    body = written.body("b6")
    assert body.code == FAILING_BODY and body.extra["editedCode"] == "return 42;\n"
    assert body.result == {"ok": False, "error": "RangeError: band depth 30 is too thin for a zone 9000 wide"}
    assert "saved the repro of body b6" in window.status.currentMessage()
    open_file(window, out)
    assert window.context.session.title.endswith("(repro at body b6)")


def test_save_repro_never_overwrites_the_open_file(qtbot, window, open_file, long_session):
    from wsi_inspector.gui.actions.save_repro import saver_for

    _at_b6(window, open_file, long_session)
    before = long_session.read_bytes()
    saver = saver_for(window.context, window.services)
    with qtbot.waitSignal(saver.failed, timeout=5_000):
        assert not saver.save(long_session)
    assert long_session.read_bytes() == before
    assert "never written" in window.notice.label.text()


def test_the_reduce_button_and_save_repro_menu_are_there(window):
    assert window.views["run"].reduce_button.text() == "Reduce…"
    assert window.save_repro_action.text() == "Save Re&pro…"


def test_closing_the_reduce_panel_cancels_it(qtbot, window, open_file, long_session):
    view = _at_b6(window, open_file, long_session)
    panel = view.reduce_body()
    with qtbot.waitSignal(panel.done, timeout=5_000) as done:
        panel.close()
    assert done.args == [None] and panel.cancelled
    qtbot.wait(300)
    assert not (long_session.parent / "long.reduced.json").exists()


def test_reduce_at_the_end_of_the_session_asks_for_a_body(window, open_file, long_session):
    open_file(window, long_session)
    view = window.views["run"]
    assert view.reduce_body() is None
    assert "needs a body" in view.status_label.text()
