"""Redaction that keeps the failure: a copy of a session in which nothing names or locates the site.

A session carries a client's building (site coordinates, room and department names, labels) that
may not leave the firm. `redact_document` rewrites a parsed session (JSON form or JSON Lines
records) in place so that:

- **Free text** becomes a stable placeholder `text-N`: a string value that is not an id, a call, a
  module, a unit, a key or a timestamp; a body's comments and string literals (read with Pygments'
  JavaScript/TypeScript lexer, so the code still runs); titles, names, labels, mock messages.
  The same text is the same placeholder everywhere (data, code, recorded outputs), numbered in
  order of first appearance (session header, scene, modules, store, bodies, kept), so two runs
  over one file give the same copy. Whitespace around a text stays (`" wide"` → `" text-5"`), so
  a message a body builds from pieces comes out as the recorded one does.
- **Recorded messages** (`result.logs`, `result.error`) are not texts of their own: each known text
  inside them (at letter boundaries) is replaced by its placeholder, which is what the redacted
  body prints when it runs. A recorded `returned` string is a placeholder when it is a text, else
  the same replacement, else a new placeholder.
- **Coordinates** move by one offset per unit: the numbers of a point (`[x, y]`, `{x, y(, z)}`, and
  the `[x, y, z]` vertices of a polyline), as wsi_inspector.core.edits.geometry decides what is drawn (sizes such as
  `size`/`module` are not positions). Only x and y move. The offset is a whole multiple of 381 m
  (= 1250 ft = 15000 in), so it is a whole number in every unit and one physical distance: a call in
  `cm` moves as far as one in `mm`. It is derived from the file's bytes (stable across runs).
  A call's unit is its `unit`, else the scene's, else mm; scene data and kept values use the scene's.
- **Kept as they are**: ids (values of `id`, `*Id`, `*Ids`, `editOf`, `body`, `__h`, and any string
  equal to one), calls, modules, groups and fns, units, `type`/`kind`/`lang`/`format` values, object
  keys (and strings equal to a key, or to an identifier of a body's code, or a `typeof` name, or a
  literal written as an object key in code), ISO-8601 timestamps, every other number, the structure.

- **Points written in code** (`[15000, y]`, `[3000 + i * 3600, 12000]`: a two-element array literal whose
  elements start with a number) move the same way, in the body's unit, so the body computes the moved
  points its recorded calls hold; other numbers in code stay.

Not recognised (said in docs/cli.md): a coordinate written as a lone number (`"from": 1500`), numbers
inside recorded messages, a text written into code as something else than one literal.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

from wsi_inspector.core.jsrules.json_values import is_point
from wsi_inspector.core.edits.geometry import NOT_POSITIONS
from wsi_inspector.core.edits.units import UNITS

if TYPE_CHECKING:
    from pygments.token import _TokenType

PLACEHOLDER = "text-{}"
OFFSET_STEP_M = 381  # metres: 1250 ft, 15000 in, 38100 cm, 381000 mm, all whole
PER_METRE = {"mm": 1000, "cm": 100, "m": 1, "ft": 1250 / 381, "in": 15000 / 381}
STRUCTURAL_KEYS = frozenset({"id", "call", "unit", "lang", "kind", "type", "format", "editOf", "body", "__h",
                             "at", "createdAt", "fns"})
ID_KEY = re.compile(r"(?:Id|Ids|_id|_ids|ID)$")
ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
JS_WORDS = frozenset({"string", "number", "object", "undefined", "boolean", "function", "symbol", "bigint",
                      "length", "use strict"})
_JS_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class RedactError(ValueError):
    """A part of the session cannot be redacted safely (a body's code the lexer cannot read back)."""


@dataclass
class Counts:
    """What a redaction changed, by kind (the report's `kinds`)."""

    data: int = 0
    comments: int = 0
    literals: int = 0
    messages: int = 0
    coordinates: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"data texts": self.data, "code comments": self.comments, "code string literals": self.literals,
                "recorded messages": self.messages, "coordinates": self.coordinates}


@dataclass
class Redaction:
    """One redaction's choices: the texts and their numbers, what stays, the offsets, the counts."""

    known: set[str] = field(default_factory=set)  # strings that are ids, calls, units, keys …
    numbers: dict[str, int] = field(default_factory=dict)  # text → N, first appearance order
    first_seen: dict[str, str] = field(default_factory=dict)  # text → where it first appeared
    undone: frozenset[str] = frozenset()  # texts left as they were (they reach a failure)
    move: bool = True  # False: coordinates stay (they reach a failure)
    offset_m: tuple[int, int] = (0, 0)
    keep_keys: frozenset[str] = frozenset()  # --keep-text: these keys' string values stay
    counts: Counts = field(default_factory=Counts)
    _pattern: re.Pattern[str] | None = None

    # --- texts ------------------------------------------------------------------------------
    def is_kept(self, text: str) -> bool:
        """True for a string that is not free text: empty, an id, call, unit, key, timestamp …"""
        core = text.strip()
        return not core or core in self.known or text in self.known or bool(ISO_TIME.match(core))

    def placeholder(self, text: str, where: str) -> str:
        """The text's placeholder, its surrounding whitespace kept; the text itself when undone."""
        core = text.strip()
        number = self.numbers.get(core)
        if number is None:
            number = self.numbers[core] = len(self.numbers) + 1
            self.first_seen[core] = where
            self._pattern = None
        if core in self.undone:
            return text
        start = text.index(core[0])
        return text[:start] + PLACEHOLDER.format(number) + text[start + len(core):]

    def in_message(self, message: str) -> str:
        """A recorded message with every known text in it replaced (at letter boundaries)."""
        if self._pattern is None:
            texts = sorted((t for t in self.numbers if t not in self.undone), key=len, reverse=True)
            parts = [(r"(?<![^\W\d_])" if t[0].isalpha() else "") + re.escape(t) + (r"(?![^\W\d_])" if t[-1].isalpha() else "")
                     for t in texts]
            self._pattern = re.compile("|".join(parts)) if parts else re.compile(r"(?!)")
        return self._pattern.sub(lambda m: PLACEHOLDER.format(self.numbers[m.group(0)]), message)

    # --- coordinates -------------------------------------------------------------------------
    def offset(self, unit: str) -> tuple[float, float]:
        """The offset in `unit` (whole numbers in every unit of SPEC 1)."""
        factor = PER_METRE.get(unit, 1000)
        dx, dy = (round(self.offset_m[0] * factor), round(self.offset_m[1] * factor))
        return (dx, dy) if self.move else (0, 0)

    def offsets(self, units: set[str]) -> dict[str, list[float]]:
        """`{unit: [dx, dy]}` for the units the session uses (the --json document's `offset`)."""
        return {unit: list(self.offset(unit)) for unit in UNITS if unit in units}


def offset_for(data: bytes) -> tuple[int, int]:
    """One offset in metres from the file's bytes: whole multiples of 381 m, 3 to 40 of them on each axis."""
    digest = hashlib.sha256(data).digest()
    return (OFFSET_STEP_M * (3 + digest[0] % 38), OFFSET_STEP_M * (3 + digest[1] % 38))


def _children(value: Any) -> Iterator[tuple[Any, Any]]:
    if isinstance(value, dict):
        yield from value.items()
    elif isinstance(value, list):
        yield from enumerate(value)


def _numbers_only(values: list[Any]) -> bool:
    # A point or a run of numbers holds nothing to walk into (most of a session's values).
    return all(type(v) in (int, float) for v in values)


def _walk(value: Any) -> Iterator[tuple[Any, Any, Any]]:
    """(container, key, child) for every value inside `value`, depth first, keys in order (own stack)."""
    todo: list[Any] = [value]
    while todo:
        container = todo.pop()
        pending = []
        for key, child in _children(container):
            yield container, key, child
            if isinstance(child, dict) or (isinstance(child, list) and not _numbers_only(child)):
                pending.append(child)
        todo.extend(reversed(pending))


def js_unescape(raw: str) -> str:
    """The value of a JavaScript string literal's body (quotes removed)."""
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code.startswith("u{"):
            return chr(int(code[2:-1], 16))
        if code[0] in "ux" and len(code) > 1:
            return chr(int(code[1:], 16))
        if code in ("\n", "\r\n", "\u2028", "\u2029"):
            return ""
        return _SIMPLE_ESCAPES.get(code, code)
    return _JS_ESCAPE.sub(one, raw)


def _template_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${")


def _string_literal(text: str) -> str:
    import json
    return json.dumps(text, ensure_ascii=False)


def _lexer(lang: str) -> Any:
    from pygments.lexers import JavascriptLexer, TypeScriptLexer

    cls = TypeScriptLexer if lang == "ts" else JavascriptLexer
    return cls(stripnl=False, ensurenl=False, stripall=False)


def code_tokens(code: str, lang: str) -> list[tuple[_TokenType, str]]:
    """Pygments' tokens of a body; RedactError when they do not spell the code back exactly."""
    tokens = list(_lexer(lang).get_tokens(code))
    if "".join(value for _type, value in tokens) != code:
        raise RedactError("the JavaScript lexer does not read this code back as written")
    return tokens


def code_identifiers(code: str, lang: str) -> set[str]:
    """The names a body's code uses (a string literal equal to one is a property name, kept)."""
    from pygments.token import Name

    try:
        return {value for kind, value in code_tokens(code, lang) if kind in Name}
    except RedactError:
        return set()


ARRAY_AFTER = frozenset({"(", ",", "=", ":", "[", "{", "return", "?", "=>", "&&", "||", "??", "of", "in", ""})


def _point_literals(tokens: list[tuple[_TokenType, str]], significant: list[int]) -> list[tuple[int, int]]:
    """(token index, axis) of the numbers that place a point written in code: `[x, y]` as the data has it.

    An array literal of exactly two elements, not under a size key (`module: [3600, 4800]`), whose
    element starts with a number that is the whole element or is added to (`3000 + i * 3600`): that
    number moves as the data's coordinates do, so the body computes the moved point.
    """
    from pygments.token import Number, Punctuation

    found: list[tuple[int, int]] = []
    values = [tokens[i][1] for i in significant]
    for n, value in enumerate(values):
        if value != "[" or tokens[significant[n]][0] not in Punctuation:
            continue
        before = values[n - 1] if n > 0 else ""
        if before not in ARRAY_AFTER or (before == ":" and n > 1 and values[n - 2].strip("\"'") in NOT_POSITIONS):
            continue
        depth, parts, start = 0, [], n + 1
        for m in range(n + 1, len(values)):
            if values[m] in ("[", "(", "{", "${"):
                depth += 1
            elif values[m] in ("]", ")", "}") and depth > 0:
                depth -= 1
            elif values[m] == "]":
                parts.append((start, m))
                break
            elif values[m] == "," and depth == 0:
                parts.append((start, m))
                start = m + 1
        else:
            continue
        if len(parts) != 2:
            continue
        for axis, (first, end) in enumerate(parts):
            if first < end and tokens[significant[first]][0] in Number and (
                    end - first == 1 or values[first + 1] in ("+", "-")):
                found.append((significant[first], axis))
    return found


def _moved_literal(text: str, delta: float) -> str | None:
    """A JavaScript number literal moved by `delta` (None for one this does not read: hex, bigint, separators)."""
    try:
        value: float = int(text) if text.isdigit() else float(text)
    except ValueError:
        return None
    moved = value + delta
    return str(int(moved)) if isinstance(value, int) and float(moved).is_integer() else repr(float(moved))


def redact_code(code: str, lang: str, redaction: Redaction, where: str, unit: str = "mm") -> str:
    """A body's code with each comment and string literal (not an id, call, key …) a placeholder, and each
    point it writes as numbers (`[15000, y]`) moved as the data's are, in the body's unit; it still runs."""
    from pygments.token import Comment, Operator, Punctuation, String, Text

    tokens = code_tokens(code, lang)
    out: list[str] = []
    significant = [i for i, (kind, _v) in enumerate(tokens) if kind not in Text and kind not in Comment]
    position = {index: n for n, index in enumerate(significant)}
    moves = {index: redaction.offset(unit)[axis] for index, axis in _point_literals(tokens, significant)}

    def neighbour(index: int, step: int) -> str:
        n = position[index] + step
        return tokens[significant[n]][1] if 0 <= n < len(significant) else ""

    index = 0
    while index < len(tokens):
        kind, value = tokens[index]
        if kind in Comment.Single and value.startswith("//"):
            body = value[2:]
            if body.strip():
                redaction.counts.comments += 1
                value = "// " + redaction.placeholder(body.strip(), where)
        elif kind in Comment.Multiline and value.startswith("/*"):
            inner = value[2:-2]
            if inner.strip("*").strip():
                redaction.counts.comments += 1
                text = " ".join(inner.replace("*", " ").split())
                value = "/* " + redaction.placeholder(text, where) + "\n" * value.count("\n") + " */"
        elif (kind in String.Double or kind in String.Single) and len(value) >= 2 and value[0] in "\"'":
            text = js_unescape(value[1:-1])
            as_key = neighbour(index, 1) == ":" and neighbour(index, -1) in ("{", ",")
            if not as_key and not redaction.is_kept(text):
                redaction.counts.literals += 1
                value = _string_literal(redaction.placeholder(text, where))
        elif kind in String.Backtick and value != "`":
            chunk = [value]  # a template's text between its backticks and ${…} parts, read whole
            while index + 1 < len(tokens) and tokens[index + 1][0] in String.Backtick and tokens[index + 1][1] != "`":
                index += 1
                chunk.append(tokens[index][1])
            raw = "".join(chunk)
            text = js_unescape(raw)
            value = raw
            if not redaction.is_kept(text):
                redaction.counts.literals += 1
                value = _template_escape(redaction.placeholder(text, where))
        elif index in moves and moves[index]:
            moved = _moved_literal(value, moves[index])
            if moved is not None:
                redaction.counts.coordinates += 1
                value = moved
        elif kind in Operator or kind in Punctuation:
            pass
        out.append(value)
        index += 1
    return "".join(out)


# --- the document --------------------------------------------------------------------------------

def _units_of(records: list[tuple[str, dict[str, Any]]]) -> set[str]:
    units = set()
    for kind, record in records:
        unit = record.get("unit") if kind == "entry" else (record.get("scene") or {}).get("unit") if kind == "header" else None
        if isinstance(unit, str):
            units.add(unit)
    return units or {"mm"}


def records_of(document: dict[str, Any] | list[tuple[str, dict[str, Any]]], form: str) -> list[tuple[str, dict[str, Any]]]:
    """The session as (kind, record) pairs in file order: "header", "entry", "body", "kept"."""
    if isinstance(document, list):  # JSON Lines: already its records
        return document
    records: list[tuple[str, dict[str, Any]]] = [("header", document)]
    records += [("entry", e) for e in document.get("store") or [] if isinstance(e, dict)]
    records += [("body", b) for b in document.get("bodies") or [] if isinstance(b, dict)]
    if isinstance(document.get("kept"), dict):
        records.append(("kept", {"kept": document["kept"]}))
    return records


def _collect_known(records: list[tuple[str, dict[str, Any]]], keep_keys: frozenset[str]) -> set[str]:
    """Every string that is structure: ids, calls and their parts, units, keys, kept names, code identifiers."""
    known: set[str] = set(UNITS) | JS_WORDS
    for kind, record in records:
        if kind == "body" and isinstance(record.get("code"), str):
            known |= code_identifiers(record["code"], str(record.get("lang") or "js"))
        if kind == "header" and isinstance(record.get("modules"), dict):
            for name in record["modules"]:
                known.update(_call_parts(name))
        if kind == "header" and isinstance(record.get("session"), dict) and isinstance(record["session"].get("id"), str):
            known.add(record["session"]["id"])
        for container, key, child in _walk(record if kind != "header" else
                                           {k: v for k, v in record.items() if k not in ("store", "bodies", "kept")}):
            if isinstance(container, dict):
                known.add(key)
                if isinstance(child, str) and (key in STRUCTURAL_KEYS or key in keep_keys or ID_KEY.search(key)):
                    known.add(child)
                    if key == "call":
                        known.update(_call_parts(child))
                elif isinstance(child, list) and (ID_KEY.search(key) or key == "fns" or key in keep_keys):
                    known.update(v for v in child if isinstance(v, str))
        if kind in ("entry", "body") and record.get("id") is not None:
            known.add(str(record["id"]))
    known.discard("")
    return known


def _call_parts(call: str) -> list[str]:
    parts = call.split(".")
    return [call, *parts, *(".".join(parts[:n]) for n in range(2, len(parts)))]


class _Redactor:
    """Rewrites one session's records in place with one Redaction's choices."""

    def __init__(self, redaction: Redaction, scene_unit: str):
        self.r = redaction
        self.scene_unit = scene_unit
        self.deferred: list[Callable[[], None]] = []  # messages: rewritten once every text is numbered
        self._polylines: dict[int, tuple[list[Any], bool]] = {}  # id of a list → (it, all its items are points)

    def data(self, value: object, unit: str, where: str, geometry: bool = True) -> object:
        """`value` with its free texts and (with `geometry`) coordinates redacted, in place where it is a container."""
        if isinstance(value, str):
            return self._text(value, where)
        if geometry and self._point(value, None):
            return self._move(value, unit)
        for container, key, child in _walk(value):
            if isinstance(child, str):
                if not (isinstance(container, dict) and key in self.r.keep_keys):
                    container[key] = self._text(child, f"{where}/{key}")
            elif geometry and isinstance(child, (list, dict)) and self._point(child, key if isinstance(container, dict) else None, container):
                container[key] = self._move(child, unit)
        return value

    def _text(self, text: str, where: str) -> str:
        if self.r.is_kept(text):
            return text
        self.r.counts.data += 1
        return self.r.placeholder(text, where)

    def _point(self, value: Any, key: Any, container: Any = None) -> bool:
        if key in NOT_POSITIONS:
            return False
        if isinstance(value, dict):
            return is_point(value)
        if isinstance(value, list) and len(value) == 2:
            return is_point(value)
        # [x, y, z]: only as a vertex of a polyline (a lone [1, 2, 3] is more often a list)
        if not (isinstance(value, list) and len(value) == 3 and is_point(value) and isinstance(container, list)
                and len(container) >= 2):
            return False
        known = self._polylines.get(id(container))  # asked once per polyline, not once per vertex
        if known is None or known[0] is not container:
            known = self._polylines[id(container)] = (container, all(is_point(v) for v in container))
        return known[1]

    def _move(self, point: Any, unit: str) -> Any:
        dx, dy = self.r.offset(unit)
        if dx == 0 and dy == 0:
            return point
        self.r.counts.coordinates += 1
        if isinstance(point, dict):
            point["x"] += dx
            point["y"] += dy
            return point
        return [point[0] + dx, point[1] + dy, *point[2:]]

    def message(self, container: Any, key: Any) -> None:
        """Rewrite `container[key]` (a recorded log or error text) once every text is numbered."""
        def later() -> None:
            before = container[key]
            after = self.r.in_message(before)
            if after != before:
                self.r.counts.messages += 1
                container[key] = after
        self.deferred.append(later)

    def returned(self, value: object, unit: str, where: str) -> object:
        """A recorded returned or kept value: texts known elsewhere map the same way; coordinates move."""
        strings: list[tuple[Any, Any]] = []
        holder = [value]
        if isinstance(value, str):
            strings.append((holder, 0))
        elif self._point(value, None):
            holder[0] = self._move(value, unit)
        for container, key, child in _walk(value):
            if isinstance(child, str):
                strings.append((container, key))
            elif isinstance(child, (list, dict)) and self._point(child, key if isinstance(container, dict) else None, container):
                container[key] = self._move(child, unit)

        def later() -> None:
            for container, key in strings:
                text = container[key]
                if self.r.is_kept(text) or (isinstance(container, dict) and key in self.r.keep_keys):
                    continue
                if text.strip() in self.r.numbers:
                    container[key] = self.r.placeholder(text, where)
                    continue
                replaced = self.r.in_message(text)
                container[key] = replaced if replaced != text else self.r.placeholder(text, where)
                self.r.counts.data += 1
        self.deferred.append(later)
        return holder[0]

    # --- records ------------------------------------------------------------------------------
    def header(self, record: dict[str, Any]) -> None:
        for name in list(record):
            if name in ("format", "store", "bodies", "kept", "kind", "caps"):
                continue
            if name == "scene" and isinstance(record[name], dict):
                self._scene(record[name])
            elif name == "notes" and isinstance(record[name], dict) and isinstance(record[name].get("notes"), list):
                self._notes(record[name]["notes"])
            else:  # the session's info, its modules, unknown fields: texts, never geometry
                record[name] = self.data(record[name], self.scene_unit, f"/{name}", geometry=False)

    def _scene(self, scene: dict[str, Any]) -> None:
        for name in list(scene):
            if name == "mocks" and isinstance(scene[name], dict):
                for call, mock in scene[name].items():
                    if isinstance(mock, dict) and isinstance(mock.get("throws"), str):
                        mock["throws"] = self._text(mock["throws"], f"/scene/mocks/{call}/throws")
                    if isinstance(mock, dict) and "returns" in mock:
                        mock["returns"] = self.returned(mock["returns"], self.scene_unit, f"/scene/mocks/{call}/returns")
            elif name != "unit":
                scene[name] = self.data(scene[name], self.scene_unit, f"/scene/{name}")

    def _notes(self, notes: list[Any]) -> None:
        # A note's text is a person's words about the session: the texts it names map as everywhere;
        # its id, author, time and what it is on stay (the recipient answers the author).
        for note in notes:
            if isinstance(note, dict) and isinstance(note.get("text"), str):
                self.message(note, "text")

    def entry(self, record: dict[str, Any], where: str) -> None:
        unit = str(record["unit"]) if record.get("unit") in UNITS else self.scene_unit
        for name in list(record):
            if name in ("id", "call", "unit", "applied", "editOf", "body", "seq", "at", "kind"):
                continue
            if name == "output":
                record[name] = self.returned(record[name], unit, f"{where}/output")
            else:
                record[name] = self.data(record[name], unit, f"{where}/{name}")

    def body(self, record: dict[str, Any], where: str, unit: str) -> None:
        lang = str(record.get("lang") or "js")
        for name in ("code", "editedCode"):
            if isinstance(record.get(name), str):
                code_lang = str(record.get("editedLang") or lang) if name == "editedCode" else lang
                try:
                    record[name] = redact_code(record[name], code_lang, self.r, f"{where}/{name}", unit)
                except RedactError as exc:
                    raise RedactError(f"{where}/{name}: {exc}; the copy would not run as the body did") from None
        result = record.get("result")
        if isinstance(result, dict):
            logs = result.get("logs")
            if isinstance(logs, list):
                for index, line in enumerate(logs):
                    if isinstance(line, str):
                        self.message(logs, index)
            error = result.get("error")
            if isinstance(error, str):
                self.message(result, "error")
            elif isinstance(error, dict) and isinstance(error.get("message"), str):
                self.message(error, "message")
            if "returned" in result:
                result["returned"] = self.returned(result["returned"], unit, f"{where}/result/returned")
        if "keep" in record:
            record["keep"] = self.returned(record["keep"], unit, f"{where}/keep")
        for name in list(record):
            if name not in ("id", "code", "editedCode", "lang", "editedLang", "seq", "at", "result", "keep", "kind"):
                record[name] = self.data(record[name], unit, f"{where}/{name}")

    def finish(self) -> None:
        for later in self.deferred:
            later()
        self.deferred.clear()


def _body_units(records: list[tuple[str, dict[str, Any]]], scene_unit: str) -> dict[str, str]:
    """Each body's unit for its returned and kept values: the unit of its first own call that has one."""
    units: dict[str, str] = {}
    for kind, record in records:
        if kind == "entry" and record.get("body") is not None and record.get("unit") in UNITS:
            units.setdefault(str(record["body"]), str(record["unit"]))
    return units


def redact_records(records: list[tuple[str, dict[str, Any]]], redaction: Redaction, form: str) -> None:
    """Redact the session's records in place (numbering texts in their order), then the recorded messages."""
    header = records[0][1] if records and records[0][0] == "header" else {}
    scene: dict[str, Any] = header["scene"] if isinstance(header.get("scene"), dict) else {}
    scene_unit = str(scene["unit"]) if scene.get("unit") in UNITS else "mm"
    if not redaction.known:
        redaction.known = _collect_known(records, redaction.keep_keys)
    redaction.counts = Counts()
    redactor = _Redactor(redaction, scene_unit)
    body_units = _body_units(records, scene_unit)
    counters = {"entry": 0, "body": 0}
    for kind, record in records:
        if kind == "header":
            redactor.header(record)
        elif kind == "entry":
            where = f"/store/{counters['entry']}" if form == "json" else f"store entry {record.get('id')!r}"
            counters["entry"] += 1
            redactor.entry(record, where)
        elif kind == "body":
            where = f"/bodies/{counters['body']}" if form == "json" else f"body {record.get('id')!r}"
            counters["body"] += 1
            redactor.body(record, where, body_units.get(str(record.get("id")), scene_unit))
        elif kind == "kept" and isinstance(record.get("kept"), dict):
            record["kept"] = redactor.returned(record["kept"], scene_unit, "/kept")
    redactor.finish()
    if form == "json" and records and records[-1][0] == "kept":
        header["kept"] = records[-1][1]["kept"]


def units_used(records: list[tuple[str, dict[str, Any]]]) -> set[str]:
    """The units the session's calls and scene name (mm when none)."""
    return _units_of(records)
