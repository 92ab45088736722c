"""Every Qt model passes pytest-qt's qtmodeltester on the demo session, then shows the right cells."""
import pytest
from PySide6.QtCore import Qt

from wsi_inspector.core.search.filtering import FilterSpec, ManifestIndex
from wsi_inspector.core.session.load import load
from wsi_inspector.gui.widgets.json_tree import JsonTreeModel
from wsi_inspector.core.session.timeline import timeline_rows
from wsi_inspector.gui.tabs.kept.models import KeptModel, RefusedModel
from wsi_inspector.gui.tabs.inputs.models import ManifestModel
from wsi_inspector.gui.tabs.problems.models import ProblemsModel
from wsi_inspector.gui.tabs.timeline.models import TimelineModel

pytestmark = pytest.mark.usefixtures("qapp")  # icons are pixmaps: they need the application


@pytest.fixture
def demo(demo_path):
    return load(demo_path)


def test_manifest_model_passes_the_model_tester_and_sorts_in_core(qtmodeltester, demo):
    model = ManifestModel()
    model.set_query(ManifestIndex(demo.entries), len(demo.entries), FilterSpec())
    qtmodeltester.check(model, force_py=True)
    model.sort(5, Qt.SortOrder.DescendingOrder)
    sizes = [demo.entries[i].input_bytes for i in model.rows]
    assert sizes == sorted(sizes, reverse=True)
    qtmodeltester.check(model, force_py=True)


def test_manifest_model_marks_the_persons_edit(demo):
    model = ManifestModel()
    model.set_query(ManifestIndex(demo.entries), len(demo.entries), FilterSpec(wanted="pack.corridorRuns.corridorRuns"))
    applied = [model.data(model.index(r, 3)) for r in range(model.rowCount())]
    ids = [model.data(model.index(r, 0)) for r in range(model.rowCount())]
    assert dict(zip(ids, applied))["e1"] == "✎"  # a mark; "person" is in its tooltip
    assert dict(zip(ids, applied))["c4"] == ""


def test_kept_and_refused_models_pass_the_model_tester(qtmodeltester, demo):
    state = demo.state_at(None)
    kept, refused = KeptModel(), RefusedModel()
    kept.set_state(state)
    refused.set_state(state)
    qtmodeltester.check(kept, force_py=True)
    qtmodeltester.check(refused, force_py=True)
    assert [r.name for r in kept.rows] == sorted(state.kept)
    assert [str(r.body) for r in refused.rows] == ["b5"]


def test_problems_model_passes_the_model_tester_errors_first(qtmodeltester, demo):
    from wsi_inspector.core.session.model import Problem
    from wsi_inspector.core.session.place import Place

    model = ProblemsModel()
    model.set_problems([Problem("warning", "/store/1", "w"), Problem("error", Place.spot(3, 4), "e")])
    qtmodeltester.check(model, force_py=True)
    assert model.data(model.index(0, 1)) == "3:4"


def test_timeline_model_passes_the_model_tester_with_calls_nested(qtmodeltester, demo):
    model = TimelineModel()
    model.set_session(demo)
    qtmodeltester.check(model, force_py=True)
    rows = timeline_rows(demo)
    assert rows[-1].kind == "end"
    bodies = [r for r in rows if r.kind == "body"]
    assert len(bodies) == len(demo.bodies)
    assert sum(len(r.children) for r in bodies) + sum(r.kind in ("entry", "edit") for r in rows) == len(demo.entries)
    first = model.index(0, 0)
    assert model.rowCount(first) == len(rows[0].children)
    assert model.parent(model.index(0, 0, first)) == first


def test_timeline_shows_each_body_outcome(demo):
    model = TimelineModel()
    model.set_session(demo)
    outcomes = {}
    from wsi_inspector.core.session.timeline import body_outcome
    for row in model.rows:
        if row.kind == "body":
            outcomes[row.item.key] = body_outcome(row.item, model.refused)
    assert outcomes["b1"] == "ok" and outcomes["b5"] == "refused" and outcomes["b7"] == "failed"


def test_json_tree_model_passes_the_model_tester_lazily(qtmodeltester):
    model = JsonTreeModel()
    model.set_value({"spine": [[i, i * 2] for i in range(1200)], "a~b/c": {"x": None}}, "input")
    root = model.root_index()
    assert model.rowCount(root) == 0 and model.canFetchMore(root)
    model.fetchMore(root)
    spine = model.index(0, 0, root)
    model.fetchMore(spine)
    assert model.rowCount(spine) == 500
    assert model.node(model.index(1, 0, root)).pointer == "/a~0b~1c"
    assert model.node(model.index(3, 0, spine)).pointer == "/spine/3"
    qtmodeltester.check(model, force_py=True)
