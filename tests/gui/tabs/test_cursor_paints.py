"""A cursor move repaints only what it changes (issue 28.3: every move under 16 ms on a million entries).

Counted, not timed: the paint events each widget gets for a move. Painting is most of a move's cost.
"""
from __future__ import annotations


def test_a_move_with_no_reads_known_repaints_no_json_tree_that_shows_the_same_entry(window, open_file, demo_path, qtbot, paints, settle):
    # The read marks told the Inputs tab "the reads changed" on every move, and its JSON tree repainted
    # whole (1.2–1.4 ms of each move), though no reads were known before or after and it showed the same input.
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    window.context.set_cursor("b3")
    view.show_entry(session.entry("c5"))
    settle(view, window)
    painted = paints(view.tree.viewport())
    for cursor in ("b4", "b6", "b8", None):  # forwards: every store holds c5, which stays shown
        window.context.set_cursor(cursor)
        qtbot.wait(20)
        assert view.shown_entry is session.entry("c5")
    assert view.read_marks.read == {}, "no replay ran: no reads are known"
    assert painted == []
