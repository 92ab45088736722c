"""Reduce uses the reads (issue 30): what the failing body never read goes first, all in one run."""
from __future__ import annotations

from wsi_inspector.core.reduce.ddmin import Stopped, reproduces_alone
from wsi_inspector.core.reduce.reduce import Reducer
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.session.load import load
from tests.helpers.reduce_sessions import NEEDED, failing_session


def reduced(path, runner, use_reads):
    reducer = Reducer(load(path), "b6", runner=runner, jobs=1)
    reducer.find_failure()
    if not use_reads:
        reducer.reads = None
    reduction = reducer.reduce()
    return reduction.runs, sorted(e.key for e in reduction.cut.received), reducer.reads


def test_the_unread_entries_go_first_and_the_reduction_takes_fewer_runs(tmp_path):
    path = failing_session(tmp_path / "s.json", 150, kept_needed=True)
    with Runner(size=1) as runner:
        with_reads, kept, reads = reduced(path, runner, use_reads=True)
        without, kept_without, _ = reduced(path, runner, use_reads=False)
    # b6 reads the two entries it needs, the newest pack.rooms entry (it logs it) and kept.spacing.
    assert {str(r["entry"]) for r in reads if r["entry"] is not None} >= set(NEEDED)
    assert any(r["what"] == "kept" and r["name"] == "spacing" for r in reads)
    assert kept == kept_without == sorted(NEEDED)
    assert with_reads < without


def test_a_guess_that_is_stopped_carries_the_whole_list():
    def stopped(_candidates):
        raise Stopped([])

    try:
        reproduces_alone([1], [1, 2, 3], stopped)
    except Stopped as stop:
        assert stop.best == [1, 2, 3]
    else:
        raise AssertionError("not stopped")
    assert reproduces_alone([1], [1, 2], lambda candidates: 0) is True
    assert reproduces_alone([1], [1, 2], lambda candidates: None) is False
