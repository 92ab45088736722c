"""The one object every view shares: the open session, the timeline cursor and the state there."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from wsi_inspector.core.search.filtering import ManifestIndex
from wsi_inspector.core.session.growing import Appended
from wsi_inspector.core.session.model import Body, Entry, Id, State, id_key
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.timeline import body_handed
from wsi_inspector.gui.tabs.run.choice import RunChoice


def empty_state() -> State:
    """The state of no session at all: nothing stored, nothing kept."""
    return State([], {})


class InspectorContext(QObject):
    """The open session, the cursor (a body id, or None for the end of session) and its state.

    Views take it in `__init__`, subscribe to its signals, and must handle `session is None`.
    `index` is the session's `ManifestIndex` (entry sizes, filter and sort keys), built once.
    `session_grew` carries what a followed file appended (`wsi_inspector.core.session.growing.Appended`): the session is
    the same object, grown in place, so views insert rows rather than rebuild. When the cursor is at
    the end of the session its state grew too: `state_grew` follows, for the views that show that
    state (they refresh as on a cursor move; the cursor itself did not move, so `cursor_changed`
    stays quiet and cursor history is untouched).
    """

    session_changed = Signal()
    cursor_changed = Signal()
    entry_chosen = Signal(object)  # an Entry chosen anywhere (timeline, problems, resolver)
    body_chosen = Signal(object)  # a Body chosen anywhere
    badges_changed = Signal()
    session_grew = Signal(object)  # wsi_inspector.core.session.growing.Appended: lines a followed file appended to the open session
    state_grew = Signal()  # the cursor is at the end and the session grew: the state at the cursor is larger
    trim_cap_changed = Signal(object)  # the cap the Trim tab tries (an int, or None: the session's own)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.session: Session | None = None
        self.index: ManifestIndex = ManifestIndex([])
        self.cursor: Id | None = None
        self.state: State = empty_state()
        self.badges: dict[str, str] = {}  # body key → "same" | "diverged" | "failed" (Run view's replay)
        self.run = RunChoice(self)  # the Run tab's body, edits, timeout: kept on the cursor's body here
        self.trim_cap: int | None = None  # the cap the person tries in the Trim tab (None: the session's caps.storeBytes)
        self.evidence: dict[str, dict[str, Any]] = {}  # body key → {"reads", "retyped"} of that replay (SPEC 7)

    def set_session(self, session: Session | None, index: ManifestIndex | None = None, cursor: Any = None) -> None:
        """Open `session` (None closes it); the cursor goes to `cursor` if that body exists, else the end."""
        self.session = session
        self.index = index if index is not None else ManifestIndex(session.entries if session else [])
        self.badges = {}
        self.trim_cap = None
        self.evidence = {}
        self.cursor = cursor if session is not None and session.body(cursor) is not None else None
        self.state = session.state_at(self.cursor) if session is not None else empty_state()
        self.run.open(session, self._run_key(session))
        self.session_changed.emit()
        self.cursor_changed.emit()
        self.badges_changed.emit()

    def set_cursor(self, body_id: Id | None) -> None:
        """Move the cursor to the state handed to body `body_id` (None: the end of the session)."""
        if self.session is None:
            return
        if body_id is not None and self.session.body(body_id) is None:
            raise KeyError(f"no body {body_id!r} in this session")
        if id_key(body_id) == id_key(self.cursor):
            return
        self.cursor = body_id
        self.state = self.session.state_at(body_id)
        if body_id is not None:  # the Run tab shows the cursor's body, always (its edit, if any, is kept)
            self.run.choose(str(body_id))
        self.cursor_changed.emit()

    def _run_key(self, session: Session | None) -> str | None:
        """The body the Run tab starts on: the cursor's, else the first body, else a new body."""
        if session is None:
            return None
        if self.cursor is not None:
            return str(self.cursor)
        return session.bodies[0].key if session.bodies else None

    def grow(self, appended: Appended) -> None:
        """The open session took lines its file appended (`wsi_inspector.core.session.growing`): extend the index and the end state, tell the views."""
        if self.session is None:
            return
        self.index.extend(appended.entries)
        grew = self.cursor is None and bool(appended.items)
        if grew:
            self.state = self.session.state_at(None)
        self.session_grew.emit(appended)
        if grew:
            self.state_grew.emit()

    def cursor_for_entry(self, entry: Entry) -> Id | None:
        """The first body handed `entry` (`wsi_inspector.core.session.timeline.body_handed`); None: the end."""
        if self.session is None:
            return self.cursor
        try:
            return body_handed(self.session, entry)
        except KeyError:  # not on this session's timeline (an entry of a session since closed)
            return self.cursor

    def choose_entry(self, entry: Entry) -> None:
        """Choose an entry everywhere: move the cursor to a state that holds it if this one does not."""
        # A state's store is the session's first entries: the index finds the entry's place (made by the load
        # job) where a walk of the store took a million steps on the GUI thread.
        if self.index.position(entry, len(self.state.store)) is None:
            self.set_cursor(self.cursor_for_entry(entry))
        self.entry_chosen.emit(entry)

    def choose_body(self, body: Body) -> None:
        """Choose a body everywhere: the cursor moves to the state it was handed."""
        self.set_cursor(body.id)
        self.body_chosen.emit(body)

    def set_trim_cap(self, cap: int | None) -> None:
        """The Trim tab tries `cap` (None, or the session's own cap: nothing is being tried); the status bar and Export read it."""
        if self.session is not None and cap == self.session.caps.store_bytes:
            cap = None
        if cap != self.trim_cap:
            self.trim_cap = cap
            self.trim_cap_changed.emit(cap)

    def set_badges(self, badges: dict[str, str], evidence: dict[str, dict[str, Any]] | None = None) -> None:
        """Replay verdicts per body key ("same", "diverged", "failed") for the timeline to show, and what
        each replay read and typed again (`wsi_inspector.core.edits.body_reads.body_evidence`)."""
        self.badges = {str(k): v for k, v in badges.items()}
        self.evidence = {str(k): v for k, v in (evidence or {}).items()}
        self.badges_changed.emit()

    @property
    def cursor_text(self) -> str:
        """Where the cursor is, in words: `at body b3` or `at the end of the session`."""
        return "at the end of the session" if self.cursor is None else f"at body {self.cursor}"
