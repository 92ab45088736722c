"""Every item model in gui/ keeps Qt's model contract (issue 13, point 6), checked as qutebrowser does.

Each model is driven through the updates its view makes (a session opened, the cursor moved, sorted,
filtered, details arriving, back to nothing) with pytest-qt's `qtmodeltester` attached: Qt's own
QAbstractItemModelTester (its warnings fail the test: `qt_log_level_fail`) and pytest-qt's Python
port, which also checks the value types of each role. Each runs on the demo, on a session with no
entries, and on no session at all. Then the narrow change signals are asserted where a model emits
them: one row's dataChanged, rowsInserted, layoutChanged with persistent indexes moved, never a
reset in their place.
"""
from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from PySide6.QtCore import QAbstractItemModel, QPersistentModelIndex, Qt

import wsi_inspector.gui
from wsi_inspector.core.trim.changes import changes_between
from wsi_inspector.core.edits.edits import diff_edit, pair_edits
from wsi_inspector.core.search.filtering import FilterSpec, ManifestIndex
from wsi_inspector.core.edits.provenance import Provenance
from wsi_inspector.core.session.load import Session, load, load_bytes
from wsi_inspector.core.trim.preview import StoreIndex
from tests.conftest import BROKEN, DEMO

pytestmark = pytest.mark.usefixtures("qapp")  # icons and fonts need the application

EMPTY = json.dumps({"format": "worker-session/1", "session": {"id": "empty"}, "store": []}).encode()
DESCENDING = Qt.SortOrder.DescendingOrder
ASCENDING = Qt.SortOrder.AscendingOrder

Driver = Callable[[Session | None], Iterator[QAbstractItemModel]]
DRIVERS: dict[str, Driver] = {}


def driver(name: str) -> Callable[[Driver], Driver]:
    """Register a driver: it yields the model (empty, as its view builds it), then makes its view's updates."""
    def register(function: Driver) -> Driver:
        DRIVERS[name] = function
        return function
    return register


def bodies(session: Session | None) -> list[Any]:
    """Every cursor position of a session: each body, then the end (None)."""
    return ([b.id for b in session.bodies] if session is not None else []) + [None]


@driver("ManifestModel")
def _manifest(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.inputs.models import ManifestModel, trim_preview_of

    model = ManifestModel()
    yield model
    index = ManifestIndex(session.entries if session is not None else [])
    count = len(index.entries)
    model.set_query(index, count, FilterSpec())
    model.set_trim(trim_preview_of(index, count), session.caps.store_bytes if session is not None else None)
    model.set_highlighted(count - 1 if count else None)
    model.set_highlighted(0 if count else None)
    model.sort(5, DESCENDING)
    model.sort(0, ASCENDING)
    model.sort(-1, ASCENDING)
    model.set_query(index, count // 2, FilterSpec(text="pack"))
    model.set_query(index, count, FilterSpec(text="pack"))  # more of the same query: rows inserted
    model.set_query(index, count // 3, FilterSpec(descending=True))
    model.set_query(index, count, FilterSpec(descending=True))  # inserted at the start
    model.set_query(index, count // 4, FilterSpec(descending=True))  # a cursor moved back: removed from the start
    model.set_query(index, count // 2, FilterSpec(text="pack"))
    model.set_query(index, count // 5, FilterSpec(text="pack"))  # removed from the end
    model.set_trim(None, None)
    model.set_query(ManifestIndex([]), 0, FilterSpec())


@driver("KeptModel")
def _kept(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.window.context import empty_state
    from wsi_inspector.gui.tabs.kept.models import KeptModel

    model = KeptModel()
    yield model
    for cursor in bodies(session):
        model.set_state(session.state_at(cursor) if session is not None else empty_state())
    model.set_state(empty_state())


@driver("RefusedModel")
def _refused(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.window.context import empty_state
    from wsi_inspector.gui.tabs.kept.models import RefusedModel

    model = RefusedModel()
    yield model
    for cursor in bodies(session):
        model.set_state(session.state_at(cursor) if session is not None else empty_state())
    model.set_state(empty_state())


@driver("ProblemsModel")
def _problems(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.problems.models import ProblemsModel

    model = ProblemsModel()
    yield model
    model.set_problems(session.problems if session is not None else [])
    model.set_problems(load(BROKEN / "duplicate_id.json").problems)  # a session with errors and warnings
    model.set_problems([])


@driver("TimelineModel")
def _timeline(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.timeline.models import TimelineModel

    model = TimelineModel()
    yield model
    model.set_session(session)
    for cursor in bodies(session):
        model.set_cursor(cursor)
    model.set_badges({str(b): "same" for b in bodies(session) if b is not None})
    model.set_badges({})
    yield from _timeline_growing(model)


@driver("BodyChoices")
def _body_choices(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.widgets.body_choices import BodyChoices

    model = BodyChoices(lambda body: f"body {body.id}", before=[("(new body)", None)], after=[("the end", "__end__")])
    yield model
    model.set_session(session)
    for cursor in bodies(session):
        model.relabel(cursor)
    model.relabel("__end__")
    model.set_session(None)
    model.set_session(session)
    yield from _body_choices_growing(model)


def _growing_lines() -> list[bytes]:
    """A JSON Lines session written line by line: calls nested and lone, edits, a kept snapshot, bodies."""
    records: list[dict[str, Any]] = [{"format": "worker-session/1", "session": {"id": "live"}}]
    for n in range(1, 5):
        records.append({"kind": "entry", "id": f"lone{n}", "call": "a.b.c", "input": n, "applied": n % 2 == 0})
        records.append({"kind": "body", "id": f"b{n}", "code": "return 1"})
        records += [{"kind": "entry", "id": f"c{n}.{k}", "call": "a.b.c", "input": k, "body": f"b{n}"} for k in range(3)]
        records.append({"kind": "kept", "kept": {"n": n}})
    return [json.dumps(r).encode() + b"\n" for r in records]


def _grown(model: Any, steps: tuple[int, ...], take: Any) -> Iterator[None]:
    """The model through a followed file's appends, `steps` lines at a time, each handed on by `take(live, appended)`."""
    from wsi_inspector.core.session.growing import Growth

    lines = _growing_lines()
    text = b"".join(lines[:3])
    live = load_bytes(text, "live.jsonl")
    model.set_session(live)
    growth = Growth(live, text)
    for step in steps:
        added, lines = b"".join(lines[3:3 + step]), lines[:3] + lines[3 + step:]
        text += added
        appended = growth.feed(text[growth.offset:])
        assert appended is not None
        take(live, appended)
        yield
    model.set_session(None)


def _body_choices_growing(model: Any) -> Iterator[None]:
    """The chooser through a followed file's appends: the new bodies inserted before the fixed rows after them."""
    yield from _grown(model, (1, 3, 3, 1, 3), lambda _live, _appended: model.grow())


def _timeline_growing(model: Any) -> Iterator[None]:
    """The model through a followed file's appends, one line and three lines at a time."""
    def take(live: Any, appended: Any) -> None:
        model.extend(live, appended.rows)
        model.set_cursor(None)

    yield from _grown(model, (1, 3, 1, 1, 3, 1, 3, 3, 1), take)


@driver("JsonTreeModel")
def _json_tree(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.widgets.json_tree import JsonTreeModel

    model = JsonTreeModel()
    yield model
    for entry in session.entries if session is not None else []:
        model.set_value(entry.input, f"{entry.id} input")
    model.set_annotations("set by", lambda pointer, value: pointer or None, lambda pointer, value: pointer, None)
    model.set_value(list(range(2500)), "long")  # more than a batch: rows arrive by fetchMore
    while model.canFetchMore(model.root_index()):  # as a view fetches when the node is expanded and scrolled
        model.fetchMore(model.root_index())
    model.set_value(session.state_at(None).kept if session is not None else None, "kept", session is not None)
    model.set_annotations()
    model.set_value(None, present=False)


@driver("TrimModel")
def _trim(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.trim.view import TrimModel

    model = TrimModel()
    yield model
    index = StoreIndex(session.entries if session is not None else [])
    for cursor in bodies(session):
        store = session.state_at(cursor).store if session is not None else []
        preview = index.preview_of(store)
        model.set_preview(preview, preview.fell_at(session.caps.store_bytes or 0) if session is not None else 0)
    preview = index.preview()
    for cap in (1, 2048, 4096, 1 << 40):
        model.set_fell(preview.fell_at(cap), range(0, preview.fell_at(cap) // 2), range(0, 10))
        model.set_fell(preview.fell_at(cap))
    model.set_preview(StoreIndex([]).preview(), 0)


@driver("EditsModel")
def _edits(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.core.edits.edit_detail import edit_detail
    from wsi_inspector.gui.tabs.edits.models import EditsModel

    model = EditsModel()
    yield model
    pairings = pair_edits(session) if session is not None else []
    model.set_pairings(pairings)
    diffs = {row: diff_edit(pairing) for row, pairing in enumerate(pairings)}
    model.add_diffs(diffs)  # the diff job's batch
    provenance = Provenance(session) if session is not None else None
    for row, edit_diff in diffs.items():  # as each detail job reports
        model.set_detail(row, edit_detail(provenance, edit_diff))  # type: ignore[arg-type]
    if pairings:
        model.set_detail(0, None, "ValueError: a failed comparison")
    model.set_pairings([])


@driver("ChangesModel")
def _changes(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.core.edits.edit_detail import edit_detail
    from wsi_inspector.gui.tabs.edits.models import ChangesModel

    model = ChangesModel()
    yield model
    provenance = Provenance(session) if session is not None else None
    for pairing in pair_edits(session) if session is not None else []:
        for comparison in edit_detail(provenance, diff_edit(pairing)).comparisons:  # type: ignore[arg-type]
            for text in ("", "x", "no such text"):
                model.set_changes(comparison.changes, pairing.edit.unit, text)
            model.set_changes(comparison.changes, "mm", "")
    model.set_changes([], None)


@driver("StoreChangesModel")
def _store_changes(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.changes.view import StoreChangesModel

    model = StoreChangesModel()
    yield model
    _each_change(session, model.set_document)


@driver("KeptChangesModel")
def _kept_changes(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.changes.view import KeptChangesModel

    model = KeptChangesModel()
    yield model
    _each_change(session, model.set_document)


def _each_change(session: Session | None, show: Callable[[dict[str, Any] | None], None]) -> None:
    """Show what changed between each pair of neighbouring points, forwards and back, then nothing."""
    points = bodies(session)
    for start, stop in zip(points, points[1:]):
        show(changes_between(session, start, stop))  # type: ignore[arg-type]
        show(changes_between(session, stop, start))  # type: ignore[arg-type]
    show(None)


@pytest.fixture(scope="module")
def corpus_reports() -> list[dict[str, Any]]:
    """Real `wsi check` reports: the demo (replayed in V8) and every broken session."""
    from wsi_inspector.core.check.check import CheckOptions, check_file
    from wsi_inspector.core.runner.host import Runner

    with Runner(size=1) as runner:
        return [check_file(path, runner, CheckOptions(timeout_s=5)) for path in [DEMO, *sorted(BROKEN.iterdir())]]


@driver("CorpusModel")
def _corpus(session: Session | None, reports: Sequence[dict[str, Any]] = ()) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.corpus.view import CorpusModel

    model = CorpusModel(DEMO.parent)
    yield model
    model.sort(1, DESCENDING)
    for report in reports:  # as the workers report: each lands in its sorted place
        model.add(report)
    for column in range(model.columnCount()):
        model.sort(column, ASCENDING)
        model.sort(column, DESCENDING)
    for text in ("broken", "fails", "errors>0", "bad where ==", ""):
        model.set_filter(text)


@pytest.fixture(scope="module")
def replayed() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(verdict, result) of every body of the demo replayed in V8, one recorded output changed so one body diverges."""
    from wsi_inspector.core.runner.host import Runner
    from wsi_inspector.core.runner.replay import replay_session

    document = json.loads(DEMO.read_text())
    next(e for e in document["store"] if e["id"] == "c23")["output"]["level"] = 99
    session = load_bytes(json.dumps(document).encode(), "tampered.json")
    seen: list[tuple[dict[str, Any], dict[str, Any]]] = []
    with Runner(size=1) as runner:
        replay_session(session, runner, {"timeout_s": 5}, on_body=lambda verdict, result: seen.append((verdict, dict(result))))
    return seen


@driver("CallsModel")
def _calls(session: Session | None, replays: Sequence[tuple[dict[str, Any], dict[str, Any]]] = ()) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.run.models import CallsModel

    model = CallsModel()
    yield model
    for _verdict, result in replays:  # as each run's result is shown
        model.set_calls(result.get("calls", []))
    model.set_calls([{"id": "x1", "call": "mep.risers.risers", "line": 2, "error": "TypeError: no level"}])  # a failed call
    model.set_calls([])


@driver("ReplayModel")
def _replay(session: Session | None, replays: Sequence[tuple[dict[str, Any], dict[str, Any]]] = ()) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.core.runner.replay import replay_badge
    from wsi_inspector.gui.tabs.run.models import ReplayModel

    model = ReplayModel()
    yield model
    for verdict, result in replays:  # as each body's verdict arrives
        model.add(verdict, replay_badge(verdict, result))
    model.clear()
    for verdict, result in replays:  # a second replay
        model.add(verdict, replay_badge(verdict, result))
    model.clear()


@driver("ReadsModel")
def _reads(session: Session | None, replays: Sequence[tuple[dict[str, Any], dict[str, Any]]] = ()) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.run.reads_panel import ReadsModel

    model = ReadsModel()
    yield model
    for _verdict, result in replays:  # each replayed body's reads (SPEC 7), as the Run tab's Reads page shows them
        model.set_reads(result.get("reads") or [])
    model.set_reads([{"what": "kept", "arg": None, "entry": None, "name": "spine", "paths": [""], "line": 3, "column": 9}])
    model.set_reads([])


def _compare_documents(session: Session | None) -> list[dict[str, Any]]:
    """`wsi compare` documents: the session with itself, and with each demo pair (a gap, a divergence …)."""
    from wsi_inspector.core.edits.compare import compare_sessions
    from tests.helpers.compare_pairs import VARIANTS, variant

    if session is None:
        return []
    documents = [compare_sessions(session, session)]
    if session.name == DEMO.name:
        documents += [compare_sessions(session, load_bytes(json.dumps(variant(name)).encode(), f"{name}.json"))
                      for name in VARIANTS]
    return documents


@driver("StepsModel")
def _compare_steps(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.compare.models import StepsModel

    model = StepsModel()
    yield model
    for document in _compare_documents(session):  # as each comparison lands
        model.set_document(document)
    model.set_document(None)


@driver("CompareCallsModel")
def _compare_calls(session: Session | None) -> Iterator[QAbstractItemModel]:
    from wsi_inspector.gui.tabs.compare.models import CompareCallsModel

    model = CompareCallsModel()
    yield model
    for document in _compare_documents(session):  # as the cursor moves over every step
        for step in document["steps"]:
            model.set_step(step)
    model.set_step(None)


def gui_models() -> set[str]:
    """The name of every QAbstractItemModel subclass defined in a module of gui/ or its packages."""
    names = set()
    for info in pkgutil.walk_packages(wsi_inspector.gui.__path__, "wsi_inspector.gui."):  # wsi_inspector.gui.models is a package
        module = importlib.import_module(info.name)
        for name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, QAbstractItemModel) and value.__module__ == module.__name__:
                names.add(name)
    return names


ABSTRACT = {"RowsModel"}  # a base class: its subclasses are driven
REAL_RUNS = {"CorpusModel": "corpus_reports", "CallsModel": "replayed", "ReplayModel": "replayed", "ReadsModel": "replayed"}  # driver → its fixture


def test_every_model_in_gui_is_driven_here():
    assert gui_models() - ABSTRACT == set(DRIVERS), "a model in gui/ needs a driver in this file (or is gone)"


def open_session(kind: str) -> Session | None:
    return {"demo": lambda: load(DEMO), "empty": lambda: load_bytes(EMPTY, "empty.json"), "none": lambda: None}[kind]()


@pytest.mark.parametrize("tester", ["qt", "python"])
@pytest.mark.parametrize("kind", ["demo", "empty", "none"])
@pytest.mark.parametrize("name", sorted(DRIVERS))
def test_model_passes_the_model_tester(qtmodeltester, request, name, kind, tester):
    session = open_session(kind)
    if name in REAL_RUNS:  # fed with what real runs in V8 answered
        steps = DRIVERS[name](session, request.getfixturevalue(REAL_RUNS[name]) if kind == "demo" else [])  # type: ignore[call-arg]
    else:
        steps = DRIVERS[name](session)
    model = next(steps)
    qtmodeltester.check(model, force_py=tester == "python")  # the tester re-checks on every signal from here
    for _ in steps:
        pass
    qtmodeltester.check(model, force_py=tester == "python")  # and once more on what is left at the end


# --- the narrow change signals ----------------------------------------------------------------------

class Signals:
    """Records what a model announced: (signal name, arguments) in order."""

    NAMES = ("dataChanged", "rowsInserted", "rowsRemoved", "layoutChanged", "modelReset")

    def __init__(self, model: QAbstractItemModel):
        self.seen: list[tuple[str, tuple[Any, ...]]] = []
        for name in self.NAMES:
            getattr(model, name).connect(lambda *args, name=name: self.seen.append((name, args)))

    def names(self) -> list[str]:
        return [name for name, _ in self.seen]

    def rows_changed(self) -> list[tuple[int, int]]:
        """The (first, last) rows of each dataChanged."""
        return [(args[0].row(), args[1].row()) for name, args in self.seen if name == "dataChanged"]

    def clear(self) -> None:
        self.seen.clear()


@pytest.fixture
def demo() -> Session:
    return load(DEMO)


def test_moving_the_timeline_cursor_repaints_two_rows_not_the_model(demo):
    from wsi_inspector.gui.tabs.timeline.models import TimelineModel

    model = TimelineModel()
    model.set_session(demo)
    first, second = demo.bodies[0], demo.bodies[1]
    model.set_cursor(first.id)
    signals = Signals(model)
    model.set_cursor(second.id)
    assert signals.names() == ["dataChanged", "dataChanged"]
    assert sorted(signals.rows_changed()) == sorted([(model.row_for_cursor(first.id),) * 2, (model.row_for_cursor(second.id),) * 2])
    signals.clear()
    model.set_badges({first.key: "same"})
    assert signals.names() == ["dataChanged"]
    (_, (top_left, bottom_right, *_)), = signals.seen
    # the replay column and the status mark beside the title (a ✓ turns grey when its replay does not come out the same)
    assert (top_left.column(), bottom_right.column()) == (0, 1)


def test_lines_appended_to_a_followed_file_are_inserted_rows_not_a_reset():
    from wsi_inspector.core.session.growing import Growth
    from wsi_inspector.gui.tabs.timeline.models import TimelineModel

    lines = _growing_lines()
    text = b"".join(lines[:3])  # header, lone1, b1
    live = load_bytes(text, "live.jsonl")
    model = TimelineModel()
    model.set_session(live)
    growth = Growth(live, text)
    signals = Signals(model)
    text += b"".join(lines[3:7])  # b1's three calls, a kept snapshot
    model.extend(live, growth.feed(text[growth.offset:]).rows)
    assert signals.names() == ["rowsInserted", "rowsInserted"]
    (_, (parent, first, last)), (_, (top, start, end)) = signals.seen
    assert (parent.row(), first, last) == (1, 0, 2) and (top.isValid(), start, end) == (False, 2, 2)
    signals.clear()
    text += b"".join(lines[7:9])  # lone2, b2: the rows waiting for a next body now lead to b2
    model.extend(live, growth.feed(text[growth.offset:]).rows)
    assert signals.names() == ["rowsInserted", "dataChanged", "dataChanged"]
    assert sorted(signals.rows_changed()) == [(1, 1), (2, 2)]  # b1's calls and the kept row: their cursor is b2


def test_the_resolver_highlight_repaints_the_old_and_new_rows_only(demo):
    from wsi_inspector.gui.tabs.inputs.models import ManifestModel

    model = ManifestModel()
    model.set_query(ManifestIndex(demo.entries), len(demo.entries), FilterSpec())
    model.set_highlighted(3)
    signals = Signals(model)
    model.set_highlighted(7)
    assert signals.names() == ["dataChanged", "dataChanged"]
    assert sorted(signals.rows_changed()) == [(3, 3), (7, 7)]


MANIFEST_QUERIES = (FilterSpec(), FilterSpec(descending=True), FilterSpec(wanted="pack.corridorRuns"),
                    FilterSpec(wanted="pack.corridorRuns", descending=True), FilterSpec(text="spine", descending=True))


@pytest.mark.parametrize("spec", MANIFEST_QUERIES, ids=repr)
def test_a_cursor_move_inserts_or_removes_manifest_rows_and_never_resets(demo, spec):
    from wsi_inspector.gui.tabs.inputs.models import ManifestModel

    index, whole = ManifestIndex(demo.entries), len(demo.entries)
    model = ManifestModel()
    model.set_query(index, whole // 2, spec)
    before = len(index.rows(spec, whole // 2))
    signals = Signals(model)
    model.set_query(index, whole, spec)  # the cursor moves on: the newer entries' rows arrive
    after = index.rows(spec, whole)
    assert list(model.rows) == after and len(after) > before
    added = (0, len(after) - before - 1) if spec.descending else (before, len(after) - 1)
    assert signals.names() == ["rowsInserted"] and signals.seen[0][1][1:] == added
    signals.clear()
    model.set_query(index, whole // 3, spec)  # and back: the rows past the cursor leave
    kept = index.rows(spec, whole // 3)
    assert list(model.rows) == kept and len(kept) < len(after)
    removed = (0, len(after) - len(kept) - 1) if spec.descending else (len(kept), len(after) - 1)
    assert signals.names() == ["rowsRemoved"] and signals.seen[0][1][1:] == removed
    signals.clear()
    model.set_query(index, whole // 3, spec)  # the same query again (a refresh with nothing new): nothing to say
    assert signals.names() == []


@pytest.mark.parametrize("spec", [*MANIFEST_QUERIES, FilterSpec(sort_column="bytes", descending=True),
                                  FilterSpec(wanted="pack.rooms", sort_column="id")], ids=repr)
def test_the_manifest_finds_each_entrys_row_and_the_newest_entry_shown(demo, spec):
    from wsi_inspector.gui.tabs.inputs.models import ManifestModel

    index, count = ManifestIndex(demo.entries), len(demo.entries) - 3
    model = ManifestModel()
    model.set_query(index, count, spec)
    shown = index.rows(spec, count)
    assert [model.row_of(position) for position in shown] == list(range(len(shown)))
    assert all(model.row_of(position) is None for position in range(len(demo.entries)) if position not in shown)
    assert model.newest_position() == max(shown)


def test_sorting_the_manifest_is_a_layout_change_that_keeps_the_selected_entry(demo):
    from wsi_inspector.gui.tabs.inputs.models import ManifestModel

    model = ManifestModel()
    model.set_query(ManifestIndex(demo.entries), len(demo.entries), FilterSpec())
    chosen = QPersistentModelIndex(model.index(4, 1))
    entry = model.entry_at_row(4)
    signals = Signals(model)
    model.sort(5, DESCENDING)
    assert signals.names() == ["layoutChanged"]
    assert chosen.isValid() and chosen.column() == 1 and model.entry_at_row(chosen.row()) is entry
    assert chosen.row() != 4 or model.rows[4] == 4  # it moved with its entry (or its entry stayed put)


def test_a_cap_move_repaints_the_rows_whose_fate_changed_and_on_screen_only(demo):
    from wsi_inspector.gui.tabs.trim.view import TrimModel

    model = TrimModel()
    preview = StoreIndex(demo.entries).preview()
    model.set_preview(preview, 0)
    signals = Signals(model)
    model.set_fell(10)
    assert signals.names() == ["dataChanged"] and signals.rows_changed() == [(0, 9)]
    signals.clear()
    model.set_fell(30, shown=range(20, 25))  # rows 10…29 changed; 20…24 are on screen
    assert signals.rows_changed() == [(20, 24)]
    signals.clear()
    model.set_fell(30, shown=range(0, 5))  # nothing changed
    assert signals.seen == []


def test_an_edit_diff_arriving_repaints_its_row(demo):
    from wsi_inspector.core.edits.edit_detail import edit_detail
    from wsi_inspector.gui.tabs.edits.models import EditsModel

    model = EditsModel()
    pairings = pair_edits(demo)
    assert len(pairings) >= 2
    model.set_pairings(pairings)
    signals = Signals(model)
    diffs = {row: diff_edit(pairing) for row, pairing in enumerate(pairings)}
    assert model.data(model.index(1, 2)) == "…"
    model.add_diffs(diffs)  # a batch of diffs: one dataChanged over its rows, the changes column only
    assert model.data(model.index(1, 2)) == f"{len(diffs[1].changes):,}"
    assert signals.names() == ["dataChanged"] and signals.rows_changed() == [(0, len(pairings) - 1)]
    assert [(args[0].column(), args[1].column()) for _, args in signals.seen] == [(2, 2)]
    signals.clear()
    model.set_detail(1, edit_detail(Provenance(demo), diffs[1]))
    assert signals.names() == ["dataChanged"] and signals.rows_changed() == [(1, 1)]
    (_, (top_left, bottom_right, *_)), = signals.seen
    assert (top_left.column(), bottom_right.column()) == (0, model.columnCount() - 1)
    assert model.details[1].edit_diff is diffs[1]


def test_a_corpus_report_arriving_is_one_inserted_row_in_its_sorted_place(corpus_reports):
    from wsi_inspector.gui.tabs.corpus.view import CorpusModel

    model = CorpusModel(DEMO.parent)
    model.sort(0, ASCENDING)
    signals = Signals(model)
    for report in corpus_reports:
        model.add(report)
    assert set(signals.names()) == {"rowsInserted"} and len(signals.seen) == len(corpus_reports)
    paths = [model.report(row)["path"].lower() for row in range(model.rowCount())]
    assert paths == sorted(paths)
    first, last = signals.seen[-1][1][1:3]
    assert first == last  # one row at a time


def test_opening_a_long_array_inserts_its_rows_a_batch_at_a_time():
    from wsi_inspector.gui.widgets.json_tree import JsonTreeModel

    model = JsonTreeModel()
    model.set_value(list(range(2500)), "long")
    root = model.root_index()
    signals = Signals(model)
    while model.canFetchMore(root):
        model.fetchMore(root)
    inserted = [args[1:3] for name, args in signals.seen if name == "rowsInserted"]
    assert set(signals.names()) == {"rowsInserted"} and len(inserted) >= 2
    assert inserted[0][0] == 0 and inserted[-1][1] == 2499
    assert all(later[0] == earlier[1] + 1 for earlier, later in zip(inserted, inserted[1:]))
    assert model.rowCount(root) == 2500


# --- every model of the window, as its views drive it ------------------------------------------------

def test_every_model_in_the_window_keeps_the_contract_while_the_window_is_used(qtbot, window, open_file, tmp_path):
    """Qt's tester (what `qtmodeltester.check` runs) on every gui model the window holds, through a session's life."""
    from PySide6.QtTest import QAbstractItemModelTester

    from wsi_inspector.gui.window.main_window import TABS

    testers: dict[int, QAbstractItemModelTester] = {}

    def attach() -> None:  # models a view makes later get a tester too
        for model in window.findChildren(QAbstractItemModel):
            if type(model).__module__.startswith("wsi_inspector.gui.") and id(model) not in testers:
                testers[id(model)] = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)

    attach()
    session = open_file(window, DEMO)
    for name, _title, _spec in TABS:
        window.show_tab(name)
        qtbot.wait(20)
    attach()
    window.show_tab("edits")
    edits = window.views["edits"]
    qtbot.waitUntil(lambda: edits.ready, timeout=20_000)
    for row in range(edits.edits_model.rowCount()):
        edits.edits_table.selectRow(row)
    for body in session.bodies:
        window.context.set_cursor(body.id)
    for entry in session.entries[:: max(1, len(session.entries) // 8)]:
        window.context.choose_entry(entry)
    window.show_tab("inputs")
    window.views["inputs"].table.sortByColumn(5, DESCENDING)
    window.context.set_badges({session.bodies[0].key: "same"})
    attach()
    assert {type(m).__name__ for m in window.findChildren(QAbstractItemModel) if id(m) in testers} >= {
        "ManifestModel", "KeptModel", "RefusedModel", "ProblemsModel", "TimelineModel", "JsonTreeModel", "TrimModel",
        "EditsModel", "ChangesModel", "StoreChangesModel", "KeptChangesModel", "CallsModel", "ReplayModel"}
    empty = tmp_path / "empty.json"
    empty.write_bytes(EMPTY)
    open_file(window, empty)
    for name, _title, _spec in TABS:
        window.show_tab(name)
        qtbot.wait(20)
    window.context.set_session(None)
    qtbot.wait(50)


def test_a_replay_verdict_arriving_is_one_inserted_row_at_the_end(replayed):
    from wsi_inspector.core.runner.replay import replay_badge
    from wsi_inspector.gui.tabs.run.models import ReplayModel

    model = ReplayModel()
    signals = Signals(model)
    for verdict, result in replayed:
        model.add(verdict, replay_badge(verdict, result))
    assert set(signals.names()) == {"rowsInserted"} and len(signals.seen) == len(replayed)
    assert [args[1:3] for _, args in signals.seen] == [(row, row) for row in range(len(replayed))]
    badges = [model.data(model.index(row, 1)) for row in range(model.rowCount())]
    assert badges.count("diverged") == 1 and badges.count("same") + badges.count("same ✗") == len(replayed) - 1


def test_a_cursor_move_repaints_only_the_manifest_rows_whose_fate_at_the_cap_changed(demo):
    # Issue 18, point 4: a cursor move on a million entries repainted every row with a dataChanged
    # over the whole table, even where nothing fell at the cap either side of the move.
    from wsi_inspector.gui.tabs.inputs.models import ManifestModel

    index, whole = ManifestIndex(demo.entries), len(demo.entries)
    store = StoreIndex(demo.entries)
    cap = store.preview(whole).total_bytes // 2
    for spec in (FilterSpec(), FilterSpec(descending=True)):
        model = ManifestModel()
        model.set_query(index, whole, spec)
        model.set_trim(store.preview(whole), cap)
        before = model.fell
        signals = Signals(model)
        model.set_trim(store.preview(whole - 4), cap)  # the cursor moved back four entries: fewer fall
        assert 0 < model.fell < before
        changed = sorted(model.row_of(position) for position in range(model.fell, before))
        assert signals.rows_changed() == [(changed[0], changed[-1])]
        signals.clear()
        model.set_trim(store.preview(whole - 4), cap)  # the same entries fall: nothing to repaint
        assert signals.seen == []
        fell = model.fell
        model.set_trim(None, None)  # no cap: the rows that fell come back, the others stay as they were
        rows = sorted(model.row_of(position) for position in range(fell))
        assert signals.rows_changed() == [(rows[0], rows[-1])]


def test_the_manifest_formats_a_row_once_however_often_it_is_painted(demo, monkeypatch):
    # Each paint asks every visible cell for seven roles; formatting sizes and shapes on every ask was
    # most of a cursor move's repaint on a million entries.
    import wsi_inspector.gui.tabs.inputs.models as manifest

    formatted = []
    monkeypatch.setattr(manifest, "format_size", lambda n: formatted.append(n) or f"{n} B")
    model = manifest.ManifestModel()
    model.set_query(ManifestIndex(demo.entries), len(demo.entries), FilterSpec())
    for _paint in range(3):
        for row in range(5):
            for column in range(model.columnCount()):
                for role in range(12):
                    model.data(model.index(row, column), role)
    assert len(formatted) == 5


def test_the_timeline_titles_a_body_once_however_often_it_is_painted(demo, monkeypatch):
    # A body's title reads the first line of its code: on every paint of every row it split the code in lines.
    import wsi_inspector.gui.tabs.timeline.models as timeline

    read = []
    monkeypatch.setattr(timeline, "first_code_line", lambda code: read.append(code) or "first line")
    model = timeline.TimelineModel()
    model.set_session(demo)
    rows = [model.index(row, 0) for row in range(model.rowCount()) if model.rows[row].kind == "body"]
    for _paint in range(3):
        for index in rows:
            for role in range(12):
                model.data(index, role)
    assert len(read) == len(rows) and model.data(rows[0]).endswith("first line")


def delegate_sees_what_data_answers(model: QAbstractItemModel, cells: list) -> set[str]:
    """Check that the delegate's look of each cell (in turn: its one request is handed from cell to
    cell) is what data() answers; returns which kinds of cell were met (coloured, plain, with an icon)."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTreeView

    view = QTreeView()
    view.setModel(model)
    delegate = QStyledItemDelegate()
    met = set()
    for cell in cells:
        option = QStyleOptionViewItem()
        option.initFrom(view)
        delegate.initStyleOption(option, cell)
        assert option.text == (model.data(cell, Qt.ItemDataRole.DisplayRole) or "")
        font = model.data(cell, Qt.ItemDataRole.FontRole)
        assert option.font == (font if isinstance(font, QFont) else view.font())
        background = model.data(cell, Qt.ItemDataRole.BackgroundRole)
        if background is None:
            assert option.backgroundBrush.style() == Qt.BrushStyle.NoBrush
        else:
            assert option.backgroundBrush.color() == background
        foreground = model.data(cell, Qt.ItemDataRole.ForegroundRole)
        if foreground is not None:
            assert option.palette.color(option.palette.ColorRole.Text) == foreground
        aligned = model.data(cell, Qt.ItemDataRole.TextAlignmentRole)
        if aligned is None:  # the view's own: left
            assert not option.displayAlignment & (Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignHCenter)
        else:  # right-aligned bytes, a centred mark
            assert int(option.displayAlignment) == int(aligned)
        assert option.icon.isNull() == (model.data(cell, Qt.ItemDataRole.DecorationRole) is None)
        met |= {"coloured" if background is not None else "plain"} | ({"icon"} if not option.icon.isNull() else set())
    return met


def test_the_delegate_reads_the_manifests_cells_in_one_call_and_sees_what_data_answers(demo):
    # Issue 18: the delegate asks each painted cell for seven roles; the manifest answers them in one
    # multiData call. Every cell (falling at the cap, highlighted, a person's edit, right-aligned
    # bytes) must look as data() says.
    from wsi_inspector.gui.tabs.inputs.models import ManifestModel, trim_preview_of

    model = ManifestModel()
    index = ManifestIndex(demo.entries)
    count = len(index.entries)
    model.set_query(index, count, FilterSpec())
    model.set_trim(trim_preview_of(index, count), trim_preview_of(index, count).total_bytes // 2)
    model.set_highlighted(5)
    model.set_reads({demo.entries[3].key: "body b5 read this entry"})  # its read mark: green, centred, in a column of its own
    assert 0 < model.fell < count and any(entry.applied for entry in demo.entries)
    cells = [model.index(row, column) for row in range(model.rowCount()) for column in range(model.columnCount())]
    assert delegate_sees_what_data_answers(model, cells) == {"coloured", "plain"}


def test_the_delegate_reads_the_timelines_cells_in_one_call_and_sees_what_data_answers(demo):
    from wsi_inspector.gui.tabs.timeline.models import TimelineModel

    model = TimelineModel()
    model.set_session(demo)
    model.set_cursor("b5")
    cells = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            top = model.index(row, column)
            cells.append(top)
            cells += [model.index(child, column, model.index(row, 0)) for child in range(model.rowCount(model.index(row, 0)))]
    assert delegate_sees_what_data_answers(model, cells) == {"coloured", "plain", "icon"}


def test_the_delegate_reads_the_json_trees_cells_in_one_call_and_sees_what_data_answers(demo):
    # Issue 18: the Inputs tab's JSON tree is painted afresh on every cursor move that shows another
    # entry; its cells (keys, coloured values, types, a background a search match gets) answer in one call.
    from wsi_inspector.gui.widgets.json_tree import JsonTreeModel
    from wsi_inspector.gui.window.look import HIGHLIGHT

    model = JsonTreeModel()
    entry = max(demo.entries, key=lambda e: len(e.input) if isinstance(e.input, dict) else 0)
    model.set_value({**entry.input, "flag": True, "nothing": None, "words": "a b"}, "input")
    model.set_annotations(colour=lambda pointer, _value: HIGHLIGHT if pointer == "/flag" else None)
    root = model.root_index()
    model.fetchMore(root)
    cells = [model.index(0, column) for column in range(model.columnCount())]
    cells += [model.index(row, column, root) for row in range(model.rowCount(root)) for column in range(model.columnCount())]
    assert delegate_sees_what_data_answers(model, cells) == {"coloured", "plain"}


@pytest.mark.parametrize("name", ["KeptModel", "RefusedModel", "ProblemsModel", "StoreChangesModel", "KeptChangesModel"])
def test_the_delegate_reads_a_small_tables_cells_in_one_call_and_sees_what_data_answers(demo, name):
    # Issue 18: the Kept, Problems and Changes tables (RowsModel) answer the delegate's seven roles in
    # one multiData call, through data(): at every state their views show, each cell as data() says.
    steps = DRIVERS[name](demo)
    model = next(steps)
    met: set[str] = set()

    def check() -> None:
        cells = [model.index(row, column) for row in range(model.rowCount()) for column in range(model.columnCount())]
        met.update(delegate_sees_what_data_answers(model, cells))
    model.modelReset.connect(check)
    for _ in steps:
        pass
    assert "plain" in met
