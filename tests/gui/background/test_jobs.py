"""wsi_inspector.gui.background.jobs, the one background-work mechanism (issue 13 point 4): stale answers dropped, errors and
progress as signals, every job cancelled or awaited when the window closes — with real windows closed
in the middle of a load, an edits diff (in its worker process) and a replay (in V8)."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget

from wsi_inspector.core.edits.edits import diff_rows
from wsi_inspector.gui.background.jobs import Cancelled, Job, JobError, Jobs
from tests.conftest import DEMO

CALL = "pack.corridorRuns.corridorRuns"


def job_threads() -> list[threading.Thread]:
    """The jobs' threads still running (wsi_inspector.gui.background.jobs names them wsi-job-NAME)."""
    return [t for t in threading.enumerate() if t.name.startswith("wsi-job-") and t.is_alive()]


@pytest.fixture
def owner(qtbot):
    widget = QWidget()
    qtbot.addWidget(widget)
    jobs = Jobs(widget)
    yield jobs
    jobs.shutdown(10)


def slow(seconds: float, answer: object = "done"):
    def work(job: Job) -> object:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            job.check()
            time.sleep(0.01)
        return answer
    return work


def test_progress_reports_and_the_answer_arrive_on_the_gui_thread_in_order(qtbot, owner):
    seen: list[tuple[str, object, bool]] = []
    main = threading.main_thread()

    def note(kind):
        return lambda *value: seen.append((kind, value, threading.current_thread() is main))

    def work(job: Job) -> int:
        job.progress(50, "half")
        job.report([1, 2])
        return 3

    owner.start("w", work, on_done=note("done"), on_progress=note("progress"), on_report=note("report"))
    qtbot.waitUntil(lambda: any(kind == "done" for kind, _, _ in seen), timeout=5000)
    assert seen == [("progress", (50, "half"), True), ("report", ([1, 2],), True), ("done", (3,), True)]
    assert not owner.busy("w")


def test_an_error_arrives_as_the_exception_and_a_bug_is_logged(qtbot, owner, private_log):
    failures: list[BaseException] = []
    owner.start("w", lambda job: 1 / 0, on_failed=failures.append)
    qtbot.waitUntil(lambda: bool(failures), timeout=5000)
    assert isinstance(failures[0], ZeroDivisionError)
    assert "ZeroDivisionError" in private_log.read_text()
    owner.start("x", lambda job: (_ for _ in ()).throw(OSError("no room")), on_failed=failures.append, expected=(OSError,))
    qtbot.waitUntil(lambda: len(failures) == 2, timeout=5000)
    assert private_log.read_text().count("unexpected exception") == 1  # the person's OSError is not a bug


def test_a_newer_job_of_the_same_name_drops_the_older_ones_answer(qtbot, owner):
    answers: list[object] = []
    first = owner.start("w", slow(0.3, "old"), on_done=answers.append)
    second = owner.start("w", slow(0.05, "new"), on_done=answers.append)
    assert first.cancelled and not second.cancelled
    qtbot.waitUntil(lambda: not owner.busy(), timeout=5000)
    assert first.wait(5)
    qtbot.wait(50)
    assert answers == ["new"]


def test_cancel_all_drops_every_answer_and_runs_the_cancel_hooks(qtbot, owner):
    answers: list[object] = []
    hooked = threading.Event()

    def work(job: Job) -> str:
        job.on_cancel(hooked.set)
        return slow(5)(job)

    job = owner.start("w", work, on_done=answers.append, on_failed=answers.append)
    owner.cancel_all()
    assert hooked.wait(2) and job.wait(5)
    qtbot.wait(50)
    assert answers == [] and not owner.busy()


def test_shutdown_waits_for_every_thread(qtbot, owner):
    owner.start("a", slow(5))
    owner.start("b", slow(5))
    assert len(job_threads()) >= 2
    assert owner.shutdown(10)
    assert not owner.running() and not job_threads()


def test_a_job_whose_view_is_deleted_never_reaches_it(qtbot):
    widget = QWidget()
    jobs = Jobs(widget)
    reached: list[object] = []
    release = threading.Event()

    def work(job: Job) -> str:
        release.wait(5)
        job.report("late")
        return "late"

    job = jobs.start("w", work, on_done=reached.append, on_report=reached.append)
    widget.deleteLater()
    qtbot.waitUntil(lambda: job.cancelled, timeout=5000)  # the view's deletion cancelled its jobs
    release.set()
    assert job.wait(5)
    qtbot.wait(100)
    assert reached == []


def _diff_slowly(entries, rows, report):
    time.sleep(30)


def test_a_process_job_reports_and_answers_and_cancel_ends_its_process(qtbot, owner):
    from wsi_inspector.core.edits.edits import pair_edits, portable_rows
    from wsi_inspector.core.session.load import load

    entries, rows = portable_rows(pair_edits(load(DEMO)))
    batches: list[object] = []
    answers: list[object] = []
    owner.start("diff", lambda job: job.in_process(diff_rows, entries, rows, on_report=batches.append), on_done=answers.append)
    qtbot.waitUntil(lambda: bool(answers), timeout=30_000)
    assert answers == [len(rows)] and sum(len(b) for b in batches) == len(rows)  # type: ignore[arg-type]

    processes: list[object] = []
    failures: list[BaseException] = []

    def work(job: Job) -> object:
        job.on_cancel(lambda: processes.append("cancelled"))
        return job.in_process(_diff_slowly, entries, rows)

    job = owner.start("slow", work, on_failed=failures.append)
    qtbot.wait(500)
    owner.cancel("slow")
    assert job.wait(10), "a cancelled job's process is terminated, so its thread ends"
    assert processes == ["cancelled"] and failures == []


def test_an_error_in_the_process_arrives_as_a_job_error(qtbot, owner):
    failures: list[BaseException] = []
    owner.start("bad", lambda job: job.in_process(diff_rows, [], [(None, 5, None)]), on_failed=failures.append)
    qtbot.waitUntil(lambda: bool(failures), timeout=30_000)
    assert isinstance(failures[0], JobError) and "IndexError" in str(failures[0])


def test_check_raises_cancelled_once_cancelled(owner):
    job = owner.start("w", slow(5))
    job.cancel()
    with pytest.raises(Cancelled):
        job.check()
    assert job.wait(5)


# --- real windows closed in the middle of their work -------------------------------------------------

def chain(path: Path, steps: int) -> Path:
    store = [{"id": "c0", "call": CALL, "unit": "mm", "body": "b1", "input": {"spine": [[0, 0], [1000, 0]], "d": 0}}]
    store += [{"id": f"e{k}", "call": CALL, "unit": "mm", "applied": True, "input": {"spine": [[0, 0], [1000, k]], "d": k}}
              for k in range(1, steps + 1)]
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "chain"}, "store": store,
                                "bodies": [{"id": "b1", "code": "return 1;", "result": {"ok": True}}]}))
    return path


@pytest.fixture
def own_window(qtbot, settings):
    """A window this test closes and deletes itself (the shared fixture's teardown would touch it)."""
    from wsi_inspector.gui.window.main_window import MainWindow

    window = MainWindow(settings)
    window.show()
    return window


def closed_cleanly(qtbot, window, private_log) -> None:
    """Close the window: every job's thread has ended when close returns, and nothing arrives later."""
    window.close()
    assert job_threads() == [], "closeEvent cancels and awaits every job"
    window.deleteLater()
    qtbot.wait(200)  # a late answer would be delivered here, into deleted views
    assert not private_log.exists() or "unexpected exception" not in private_log.read_text()


def test_closing_the_window_in_the_middle_of_a_load(qtbot, own_window, tmp_path, private_log):
    window = own_window
    big = tmp_path / "big.json"
    store = [{"id": f"c{i}", "call": "pack.rooms.place", "input": {"points": list(range(200))}} for i in range(20_000)]
    big.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "big"}, "store": store}))
    loaded: list[object] = []
    window.loader.loaded.connect(loaded.append)
    window.open_file(big)
    qtbot.waitUntil(lambda: bool(job_threads()), timeout=5000)
    qtbot.wait(100)
    assert window.loader.busy
    closed_cleanly(qtbot, window, private_log)
    assert loaded == []


def test_closing_the_window_in_the_middle_of_an_edits_diff(qtbot, own_window, open_file, tmp_path, private_log):
    window = own_window
    open_file(window, chain(tmp_path / "chain.json", 20_000), timeout=60_000)
    edits = window.views["edits"]
    window.show_tab("edits")  # the diff starts when the tab is shown: 20,000 edits in a worker process
    qtbot.waitUntil(lambda: edits.edits_model.rowCount() == 20_000, timeout=60_000)
    assert not edits.ready and edits.jobs.busy("diff")
    closed_cleanly(qtbot, window, private_log)


def test_closing_the_window_in_the_middle_of_a_replay(qtbot, own_window, open_file, tmp_path, private_log):
    window = own_window
    document = json.loads(DEMO.read_text())
    document["bodies"][0]["code"] = "let x = 0; for (let i = 0; i < 1e10; i++) { x += i; } return x;"  # seconds in V8
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(document))
    open_file(window, path)
    window.show_tab("run")
    run = window.views["run"]
    run.timeout_box.setValue(600)  # were the body waited for, closing would outlast the 30 s it waits for a job
    run.replay_all()
    qtbot.waitUntil(lambda: bool(job_threads()), timeout=5000)
    qtbot.wait(500)  # the first body is running in its guest
    assert run.replaying and run.replay_page.model.rowCount() == 0
    closed_cleanly(qtbot, window, private_log)  # the body running was killed (its guest), not waited for


def test_the_forkserver_of_process_jobs_runs_below_the_window(qtbot, owner):
    import multiprocessing.forkserver
    import os

    from wsi_inspector.gui.background.worker_priority import WORKER_NICENESS

    entries = [(1, "mm", False, None, {"d": 0}), (2, "mm", True, None, {"d": 1})]
    answers: list[object] = []
    owner.start("diff", lambda job: job.in_process(diff_rows, entries, [(0, 1, 0)]), on_done=answers.append)
    qtbot.waitUntil(lambda: bool(answers), timeout=30_000)
    server = multiprocessing.forkserver._forkserver._forkserver_pid  # started by the first process job
    # It imports wsi_inspector.core.edits.edits (half a second of CPU) and forks every worker: none of it at the window's priority.
    assert os.getpriority(os.PRIO_PROCESS, server) - os.getpriority(os.PRIO_PROCESS, 0) == WORKER_NICENESS
