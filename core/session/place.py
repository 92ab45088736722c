"""Place: where something is in a session file (a spot, a JSON Pointer, a JSON Lines line), as data.

Every problem, entry, body and kept snapshot has one (a JSON-form entry makes its own when first
asked: wsi_inspector.core.session.model.Entry.where). `str(place)` is the one way a place is printed (`5:36`,
`/store/17/call`, `line 4 /call`), so the CLI, the report and the window agree, and code that needs
a part (the line, the record) reads the field instead of parsing the text. `Problem.place` is the
data and `Problem.where` its printed text (what `--json` and every message show, unchanged).
"""
from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    """Where something is in a session file, as data; `str(place)` is the one way it is printed.

    | kind | fields | printed |
    | --- | --- | --- |
    | a spot in the file (a syntax error) | `line`, `column`, and `pointer`: the JSON-form record it is in, if known | `5:36` |
    | a JSON Pointer into the JSON form's document | `pointer` (`()`: the whole file) | `/store/17/call`, `` |
    | a JSON Lines line, or a field of its record | `line`, `pointer` (within the line's record) | `line 4`, `line 4 /call` |
    | a part with no one spot in the file | `name` (JSON Lines' store: every entry line) | `store` |

    Lines and columns are 1-based; pointer tokens are unescaped (`~` and `/` are escaped when printed).
    A named tuple, not a dataclass: every record of a session has one, and a tuple is made in about
    half the time of a frozen dataclass (tests/bench/bench_places.py measures what places cost a load).
    """

    line: int | None = None
    column: int | None = None
    pointer: tuple[str, ...] = ()
    name: str = ""

    @classmethod
    def at(cls, *tokens: str | int) -> Place:
        """A JSON Pointer into the JSON form's document: `Place.at("store", 3)` is `/store/3`."""
        return cls(None, None, tuple(map(str, tokens)))

    @classmethod
    def from_pointer(cls, text: str) -> Place:
        """The place of a JSON Pointer's text (RFC 6901); ValueError for text that is not one."""
        if text and not text.startswith("/"):
            raise ValueError(f"{text!r} is not a JSON Pointer (it is empty or starts with /); make other places with Place's constructors")
        tokens = text.split("/")[1:]
        return cls(None, None, tuple(t.replace("~1", "/").replace("~0", "~") for t in tokens) if "~" in text else tuple(tokens))

    @classmethod
    def record_line(cls, line: int) -> Place:
        """The JSON Lines record on this line of the file."""
        return cls(line)

    @classmethod
    def of_record(cls, where: Place | str | int) -> Place:
        """A record's place as the loaders hand it to be made when asked: a Place, a JSON Pointer's text, or a
        number: n > 0 the JSON Lines line n, n <= 0 the JSON form's `/store/-n`. A session holds one for each
        entry, and an int is some 30 bytes where the pointer's text is 60 and a Place 80."""
        if type(where) is int:
            return cls(where) if where > 0 else cls(None, None, ("store", str(-where)))
        return cls.from_pointer(where) if type(where) is str else where  # type: ignore[return-value]

    @classmethod
    def spot(cls, line: int, column: int, record: Place | None = None) -> Place:
        """A spot in the file (where it stops being JSON), in the JSON-form record `record` if known."""
        return cls(line=line, column=column, pointer=record.pointer if record is not None else ())

    @classmethod
    def named(cls, name: str) -> Place:
        """A part of the session with no one spot in the file (JSON Lines' store)."""
        return cls(name=name)

    def field(self, *tokens: str | int) -> Place:
        """A field inside this place: `/store/3` → `/store/3/call`, `line 4` → `line 4 /call`."""
        return Place(self.line, self.column, self.pointer + tuple(map(str, tokens)), self.name)

    @property
    def is_spot(self) -> bool:
        """True for a line:column in the file (a syntax error), not a record or a field."""
        return self.column is not None

    def record(self) -> Place | None:
        """The place of the store or bodies record this place is in (`/store/3/unit` → `/store/3`,
        `line 4 /call` → `line 4`), or None (a spot, a header part, the whole file)."""
        if self.is_spot or self.name:
            return None
        if self.line is not None:
            return Place(line=self.line)
        if len(self.pointer) >= 2 and self.pointer[0] in ("store", "bodies"):
            return Place(pointer=self.pointer[:2])
        return None

    @property
    def pointer_text(self) -> str:
        """The JSON Pointer part as text (`""` when there is none)."""
        return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in self.pointer)

    def parts(self) -> dict[str, int | str]:
        """The place as JSON: `line`, `column`, `pointer`, `name`, each only when it applies."""
        out: dict[str, int | str] = {}
        if self.line is not None:
            out["line"] = self.line
        if self.column is not None:
            out["column"] = self.column
        if self.pointer:
            out["pointer"] = self.pointer_text
        if self.name:
            out["name"] = self.name
        return out

    def __bool__(self) -> bool:
        """False for the whole file (no line, pointer or name), as its printed text is empty."""
        return self.line is not None or bool(self.pointer) or bool(self.name)

    def __str__(self) -> str:
        if self.column is not None:
            return f"{self.line}:{self.column}"
        if self.line is not None:
            return f"line {self.line} {self.pointer_text}" if self.pointer else f"line {self.line}"
        return self.pointer_text or self.name


NOWHERE = Place()  # a record made in memory (tests, the runner), or the whole file
