"""TypeScript bodies: erase type-only syntax with tree-sitter, keeping every line and column in place.

As Node's type stripping does, each erased character becomes a space (a character outside the BMP
two, since V8 counts UTF-16 units), so V8's error positions are the body's own. What has a
runtime meaning and cannot be erased (enum, namespace, parameter properties, decorators,
`import x = require(…)`) is refused at its line:column, saying what to write instead. Code that
does not parse is left as written around the error, so V8 reports the syntax error in its words.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

WRAP = b"(async function () {\n"
ERASE_WHOLE = {
    "interface_declaration", "type_alias_declaration", "ambient_declaration", "function_signature",
    "abstract_method_signature", "index_signature", "implements_clause",
}
ERASE_NODE = {
    "type_annotation", "type_parameters", "type_arguments", "asserts_annotation", "type_predicate_annotation",
    "opting_type_annotation", "omitting_type_annotation",
}
MEMBER_MODIFIERS = {"accessibility_modifier", "readonly", "override_modifier", "abstract"}
PARAMETERS = {"required_parameter", "optional_parameter"}
REFUSED = {
    "enum_declaration": "an enum has runtime values and cannot be erased; use a const object, "
    "e.g. const Side = { Left: 0, Right: 1 }",
    "internal_module": "a namespace has runtime values and cannot be erased; use a plain object or top-level functions",
    "module": "a module declaration has runtime values and cannot be erased; use a plain object",
    "decorator": "decorators cannot be erased; call the function on the class or method instead",
    "import_alias": "`import x = …` cannot be erased; use a const",
}


class TypeScriptError(Exception):
    """TypeScript that cannot be erased, or does not parse, at the body's line:column (1-based)."""

    def __init__(self, name: str, message: str, line: int, column: int):
        super().__init__(f"{line}:{column}: {message}")
        self.name, self.message, self.line, self.column = name, message, line, column

    def as_error(self) -> dict[str, Any]:
        """The run result's error."""
        return {"name": self.name, "message": self.message, "line": self.line, "column": self.column}


@dataclass(slots=True)
class _Ranges:
    spans: list[tuple[int, int]]


@lru_cache(maxsize=1)
def _parser() -> Any:
    import tree_sitter_typescript
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_typescript.language_typescript()))


def erase_types(code: str) -> str:
    """The body with its type-only syntax replaced by spaces; TypeScriptError when it cannot be."""
    source = code.encode("utf-8", "surrogatepass")
    tree = _parser().parse(WRAP + source + b"\n})")
    lines = source.split(b"\n")
    ranges = _Ranges([])
    _collect(tree.root_node, ranges, lines)
    if not ranges.spans:
        return code
    return _blank(source, [(a - len(WRAP), b - len(WRAP)) for a, b in ranges.spans]).decode("utf-8", "surrogatepass")


def _collect(node: Any, ranges: _Ranges, lines: list[bytes]) -> None:
    kind = node.type
    if node.is_error or node.is_missing:
        return  # left as written: V8 reports the syntax error at its own line and column
    if kind in REFUSED:
        raise _error(node, "TypeScriptError", REFUSED[kind], lines)
    if kind in ERASE_WHOLE or kind in ERASE_NODE:
        ranges.spans.append((node.start_byte, node.end_byte))
        return
    if kind in ("as_expression", "satisfies_expression"):
        keyword = next(c for c in node.children if c.type in ("as", "satisfies"))
        ranges.spans.append((keyword.start_byte, node.end_byte))
        _collect(node.children[0], ranges, lines)
        return
    if kind == "non_null_expression":
        ranges.spans.append((node.end_byte - 1, node.end_byte))
    elif kind in PARAMETERS:
        _parameter(node, ranges, lines)
    elif kind in ("public_field_definition", "method_definition", "class_declaration", "abstract_class_declaration"):
        if kind == "public_field_definition" and any(c.type == "declare" for c in node.children):
            ranges.spans.append((node.start_byte, node.end_byte))
            return
        for child in node.children:
            if child.type in MEMBER_MODIFIERS or (child.type in ("?", "!") and kind != "class_declaration"):
                ranges.spans.append((child.start_byte, child.end_byte))
    for child in node.children:
        _collect(child, ranges, lines)


def _parameter(node: Any, ranges: _Ranges, lines: list[bytes]) -> None:
    for child in node.children:
        if child.type in ("accessibility_modifier", "readonly", "override_modifier"):
            raise _error(child, "TypeScriptError", "a parameter property (`constructor(private x)`) cannot be erased; "
                         "declare the field and assign it in the constructor (`this.x = x`)", lines)
        if child.type == "?":
            ranges.spans.append((child.start_byte, child.end_byte))
    if node.children and node.children[0].type == "this":
        end = node.end_byte
        after = node.next_sibling
        if after is not None and after.type == ",":
            end = after.end_byte
        ranges.spans.append((node.start_byte, end))


def _error(node: Any, name: str, message: str, lines: list[bytes]) -> TypeScriptError:
    row, byte_column = node.start_point
    line = max(row, 1)
    if row == 0:
        byte_column = 0
    text = lines[line - 1] if line - 1 < len(lines) else b""
    column = len(text[:byte_column].decode("utf-8", "replace").encode("utf-16-le", "surrogatepass")) // 2 + 1
    return TypeScriptError(name, message, line, column)


def _blank(source: bytes, spans: list[tuple[int, int]]) -> bytes:
    out = bytearray(source)
    drop = bytearray(len(source))
    for start, end in spans:
        for i in range(max(start, 0), min(end, len(source))):
            byte = source[i]
            if byte in (0x0A, 0x0D):
                continue
            if 0x80 <= byte < 0xC0:
                drop[i] = 1
            else:
                out[i] = 0x20
                if byte >= 0xF0:  # outside the BMP: two UTF-16 units, so two spaces
                    drop[i] = 2
    if not any(drop):
        return bytes(out)
    result = bytearray()
    for i, byte in enumerate(out):
        if drop[i] == 1:
            continue
        result.append(byte)
        if drop[i] == 2:
            result.append(0x20)
    return bytes(result)
