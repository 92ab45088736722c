"""One edit in full, headless (wsi_inspector.core.edits.edit_detail), and the edits diffed as another process does (wsi_inspector.core.edits.edits.diff_rows)."""
import json
import pickle

from wsi_inspector.core.edits.edit_detail import edit_detail
from wsi_inspector.core.edits.edits import diff_edit, diff_rows, edit_diff_of, pair_edits, portable_rows
from wsi_inspector.core.edits.provenance import Provenance
from wsi_inspector.core.session.load import load, load_bytes
from tests.conftest import DEMO

CALL = "pack.corridorRuns.corridorRuns"


def chain_session(steps, unit_of_edits="mm"):
    store = [{"id": "c0", "call": CALL, "unit": "mm", "body": "b1", "input": {"spine": [[0, 0], [1000, 0]], "d": 0}}]
    store += [{"id": f"e{k}", "call": CALL, "unit": unit_of_edits, "applied": True, "input": {"spine": [[0, 0], [1000, k]], "d": k}}
              for k in range(1, steps + 1)]
    document = {"format": "worker-session/1", "session": {"id": "chain"}, "store": store}
    return load_bytes(json.dumps(document).encode(), "chain.json")


def test_an_edit_of_an_edit_is_shown_against_the_model_call_and_as_its_own_step():
    session = chain_session(3)
    pairing = pair_edits(session)[-1]
    detail = edit_detail(Provenance(session), diff_edit(pairing))
    against, step = detail.comparisons
    assert (against.before.id, against.after.id) == ("c0", "e3") and (step.before.id, step.after.id) == ("e2", "e3")
    assert against.title.startswith("c0 → e3") and step.title.startswith("step 3 of 3: e2 → e3")
    assert {c["path"] for c in against.changes} == {"/spine/1", "/d"}  # a point changes as a whole
    assert against.before_written == {"/spine/1", "/d"} and against.before_changed == {"", "/spine", "/spine/1", "/d"}
    assert against.after_written == {"/spine/1", "/d"}
    assert [s.points for s in against.after_shapes] == [[(0, 0), (1000, 3)]]
    assert [(m.path, m.before, m.after) for m in against.marks] == [("/spine/1", (1000, 0), (1000, 3))]
    assert set(detail.origins) == {"c0", "e2", "e3"}
    assert detail.origins["e3"]["/d"].setter.id == "e3"  # the person's edit set it
    assert detail.origins["e3"]["/spine/0"].setter.id == "c0"  # the model's call set that one


def test_an_edit_in_another_unit_is_drawn_in_the_models_unit():
    session = chain_session(1, unit_of_edits="m")
    detail = edit_detail(Provenance(session), diff_edit(pair_edits(session)[0]))
    (comparison,) = detail.comparisons
    assert (comparison.unit, comparison.raw_unit) == ("mm", "m")
    assert [s.points for s in comparison.after_shapes] == [[(0, 0), (1_000_000, 1000)]]


def test_the_demos_edits_diffed_from_portable_rows_equal_diff_edit():
    for session in (load(DEMO), chain_session(50)):
        pairings = pair_edits(session)
        entries, rows = portable_rows(pairings)
        entries, rows = pickle.loads(pickle.dumps((entries, rows)))  # as they cross to the worker process
        batches = []
        assert diff_rows(entries, rows, batches.append, batch_s=0) == len(pairings)
        answers = pickle.loads(pickle.dumps([row for batch in batches for row in batch]))
        got = [edit_diff_of(pairing, answer) for pairing, answer in zip(pairings, answers)]
        want = [diff_edit(pairing) for pairing in pairings]
        assert [(d.changes, d.step.changes if d.step else None, d.unit_note) for d in got] == \
               [(d.changes, d.step.changes if d.step else None, d.unit_note) for d in want]
        assert all(g.step is None or (g.step.before is p.previous and g.step.after is p.edit) for g, p in zip(got, pairings))


def test_a_row_that_cannot_be_diffed_says_why_and_the_others_go_on():
    entries = [(1, None, False, b'{"input": {"a": 2}}', None), (2, None, True, b'{"input": ', None), (3, None, True, None, {"a": 3})]
    batches = []
    diff_rows(entries, [(0, 1, 0), (0, 2, 0)], batches.append)
    (bad, good), = batches
    assert bad[0] == 0 and bad[1] is None and "Error" in bad[3]
    assert good[0] == 1 and good[1] == [{"op": "replace", "path": "/a", "from": 2, "to": 3, "delta": 1}]
