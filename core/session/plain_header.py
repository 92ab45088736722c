"""The header parts that are plainly valid, known so without pydantic; and the session's caps as a plain value.

pydantic (wsi_inspector.core.session.schema) says exactly what is wrong with a header part and reads
what it may convert (`"storeBytes": "5"`), but building its models costs a process 15 MB of memory
and a tenth of a second: a third of `wsi manifest`'s peak beside the text, on every run, for parts that
are nearly always right. A part is checked here first: `plainly_valid` is True only where pydantic would
take the part exactly as written (the right types, no conversion, no field named twice by name and
by alias); anything else goes to pydantic, which then says what it says today.
"""
from __future__ import annotations

from collections.abc import Callable


def _text_or_none(raw: dict[str, object], key: str) -> bool:
    value = raw.get(key)
    return value is None or type(value) is str


def _whole_or_none(raw: dict[str, object], key: str) -> bool:
    value = raw.get(key)
    return value is None or (type(value) is int and value >= 0)


def _session(raw: dict[str, object]) -> bool:
    return (type(raw.get("id")) is str and _text_or_none(raw, "title") and _text_or_none(raw, "createdAt")
            and "created_at" not in raw)


def _caps(raw: dict[str, object]) -> bool:
    return (_whole_or_none(raw, "storeBytes") and _whole_or_none(raw, "keepBytes")
            and "store_bytes" not in raw and "keep_bytes" not in raw)


def _module(raw: dict[str, object]) -> bool:
    fns = raw.get("fns")
    return (fns is None or (type(fns) is list and all(type(f) is str for f in fns))) and _text_or_none(raw, "doc")


def _entity(raw: dict[str, object]) -> bool:
    return type(raw.get("id")) is str and type(raw.get("type")) is str and _text_or_none(raw, "name")


def _mock(raw: dict[str, object]) -> bool:
    echo = raw.get("echo")
    return (echo is None or type(echo) is bool) and _text_or_none(raw, "throws")


# By the name of the pydantic model in wsi_inspector.core.session.schema that checks the part otherwise.
_PLAIN: dict[str, Callable[[dict[str, object]], bool]] = {
    "SessionInfo": _session, "Caps": _caps, "ModuleInfo": _module, "Entity": _entity, "Mock": _mock,
}


def plainly_valid(model: str, raw: object) -> bool:
    """True when the pydantic model named `model` would take `raw` (a parsed header part) exactly as it is."""
    return type(raw) is dict and _PLAIN[model](raw)


class Caps:
    """The editor's byte caps: the store's (trimStore) and each kept value's (validateKeep), and any other
    member of `caps`, kept (SPEC 2.1: never dropped)."""

    __slots__ = ("store_bytes", "keep_bytes", "extra")

    def __init__(self, store_bytes: int | None = None, keep_bytes: int | None = None, extra: dict[str, object] | None = None):
        self.store_bytes = store_bytes
        self.keep_bytes = keep_bytes
        self.extra = {} if extra is None else extra

    @classmethod
    def of(cls, raw: dict[str, object]) -> Caps:
        """The caps of a plainly valid `caps` part (see plainly_valid)."""
        extra = {k: v for k, v in raw.items() if k not in ("storeBytes", "keepBytes")}
        return cls(raw.get("storeBytes"), raw.get("keepBytes"), extra)  # type: ignore[arg-type]  # checked: int or None

    @property
    def max_keep_bytes(self) -> int:
        from wsi_inspector.core.jsrules.run_inputs import MAX_KEEP_BYTES

        return MAX_KEEP_BYTES if self.keep_bytes is None else self.keep_bytes

    def as_json(self) -> dict[str, object]:
        """`caps` as the file spells it, members that are null left out."""
        named = {"storeBytes": self.store_bytes, "keepBytes": self.keep_bytes, **self.extra}
        return {k: v for k, v in named.items() if v is not None}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Caps) and (self.store_bytes, self.keep_bytes, self.extra) == (other.store_bytes, other.keep_bytes, other.extra)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the model it replaces

    def __repr__(self) -> str:
        return f"Caps(store_bytes={self.store_bytes!r}, keep_bytes={self.keep_bytes!r}, extra={self.extra!r})"
