"""A screenshot waits for the views' background work (an edit's changes, a filter), so the picture shows answers,
not "Computing …"; it gives up at its limit and says so."""
import threading

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.window.app import settle


def test_settle_waits_for_a_view_s_job_and_its_answer(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    jobs = Jobs(QWidget(window))  # a view's jobs, somewhere under the window
    release, answers = threading.Event(), []
    jobs.start("changes", lambda job: release.wait(10) and "the changes", on_done=answers.append)
    QTimer.singleShot(50, release.set)  # the work ends while settle waits
    assert settle(window, limit_s=10)
    assert answers == ["the changes"]


def test_settle_gives_up_at_its_limit(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    jobs = Jobs(window)
    release = threading.Event()
    jobs.start("slow", lambda job: release.wait(10))
    try:
        assert not settle(window, limit_s=0.2)
        assert jobs.busy()
    finally:
        release.set()
