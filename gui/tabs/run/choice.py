"""What the person chose and typed in the Run tab, held beside the context rather than in the widget.

The body in the editor, its edited code and language, the timeout and the fixed-random switch live
here, so Reduce…, Save repro and Export read exactly what the person sees, and the body cannot
disagree with the cursor: the context moves `key` to the cursor's body on every cursor move (the edit
of each body is kept, so nothing typed is lost). Only two states leave them apart, and the Run tab
says each in words: a new body (key None), and the end of the session (no body there).

A file written by Save repro or Reduce… carries the code that ran beside the record (`editedCode`,
`editedLang`); opening it puts that code in the editor as the body's edit, so the window shows the
code that was reduced, and Revert shows the record.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from wsi_inspector.core.session.model import Body
from wsi_inspector.core.session.load import Session
from wsi_inspector.gui.background.session_facts import edited_code

NEW_BODY = "// A new body: inputs, kept, modules, scene, console and log are in scope.\nreturn scene.info();\n"


class RunChoice(QObject):
    """The Run tab's choice: a body key (None: a new body), edits per body, timeout and determinism."""

    chosen = Signal()  # another body (or the new body) is in the editor: show its code
    edited = Signal(object)  # the key whose edit was made or dropped (the chooser marks it)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.session: Session | None = None
        self.key: str | None = None
        self.edits: dict[str | None, tuple[str, str]] = {}  # body key (None: the new body) → (code, lang) as edited
        self.timeout_s = 10.0
        self.deterministic = True
        self._path: object = None  # the file the edits belong to

    def open(self, session: Session | None, key: str | None) -> None:
        """A session was opened (or reloaded): edits of another file go, a written file's edited code comes in."""
        path = session.path if session is not None else None
        if path != self._path or session is None:
            self.edits = dict(edited_code(session)) if session is not None else {}
            self._path = path
        self.session = session
        self.key = key
        self.chosen.emit()

    def choose(self, key: str | None) -> None:
        """Put body `key` (None: the new body) in the editor."""
        if key == self.key:
            return
        self.key = key
        self.chosen.emit()

    def body(self) -> Body | None:
        """The recorded body in the editor (None: a new body, or no session)."""
        return self.session.body(self.key) if self.session is not None and self.key is not None else None

    def recorded(self) -> tuple[str, str]:
        """The code and language the body in the editor was recorded with (a new body's template)."""
        body = self.body()
        return (body.code, body.lang) if body is not None else (NEW_BODY, "js")

    def code(self) -> tuple[str, str]:
        """The code and language in the editor: the body's edit when there is one, else its record."""
        return self.edits.get(self.key, self.recorded())

    def is_edited(self, key: str | None = None) -> bool:
        """True when body `key` (default: the one in the editor) has an edit."""
        return (self.key if key is None else key) in self.edits

    def set_code(self, code: str, lang: str) -> None:
        """The person typed: keep the code as the body's edit when it differs from the record."""
        key = self.key
        was = key in self.edits
        if (code, lang) != self.recorded():
            self.edits[key] = (code, lang)
        else:
            self.edits.pop(key, None)
        if was != (key in self.edits):
            self.edited.emit(key)

    def revert(self) -> None:
        """Drop the edit of the body in the editor: its record comes back."""
        if self.edits.pop(self.key, None) is not None:
            self.edited.emit(self.key)
        self.chosen.emit()

    def at_own_point(self, cursor: object) -> bool:
        """True when the body in the editor is the body at `cursor` (it runs where it was recorded)."""
        return self.key is not None and cursor is not None and str(cursor) == self.key
