"""QuietLabel: a text change lays its parents out only when the text needs another size."""
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QVBoxLayout, QWidget

from wsi_inspector.gui.widgets.quiet_label import QuietLabel


def test_a_longer_text_gets_its_room_and_a_much_shorter_one_gives_it_back(qtbot):
    parent = QWidget()
    qtbot.addWidget(parent)
    layout = QHBoxLayout(parent)
    label = QuietLabel(parent)
    layout.addWidget(QLineEdit(parent), 1)
    layout.addWidget(label)
    label.setText("12 entries")
    parent.resize(700, 40)
    parent.show()
    qtbot.waitUntil(lambda: label.width() >= label.label.sizeHint().width())
    short = label.width()
    label.setText("12 of 100,000 entries at the end of the session")
    qtbot.waitUntil(lambda: label.width() >= label.label.sizeHint().width())
    assert label.width() > short and label.label.width() == label.width()
    label.setText("13 entries")
    qtbot.waitUntil(lambda: label.width() < 2 * short)
    assert label.text() == "13 entries"


def test_a_wrapped_label_grows_by_a_line_when_its_text_needs_one(qtbot):
    parent = QWidget()
    qtbot.addWidget(parent)
    layout = QVBoxLayout(parent)  # as the timeline's summary: above a view that takes the rest
    label = QuietLabel(parent, wrap=True)
    layout.addWidget(label)
    layout.addStretch(1)
    label.setText("one line")
    parent.resize(160, 200)
    parent.show()
    qtbot.waitUntil(lambda: label.height() == label.heightForWidth(label.width()))
    one_line = label.height()
    label.setText("2,000 bodies · 100,000 entries · 20,000 canvas edits, far more than one line holds")
    qtbot.waitUntil(lambda: label.height() > one_line)
    assert label.height() == label.heightForWidth(label.width())


def test_a_label_that_keeps_its_tallest_gives_no_line_back_until_its_width_changes(qtbot):
    # The Inputs entry's title: two lines for one entry, one for the next, and the tree under it moved on each.
    parent = QWidget()
    qtbot.addWidget(parent)
    layout = QVBoxLayout(parent)
    label = QuietLabel(parent, wrap=True)
    label.keep_tallest()
    below = QLineEdit(parent)
    layout.addWidget(label)
    layout.addWidget(below)
    layout.addStretch(1)
    label.setText("one line")
    parent.resize(160, 200)
    parent.show()
    qtbot.waitUntil(lambda: label.height() == label.label.heightForWidth(label.width()))
    one_line = label.height()
    label.setText("c21 pack.corridorRuns.score · mm · made by body b5, more than one line holds")
    qtbot.waitUntil(lambda: label.height() > one_line)
    tallest, below_at = label.height(), below.y()
    label.setText("one line")
    qtbot.wait(50)
    assert label.height() == tallest and below.y() == below_at  # the line kept: nothing under it moved
    parent.resize(1000, 200)  # another width: measured afresh, and one line is what this text needs there
    qtbot.waitUntil(lambda: label.height() == one_line)
